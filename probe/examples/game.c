#include "game.h"

#include <stdarg.h>
#include <string.h>

#include "draw_counts.h"

#define MAX_MOVES 256
/* Far above the longest game the rules allow (every phase between two
 * conversions is shorter than 50 plies, and 5 pieces have fewer than 50
 * conversions: captures and man steps), so reaching it can only mean a bug.
 * It counts as a failure. */
#define MAX_PLIES 2500

static const char* wdl_name(dtb_wdl v) { return v == DTB_WIN ? "win" : v == DTB_DRAW ? "draw" : "loss"; }

static void lose_game(game_outcome* out, const dtb_position* pos, const char* format, ...) {
  char fen[256] = "?";
  dtb_position_to_fen(pos, fen, sizeof fen);
  char why[384];
  va_list args;
  va_start(args, format);
  vsnprintf(why, sizeof why, format, args);
  va_end(args);
  out->won = 0;
  snprintf(out->failure, sizeof out->failure, "ply %d, %s: %s", out->plies, fen, why);
}

/* The value under the rules for the side to move, with the counts so far. */
static dtb_status rule_value(dtb_tables* tables, const dtb_position* pos, draw_counts counts, dtb_wdl* value,
                             dtb_error* error) {
  if (counts.plies_since_conversion >= ARTICLE_62_PLIES) { /* 25 king moves each: drawn (6.2) */
    *value = DTB_DRAW;
    return DTB_OK;
  }
  return dtb_probe_rules(tables, pos, counts.plies_since_conversion, counts.plies_in_class, value, error);
}

/* 1 if the side to move still has the value it must have for `winner` to
 * win under the rules; else the game is marked lost with the counts. */
static dtb_status still_won(dtb_tables* tables, const dtb_position* pos, draw_counts counts, dtb_side winner,
                            game_outcome* out, int* won, dtb_error* error) {
  dtb_wdl value = DTB_DRAW;
  const dtb_status s = rule_value(tables, pos, counts, &value, error);
  if (s != DTB_OK) return s;
  const dtb_wdl expected = pos->side_to_move == (uint32_t)winner ? DTB_WIN : DTB_LOSS;
  *won = value == expected;
  if (!*won)
    lose_game(out, pos, "under the draw rules (6.2 count %d, class count %d) the side to move has a %s, not a %s",
              counts.plies_since_conversion, counts.plies_in_class, wdl_name(value), wdl_name(expected));
  return DTB_OK;
}

static void trace_ply(FILE* trace, const dtb_position* pos, const dtb_move* move, int ply,
                      const dtb_position* after, draw_counts counts) {
  if (!trace) return;
  char text[128] = "?";
  dtb_move_to_string(pos, move, text, sizeof text);
  fprintf(trace, "%3d  %s %-10s  6.2 count %2d", ply + 1, pos->side_to_move == DTB_WHITE ? "white" : "black", text,
          counts.plies_since_conversion);
  if (counts.plies_in_class >= 0) fprintf(trace, ", 6.%d count %2d", draw_class(after), counts.plies_in_class);
  fprintf(trace, "\n");
}

dtb_status play_game(dtb_tables* tables, const dtb_position* start, dtb_side winner, player winner_plays,
                     player loser_plays, rng* r, FILE* trace, game_outcome* out, dtb_error* error) {
  memset(out, 0, sizeof *out);
  dtb_position pos = *start;
  draw_counts counts = draw_counts_start(&pos);
  dtb_move moves[MAX_MOVES];
  for (out->plies = 0; out->plies < MAX_PLIES; ++out->plies) {
    const int winner_to_move = pos.side_to_move == (uint32_t)winner;
    size_t count = 0;
    dtb_status s = dtb_legal_moves(&pos, moves, MAX_MOVES, &count, error);
    if (s != DTB_OK) return s;
    if (count == 0) { /* no move or no piece left: the side to move has lost */
      if (winner_to_move)
        lose_game(out, &pos, "the winner has no move left");
      else
        out->won = 1;
      return DTB_OK;
    }
    int won = 0;
    if ((s = still_won(tables, &pos, counts, winner, out, &won, error)) != DTB_OK || !won) return s;
    dtb_move move;
    const player mover = winner_to_move ? winner_plays : loser_plays;
    if ((s = choose_move(tables, mover, &pos, counts, moves, count, r, &move, error)) != DTB_OK) return s;
    dtb_position next;
    if ((s = dtb_make_move(&pos, &move, &next)) != DTB_OK) return s;
    counts = draw_counts_after(counts, &pos, &move, &next);
    trace_ply(trace, &pos, &move, out->plies, &next, counts);
    pos = next;
  }
  lose_game(out, &pos, "no end within %d plies", MAX_PLIES);
  return DTB_OK;
}
