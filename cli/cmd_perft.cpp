// dtb perft FEN DEPTH [--divide] [--time] [--count-paths]: leaf count of the move tree.
#include <chrono>
#include <iostream>

#include "cli/args.h"
#include "cli/command.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "rules/perft.h"

namespace dtb::cli {
namespace {

constexpr Option kPerftOptions[] = {
    {"--divide", "", "the count per root move, then the total"},
    {"--time", "", "the time taken and leaves per second, on stderr"},
    {"--count-paths", "", "count a capture once per path it can take, not once per result"},
};

int run_perft(const Args& args) {
  bool divide = false, timing = false, paths = false;
  std::vector<std::string> positional;
  for (const std::string& a : args) {
    if (a == "--divide")
      divide = true;
    else if (a == "--time")
      timing = true;
    else if (a == "--count-paths")
      paths = true;
    else if (a.starts_with("--"))
      return unknown_option("perft", a);
    else
      positional.push_back(a);
  }
  if (positional.size() != 2) return usage_error("perft", "expected a FEN and a depth");
  std::string error;
  const auto pos = parse_fen_or_start(positional[0], &error);
  if (!pos) return usage_error("perft", "bad FEN: " + error);
  const auto depth_arg = parse_int(positional[1], 0, 30);
  if (!depth_arg) return usage_error("perft", "depth must be a whole number from 0 to 30");
  const int depth = static_cast<int>(*depth_arg);

  const auto start = std::chrono::steady_clock::now();
  std::uint64_t total = 0;
  if (paths) {
    total = perft_paths(*pos, depth);
  } else if (divide && depth > 0) {
    MoveList list;
    generate_moves(*pos, list);
    for (const Move& m : list) {
      const std::uint64_t n = perft(make_move(*pos, m), depth - 1);
      std::cout << move_to_string(*pos, m) << " " << n << "\n";
      total += n;
    }
  } else {
    total = perft(*pos, depth);
  }
  std::cout << total << "\n";
  if (timing) {
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::cerr << "time " << s << " s, " << static_cast<double>(total) / s / 1e6 << " M leaves/s\n";
  }
  return 0;
}

}  // namespace

DTB_COMMAND("perft", "[options] FEN|start DEPTH", "count the leaves of the legal move tree to DEPTH",
            "DEPTH is 0 to 30 plies; start is the initial position", kPerftOptions, run_perft);

}  // namespace dtb::cli
