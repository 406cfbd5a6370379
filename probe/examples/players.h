/* How each kind of player picks its move.
 * - PLAYER_BEST: dtb_best_move, perfect play from the .mtc tables. For the
 *   winner the quickest conversion (so the mtc falls by one with every king
 *   move and the win is played out), for the loser the longest resistance to
 *   the next conversion.
 * - PLAYER_RULES: perfect play under the draw rules with the game's counts:
 *   dtb_best_move_rules with the 6.2 count outside the 6.3/6.4 classes,
 *   dtb_best_move_rule with the class count inside them. Where a count is
 *   already running low this keeps wins that PLAYER_BEST's least-mtc move
 *   can lose to the count (a conversion into a position the rule draws, or a
 *   man move that spends the class count); from the fresh counts of a random
 *   start both win every 2-5 piece ending.
 * - PLAYER_RANDOM: any legal move, uniformly.
 * - PLAYER_WDL: a random move among those that keep the position's value, all
 *   that the .wdl tables alone can tell. As a winner it keeps the win in
 *   theory but drifts, so the draw rules catch it: the control showing that
 *   the rule check in game.c bites. */
#ifndef PLAY_ENDING_PLAYERS_H
#define PLAY_ENDING_PLAYERS_H

#include <dtb/dtb.h>
#include <stddef.h>

#include "draw_counts.h"
#include "rng.h"

typedef enum player { PLAYER_RANDOM = 0, PLAYER_BEST = 1, PLAYER_WDL = 2, PLAYER_RULES = 3 } player;

/* The move `who` makes in `pos`, one of its `count` legal `moves` (count > 0),
 * with the game's draw counts so far. */
dtb_status choose_move(dtb_tables* tables, player who, const dtb_position* pos, draw_counts counts,
                       const dtb_move* moves, size_t count, rng* r, dtb_move* move, dtb_error* error);

/* "random", "best", "wdl", "rules"; player_parse returns -1 for another name. */
const char* player_name(player who);
int player_parse(const char* name);

#endif
