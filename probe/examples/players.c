#include "players.h"

#include <string.h>

#define MAX_MOVES 256

/* A random move among those that keep the best value (dtb_probe_moves). */
static dtb_status value_keeping_move(dtb_tables* tables, const dtb_position* pos, rng* r, dtb_move* move,
                                     dtb_error* error) {
  dtb_move valued[MAX_MOVES];
  size_t count = 0, keeping = 0;
  const dtb_status s = dtb_probe_moves(tables, pos, valued, MAX_MOVES, &count, NULL, error);
  if (s != DTB_OK) return s;
  for (size_t i = 0; i < count; ++i)
    if (valued[i].keeps_best) valued[keeping++] = valued[i];
  *move = valued[rng_below(r, keeping)]; /* a position with a move has a best one */
  return DTB_OK;
}

dtb_status choose_move(dtb_tables* tables, player who, const dtb_position* pos, draw_counts counts,
                       const dtb_move* moves, size_t count, rng* r, dtb_move* move, dtb_error* error) {
  switch (who) {
    case PLAYER_BEST: return dtb_best_move(tables, pos, move, error);
    case PLAYER_RULES:
      if (counts.plies_in_class >= 0) return dtb_best_move_rule(tables, pos, counts.plies_in_class, move, error);
      return dtb_best_move_rules(tables, pos, counts.plies_since_conversion, move, error);
    case PLAYER_WDL: return value_keeping_move(tables, pos, r, move, error);
    case PLAYER_RANDOM: break;
  }
  *move = moves[rng_below(r, count)];
  return DTB_OK;
}

static const char* const names[] = {"random", "best", "wdl", "rules"};

const char* player_name(player who) { return names[who]; }

int player_parse(const char* name) {
  for (int i = 0; i < 4; ++i)
    if (strcmp(name, names[i]) == 0) return i;
  return -1;
}
