// dtb moves FEN: the legal moves of a position, in notation.
#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::cli {
namespace {

int run_moves(const Args& args) {
  if (args.size() != 1) return usage_error("moves", "expected one FEN");
  std::string error;
  const auto pos = parse_fen_or_start(args[0], &error);
  if (!pos) return usage_error("moves", "bad FEN: " + error);
  MoveList list;
  generate_moves(*pos, list);
  for (const Move& m : list) std::cout << move_to_string(*pos, m) << "\n";
  if (list.size == 0) std::cerr << "no legal move: the side to move loses\n";
  return 0;
}

}  // namespace

DTB_COMMAND("moves", "FEN|start", "list the legal moves of a position",
            "One move a line, in FMJD notation; start is the initial position", {}, run_moves);

}  // namespace dtb::cli
