// Build order of the materials: dependencies through captures and promotions,
// a topological order, and the levels of the dependency graph.
//
// Every dependency has fewer pieces, or as many pieces and fewer men (a
// promotion), so the graph is acyclic and sorting by (pieces, men) is already
// a valid order. The levels are the longest dependency chain below a unit, so
// the units of one level can be built at the same time.
#include <algorithm>
#include <map>
#include <set>

#include "index/material.h"

namespace dtb {

namespace {

// One side's pieces, viewed as the mover or its opponent.
struct Side {
  int kings, men;
};

Material make(const Side& white, const Side& black) {
  return Material{static_cast<std::uint8_t>(white.kings), static_cast<std::uint8_t>(white.men),
                  static_cast<std::uint8_t>(black.kings), static_cast<std::uint8_t>(black.men)};
}

// Every material the mover can reach in one move that changes the material:
// a capture of any nonempty combination of the opponent's kings and men (a
// capture that takes the last piece ends the game and reaches no table), each
// with or without the promotion of one of the mover's men, or a promotion alone.
void add_conversions(const Side& mover, const Side& opponent, bool mover_is_white,
                     std::set<Material>& out) {
  const int promotions = mover.men > 0 ? 1 : 0;
  for (int promote = 0; promote <= promotions; ++promote) {
    const Side after{mover.kings + promote, mover.men - promote};
    for (int kings_taken = 0; kings_taken <= opponent.kings; ++kings_taken) {
      for (int men_taken = 0; men_taken <= opponent.men; ++men_taken) {
        const Side left{opponent.kings - kings_taken, opponent.men - men_taken};
        if (left.kings + left.men == 0) continue;                  // game over
        if (promote == 0 && kings_taken + men_taken == 0) continue;  // not a conversion
        out.insert(mover_is_white ? make(after, left) : make(left, after));
      }
    }
  }
}

// The member of a unit listed first: the one with more white pieces, then
// more white kings (that decides every asymmetric pair).
Material unit_leader(const Material& m) {
  const Material r = m.reversed();
  const auto key = [](const Material& x) { return std::pair(x.white_kings + x.white_men, x.white_kings); };
  return key(r) > key(m) ? r : m;
}

std::vector<Material> unit_of(const Material& m) {
  const Material lead = unit_leader(m);
  if (lead.symmetric()) return {lead};
  return {lead, lead.reversed()};
}

// Every valid material (each colour at least one piece) with 2..max_pieces.
std::vector<Material> all_materials(int max_pieces) {
  std::vector<Material> out;
  for (int n = 2; n <= max_pieces; ++n)
    for (int wk = 0; wk <= n; ++wk)
      for (int wm = 0; wk + wm <= n; ++wm)
        for (int bk = 0; wk + wm + bk <= n; ++bk) {
          const int bm = n - wk - wm - bk;
          if (wk + wm == 0 || bk + bm == 0 || wm > 45 || bm > 45) continue;
          out.push_back(Material{static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(wm),
                                 static_cast<std::uint8_t>(bk), static_cast<std::uint8_t>(bm)});
        }
  return out;
}

// Level of every unit leader with up to max_pieces pieces.
std::map<Material, int> unit_levels(int max_pieces) {
  std::vector<Material> leaders;
  for (const Material& m : all_materials(max_pieces))
    if (unit_leader(m) == m) leaders.push_back(m);
  // (pieces, men) ascending is a topological order: dependencies come first.
  std::stable_sort(leaders.begin(), leaders.end(), [](const Material& a, const Material& b) {
    return std::pair(a.pieces(), a.men()) < std::pair(b.pieces(), b.men());
  });
  std::map<Material, int> level;
  for (const Material& m : leaders) {
    int mine = 0;
    for (const Material& unit : unit_of(m))
      for (const Material& dep : direct_dependencies(unit))
        mine = std::max(mine, level.at(unit_leader(dep)) + 1);
    level[m] = mine;
  }
  return level;
}

}  // namespace

std::vector<Material> direct_dependencies(const Material& m) {
  const Side white{m.white_kings, m.white_men}, black{m.black_kings, m.black_men};
  std::set<Material> out;
  add_conversions(white, black, true, out);
  add_conversions(black, white, false, out);
  out.erase(m);
  out.erase(m.reversed());
  return {out.begin(), out.end()};
}

std::vector<std::vector<std::vector<Material>>> build_levels(int max_pieces) {
  std::vector<std::vector<std::vector<Material>>> levels;
  if (max_pieces < 2) return levels;
  for (const auto& [leader, level] : unit_levels(max_pieces)) {
    if (levels.size() <= static_cast<std::size_t>(level)) levels.resize(static_cast<std::size_t>(level) + 1);
    levels[static_cast<std::size_t>(level)].push_back(unit_of(leader));
  }
  // Within a level: fewer pieces first, then by name, so output is stable and readable.
  for (auto& units : levels)
    std::sort(units.begin(), units.end(), [](const auto& a, const auto& b) {
      return std::pair(a[0].pieces(), a[0].name()) < std::pair(b[0].pieces(), b[0].name());
    });
  return levels;
}

std::vector<Material> materials_in_build_order(int max_pieces) {
  // Fewer pieces first (so the order for N - 1 pieces is a prefix of the
  // order for N), then by level, then by name; units stay adjacent.
  struct Entry {
    int pieces, level;
    std::vector<Material> unit;
  };
  std::vector<Entry> entries;
  const auto levels = build_levels(max_pieces);
  for (std::size_t level = 0; level < levels.size(); ++level)
    for (const auto& unit : levels[level]) entries.push_back({unit[0].pieces(), static_cast<int>(level), unit});
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::pair(a.pieces, a.level) < std::pair(b.pieces, b.level);
  });
  std::vector<Material> order;
  for (const Entry& e : entries) order.insert(order.end(), e.unit.begin(), e.unit.end());
  return order;
}

}  // namespace dtb
