/* One game from a won position to its end, each side played by a kind of
 * player (players.h): the engine's winner is PLAYER_BEST, its opponents
 * PLAYER_RANDOM and PLAYER_BEST. Before every ply the position must still be
 * won for the winner UNDER THE DRAW RULES (dtb_probe_rules with the counts of
 * draw_counts.h), so a game that article 6.2, 6.3 or 6.4 would draw is caught
 * at the ply where the win slips, not at its end. */
#ifndef PLAY_ENDING_GAME_H
#define PLAY_ENDING_GAME_H

#include <dtb/dtb.h>
#include <stdio.h>

#include "players.h"
#include "rng.h"

typedef struct game_outcome {
  int won;           /* 1: the loser was left without a move (or a piece) within the rules */
  int plies;         /* plies played */
  char failure[512]; /* why not, when won is 0 */
} game_outcome;

/* Plays `start`, won for `winner`, to the end. `trace` (NULL for none)
 * receives one line per ply. API errors are returned (with `error`); a game
 * that is not won is DTB_OK with out->won = 0 and the reason. */
dtb_status play_game(dtb_tables* tables, const dtb_position* start, dtb_side winner, player winner_plays,
                     player loser_plays, rng* r, FILE* trace, game_outcome* out, dtb_error* error);

#endif
