/* How each kind of player picks its move.
 * - PLAYER_BEST: dtb_best_move, perfect play from the .mtc tables. For the
 *   winner the quickest conversion (so the mtc falls by one with every king
 *   move and the win is played out), for the loser the longest resistance to
 *   the next conversion.
 * - PLAYER_RANDOM: any legal move, uniformly.
 * - PLAYER_WDL: a random move among those that keep the position's value, all
 *   that the .wdl tables alone can tell. As a winner it keeps the win in
 *   theory but drifts, so the draw rules catch it: the control showing that
 *   the rule check in game.c bites. */
#ifndef PLAY_ENDING_PLAYERS_H
#define PLAY_ENDING_PLAYERS_H

#include <dtb/dtb.h>
#include <stddef.h>

#include "rng.h"

typedef enum player { PLAYER_RANDOM = 0, PLAYER_BEST = 1, PLAYER_WDL = 2 } player;

/* The move `who` makes in `pos`, one of its `count` legal `moves` (count > 0). */
dtb_status choose_move(dtb_tables* tables, player who, const dtb_position* pos, const dtb_move* moves, size_t count,
                       rng* r, dtb_move* move, dtb_error* error);

/* "best", "random", "wdl"; player_parse returns -1 for another name. */
const char* player_name(player who);
int player_parse(const char* name);

#endif
