#include "tally.h"

void tally_game(material_tally* tally, player loser, const dtb_position* start, const game_outcome* game) {
  tally->won[loser] += game->won;
  if (game->plies > tally->longest[loser]) tally->longest[loser] = game->plies;
  if (tally->longest_fen[0] == '\0' || game->plies > tally->longest_game) {
    tally->longest_game = game->plies;
    tally->longest_defence = loser;
    dtb_position_to_fen(start, tally->longest_fen, sizeof tally->longest_fen);
  }
}

int tally_all_won(const material_tally* tally) {
  return tally->errors == 0 && tally->won[PLAYER_RANDOM] == tally->positions &&
         tally->won[PLAYER_BEST] == tally->positions;
}

void tally_print_header(FILE* out) {
  fprintf(out, "%-9s %9s %13s %11s %17s %15s  %s\n", "material", "positions", "won_vs_random", "won_vs_best",
          "longest_vs_random", "longest_vs_best", "longest_game");
}

void tally_print(FILE* out, const char* material, const material_tally* t) {
  fprintf(out, "%-9s %9d %13d %11d %17d %15d  %s %s%s\n", material, t->positions, t->won[PLAYER_RANDOM],
          t->won[PLAYER_BEST], t->longest[PLAYER_RANDOM], t->longest[PLAYER_BEST],
          t->longest_fen[0] ? player_name(t->longest_defence) : "-", t->longest_fen,
          tally_all_won(t) ? "" : "  NOT ALL WON");
}
