/* The command line:
 *   play_ending --tables DIR [--materials all|5|KKMvK,...] [--games N] [--seed S]
 *   play_ending --tables DIR --fen FEN [--defence best|random] [--seed S]
 * and, for either, --winner best|rules|wdl|random (best, the engine, by
 * default; rules, the engine with the rule-aware moves; wdl and random are
 * controls that must fail). */
#ifndef PLAY_ENDING_OPTIONS_H
#define PLAY_ENDING_OPTIONS_H

#include <stdint.h>

#include "players.h"

typedef struct options {
  const char* tables;
  const char* materials; /* "all" by default */
  int games;             /* random won positions per material, each played against both defences */
  uint64_t seed;
  const char* fen;       /* one position, its moves printed, instead of materials */
  player fen_defence;    /* the loser's player with --fen */
  player winner;
} options;

/* 0 on success; otherwise prints the problem and the usage to stderr. */
int options_parse(int argc, char** argv, options* out);

#endif
