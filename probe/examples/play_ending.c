/* play_ending: an example engine that plays won endings out with the probe
 * library's C API alone, and checks that it wins them within the rules.
 *
 * For each material (--materials), --games random won positions are each
 * played twice: the winner always plays dtb_best_move, the loser once a
 * random legal move and once dtb_best_move (the longest resistance). Every
 * game must end with the loser unable to move before the FMJD draw rules
 * (articles 6.2, 6.3, 6.4) could draw it; game.h says how that is checked.
 * (--winner rules plays both the winner and the best defence under the draw
 * rules with the game's counts, dtb_best_move_rules / dtb_best_move_rule;
 * --winner wdl or random replaces the engine by a control that must fail.)
 * One summary line per material (tally.h); exit status 0 only if every game
 * was won and no call failed. With --fen, one position is played and its
 * moves are printed. See README.md here. */
#include <dtb/dtb.h>
#include <stdio.h>

#include "game.h"
#include "materials.h"
#include "options.h"
#include "players.h"
#include "random_position.h"
#include "rng.h"
#include "tally.h"

static void report_error(const char* context, const dtb_error* e) {
  fprintf(stderr, "error: %s: %s: %s\n", context, dtb_status_string(e->status), e->message);
}

static const char* side_name(dtb_side side) { return side == DTB_WHITE ? "white" : "black"; }

/* --fen: the moves of one game, then its result. */
static int play_fen(dtb_tables* tables, const options* o) {
  dtb_error e;
  dtb_position start;
  dtb_wdl value = DTB_DRAW;
  if (dtb_position_from_fen(o->fen, &start, &e) != DTB_OK || dtb_probe_wdl(tables, &start, &value, &e) != DTB_OK) {
    report_error(o->fen, &e);
    return 1;
  }
  if (value == DTB_DRAW) {
    printf("start: a draw, no side can win\n");
    return 1;
  }
  const dtb_side to_move = (dtb_side)start.side_to_move;
  const dtb_side winner = value == DTB_WIN ? to_move : (dtb_side)(1 - to_move);
  printf("start: %s to move, %s wins; winner plays %s, defence %s\n", side_name(to_move), side_name(winner),
         player_name(o->winner), player_name(o->fen_defence));
  rng r;
  rng_seed(&r, o->seed);
  game_outcome game;
  if (play_game(tables, &start, winner, o->winner, o->fen_defence, &r, stdout, &game, &e) != DTB_OK) {
    report_error(o->fen, &e);
    return 1;
  }
  if (!game.won) {
    printf("result: NOT WON: %s\n", game.failure);
    return 1;
  }
  printf("result: %s wins after %d plies, within the draw rules\n", side_name(winner), game.plies);
  return 0;
}

/* One random won position against both defences; 0 on an API error. */
static int play_position(dtb_tables* tables, const char* material, player winner_plays, rng* r,
                         material_tally* tally) {
  dtb_error e;
  dtb_position start;
  dtb_side winner;
  if (random_won_position(tables, material, r, &start, &winner, &e) != DTB_OK) {
    report_error(material, &e);
    return 0;
  }
  ++tally->positions;
  for (player slot = PLAYER_RANDOM; slot <= PLAYER_BEST; ++slot) {
    /* The best defence plays as the winner does when that is under the rules. */
    const player loser = slot == PLAYER_BEST && winner_plays == PLAYER_RULES ? PLAYER_RULES : slot;
    game_outcome game;
    if (play_game(tables, &start, winner, winner_plays, loser, r, NULL, &game, &e) != DTB_OK) {
      report_error(material, &e);
      return 0;
    }
    if (!game.won)
      fprintf(stderr, "NOT WON: %s against the %s defence: %s\n", material, player_name(loser), game.failure);
    tally_game(tally, slot, &start, &game);
  }
  return 1;
}

static material_tally play_material(dtb_tables* tables, const char* material, const options* o) {
  material_tally tally = {0};
  rng r;
  rng_seed(&r, rng_seed_for(o->seed, material));
  for (int i = 0; i < o->games; ++i)
    if (!play_position(tables, material, o->winner, &r, &tally)) {
      ++tally.errors; /* the next games would most likely fail the same way */
      break;
    }
  return tally;
}

static int play_materials(dtb_tables* tables, const options* o) {
  dtb_error e;
  material_list list;
  if (materials_parse(o->materials, dtb_max_pieces(tables), &list, &e) != DTB_OK) {
    report_error("--materials", &e);
    return 1;
  }
  tally_print_header(stdout);
  size_t failed = 0;
  long long positions = 0;
  for (size_t i = 0; i < list.count; ++i) {
    const material_tally tally = play_material(tables, list.names[i], o);
    tally_print(stdout, list.names[i], &tally);
    fflush(stdout);
    failed += !tally_all_won(&tally);
    positions += tally.positions;
  }
  printf("%zu materials, %lld positions, %lld games: %s\n", list.count, positions, 2 * positions,
         failed ? "SOME NOT WON" : "every game won within the draw rules");
  if (failed) printf("%zu materials with a game not won or an error\n", failed);
  materials_free(&list);
  return failed ? 1 : 0;
}

int main(int argc, char** argv) {
  options o;
  if (options_parse(argc, argv, &o) != 0) return 2;
  dtb_error e;
  dtb_tables* tables = NULL;
  if (dtb_open(o.tables, (size_t)64 << 20, &tables, &e) != DTB_OK) {
    report_error(o.tables, &e);
    return 1;
  }
  const int status = o.fen ? play_fen(tables, &o) : play_materials(tables, &o);
  dtb_close(tables);
  return status;
}
