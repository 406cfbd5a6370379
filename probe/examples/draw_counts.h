/* The two counts the FMJD draw rules keep, carried along a game so that the
 * engine can ask dtb_probe_rules whether the position is still won UNDER THE
 * RULES, not only in theory:
 * - article 6.2: plies since the last conversion (a capture or a man move);
 *   at 50 (25 moves of each player with only kings moving) the game is drawn;
 * - articles 6.3 / 6.4: plies played in the material's draw-limit class (three
 *   pieces, at least one a king, against a lone king: 32 plies; two or fewer
 *   against a lone king: 10), -1 outside the classes. A move that stays in the
 *   class continues the count (a promotion inside 6.3, a capture inside 6.4
 *   too); entering the other class, or a class from none, starts it afresh.
 * (The project's reading of RULES.md: README "Draw rules" and
 * index/draw_rule_class.h, plies_in_class_after, which this mirrors.) */
#ifndef PLAY_ENDING_DRAW_COUNTS_H
#define PLAY_ENDING_DRAW_COUNTS_H

#include <dtb/dtb.h>

#define ARTICLE_62_PLIES 50

typedef struct draw_counts {
  int plies_since_conversion;
  int plies_in_class; /* -1: the position is in no class */
} draw_counts;

/* Counts for a game that starts at `pos`: nothing played yet. */
draw_counts draw_counts_start(const dtb_position* pos);

/* The counts after `move` (legal in `before`) led to `after`. */
draw_counts draw_counts_after(draw_counts counts, const dtb_position* before, const dtb_move* move,
                              const dtb_position* after);

/* 3 for article 6.3, 4 for 6.4, 0 for no class. */
int draw_class(const dtb_position* pos);

#endif
