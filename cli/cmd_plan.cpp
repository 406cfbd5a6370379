// dtb plan --max-pieces N [--rate POSITIONS_PER_SECOND]: what building all
// tables up to N pieces involves - materials and positions per piece count,
// the build order with each table's size and level, and the generator's
// memory (and time, given a measured rate) for the largest build unit.
#include <charconv>
#include <iomanip>
#include <iostream>
#include <map>
#include <sstream>

#include "cli/args.h"
#include "cli/command.h"
#include "gen/cost_model.h"
#include "index/material.h"
#include "index/plan.h"
#include "index/position_index.h"

namespace dtb::cli {
namespace {

constexpr long long kMaxPlanPieces = 10;

std::optional<double> parse_positive(const std::string& s) {
  double v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || !(v > 0)) return std::nullopt;
  return v;
}

std::string gib(std::uint64_t bytes) {
  std::ostringstream out;
  out << std::fixed << std::setprecision(2) << static_cast<double>(bytes) / (1ULL << 30) << " GiB";
  return out.str();
}

std::string unit_name(const std::vector<Material>& unit) {
  return unit.size() == 1 ? unit[0].name() : unit[0].name() + " + " + unit[1].name();
}

int run_plan(const Args& args) {
  std::optional<long long> max_pieces;
  GeneratorCostModel model = gen::measured_cost_model();  // --rate overrides the measured rate
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    const bool has_value = i + 1 < args.size();
    if (a == "--max-pieces") {
      if (!has_value) return usage_error("plan", "--max-pieces needs a number");
      max_pieces = parse_int(args[++i], 2, kMaxPlanPieces);
      if (!max_pieces)
        return usage_error("plan", "--max-pieces must be a whole number from 2 to " +
                                       std::to_string(kMaxPlanPieces) + ", not '" + args[i] + "'");
    } else if (a == "--rate") {
      if (!has_value) return usage_error("plan", "--rate needs a number of positions per second");
      model.positions_per_second = parse_positive(args[++i]);
      if (!model.positions_per_second)
        return usage_error("plan", "--rate must be a positive number, not '" + args[i] + "'");
    } else {
      return usage_error("plan", "unexpected argument '" + a + "'");
    }
  }
  if (!max_pieces) return usage_error("plan", "--max-pieces is required");
  const int n = static_cast<int>(*max_pieces);

  std::cout << "pieces materials positions (both sides to move)\n";
  for (const PieceCountSummary& s : summarize_by_piece_count(n))
    std::cout << s.pieces << " " << s.materials << " " << s.positions << "\n";

  std::cout << "\nbuild order: level material positions (White to move; a level's units can be"
               " built concurrently)\n";
  std::map<Material, std::size_t> level_of;
  std::vector<Material> largest;
  std::uint64_t largest_positions = 0;
  const auto levels = build_levels(n);
  for (std::size_t level = 0; level < levels.size(); ++level)
    for (const auto& unit : levels[level]) {
      for (const Material& m : unit) level_of[m] = level;
      const std::uint64_t positions = unit_positions(unit);
      if (positions > largest_positions) largest_positions = positions, largest = unit;
    }
  for (const Material& m : materials_in_build_order(n))
    std::cout << level_of.at(m) << " " << m.name() << " " << PositionIndex(m).size() << "\n";

  std::cout << "\nlargest build unit: " << unit_name(largest) << ", " << largest_positions
            << " positions\n"
            << "generator memory for it: about " << gib(estimated_memory_bytes(largest_positions, model))
            << " (" << model.bytes_per_position << " byte per position + "
            << (model.overhead_bytes >> 20) << " MiB)\n"
            << "plus the generator's store of finished tables (2 bits per position): "
            << gib(gen::store_bytes(n)) << "\n";
  if (const auto seconds = estimated_seconds(largest_positions, model)) {
    std::uint64_t all = 0;
    for (const PieceCountSummary& s : summarize_by_piece_count(n)) all += s.positions / 2;
    std::cout << "time at " << *model.positions_per_second << " positions/s: largest unit "
              << std::fixed << std::setprecision(1) << *seconds << " s, all tables "
              << *estimated_seconds(all, model) << " s\n";
  }
  return 0;
}

}  // namespace

DTB_COMMAND("plan", "--max-pieces N [--rate POSITIONS_PER_SECOND]",
            "materials, positions, build order and generator memory for tables up to N pieces",
            run_plan);

}  // namespace dtb::cli
