/* What a material's games came to, and its summary line:
 *   material  positions  won_vs_random  won_vs_best  longest_vs_random  longest_vs_best  longest_game
 * (longest in plies; longest_game is the defence and start FEN of the
 * longest game, to replay it with --fen). */
#ifndef PLAY_ENDING_TALLY_H
#define PLAY_ENDING_TALLY_H

#include <dtb/dtb.h>
#include <stdio.h>

#include "game.h"
#include "players.h"

typedef struct material_tally {
  int positions;
  int won[2];     /* by the loser's player: PLAYER_RANDOM, PLAYER_BEST */
  int longest[2]; /* plies, likewise */
  int errors;     /* API errors: the material's games stopped there */
  int longest_game; /* the longest of both, whose start is kept: */
  player longest_defence;
  char longest_fen[256];
} material_tally;

void tally_game(material_tally* tally, player loser, const dtb_position* start, const game_outcome* game);

/* 1 when every game played was won and no API error occurred. */
int tally_all_won(const material_tally* tally);

void tally_print_header(FILE* out);
void tally_print(FILE* out, const char* material, const material_tally* tally);

#endif
