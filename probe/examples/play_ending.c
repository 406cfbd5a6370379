/* play_ending TABLE_DIR FEN [MAX_PLIES]
 *
 * Plays a game from FEN with both sides choosing moves by probing the tables
 * (C API only), printing one move per line, and ends with the result. The
 * side that can win keeps the win; WDL tables say nothing about how fast, so
 * among winning moves it prefers progress (captures, then man moves, which
 * can never be undone) and avoids positions it has already seen. The losing
 * side plays its first move that keeps the best value.
 *
 * Exit status: 0 when the game ended with a win for the side the tables
 * said was winning, 1 otherwise (draw by the ply limit, or an error). */
#include <dtb/dtb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_MOVES 256
#define MAX_HISTORY 1024

static int same_position(const dtb_position* a, const dtb_position* b) {
  return a->white == b->white && a->black == b->black && a->kings == b->kings &&
         a->side_to_move == b->side_to_move;
}

static int seen(const dtb_position* history, int plies, const dtb_position* p) {
  for (int i = 0; i < plies; ++i)
    if (same_position(&history[i], p)) return 1;
  return 0;
}

/* Higher is better among moves that keep the best value. */
static int progress_score(const dtb_position* pos, const dtb_move* m, const dtb_position* history,
                          int plies) {
  dtb_position after;
  if (dtb_make_move(pos, m, &after) != DTB_OK) return -1;
  const uint64_t from_bit = (uint64_t)1 << (m->from - 1);
  int score = 0;
  if (m->captured) score += 4;
  if (!(pos->kings & from_bit)) score += 2; /* a man move: irreversible */
  if (!seen(history, plies, &after)) score += 1;
  return score;
}

int main(int argc, char** argv) {
  if (argc < 3) {
    fprintf(stderr, "usage: %s TABLE_DIR FEN [MAX_PLIES]\n", argv[0]);
    return 2;
  }
  const int max_plies = argc > 3 ? atoi(argv[3]) : 300;
  dtb_error error;
  dtb_tables* tables = NULL;
  if (dtb_open(argv[1], (size_t)64 << 20, &tables, &error) != DTB_OK) {
    fprintf(stderr, "cannot open tables: %s\n", error.message);
    return 1;
  }
  dtb_position pos;
  if (dtb_position_from_fen(argv[2], &pos, &error) != DTB_OK) {
    fprintf(stderr, "%s\n", error.message);
    dtb_close(tables);
    return 1;
  }
  static dtb_position history[MAX_HISTORY];
  dtb_move moves[MAX_MOVES];
  dtb_wdl start_value = DTB_DRAW;
  const uint32_t first_mover = pos.side_to_move;
  int status = 1;
  for (int ply = 0; ply < max_plies && ply < MAX_HISTORY; ++ply) {
    size_t count = 0;
    dtb_wdl value;
    const dtb_status s = dtb_probe_moves(tables, &pos, moves, MAX_MOVES, &count, &value, &error);
    if (s != DTB_OK) {
      fprintf(stderr, "probe failed: %s: %s\n", dtb_status_string(s), error.message);
      break;
    }
    if (ply == 0) {
      start_value = value;
      printf("start: %s to move, %s\n", pos.side_to_move == DTB_WHITE ? "white" : "black",
             value == DTB_WIN ? "win" : value == DTB_DRAW ? "draw" : "loss");
    }
    if (count == 0) { /* no piece or no move left: the side to move has lost */
      const int winner_is_first = pos.side_to_move != first_mover;
      printf("result: %s wins after %d plies\n", pos.side_to_move == DTB_WHITE ? "black" : "white",
             ply);
      status = (start_value == DTB_WIN) == winner_is_first ? 0 : 1;
      break;
    }
    size_t pick = count;
    int best_score = -1;
    for (size_t i = 0; i < count; ++i) {
      if (!moves[i].keeps_best) continue;
      const int score = value == DTB_WIN ? progress_score(&pos, &moves[i], history, ply) : 0;
      if (score > best_score) {
        best_score = score;
        pick = i;
      }
    }
    char text[128];
    dtb_move_to_string(&pos, &moves[pick], text, sizeof text);
    printf("%d. %s %s\n", ply / 2 + 1, pos.side_to_move == DTB_WHITE ? "white" : "black", text);
    history[ply] = pos;
    dtb_make_move(&pos, &moves[pick], &pos);
  }
  if (status != 0) printf("result: no win played out (start value %d)\n", (int)start_value);
  dtb_close(tables);
  return status;
}
