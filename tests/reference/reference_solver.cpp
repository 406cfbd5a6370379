#include "tests/reference/reference_solver.h"

#include <algorithm>
#include <stdexcept>

#include "rules/movegen.h"
#include "tests/support/every_position.h"

namespace dtb::reference {

ReferenceTable::ReferenceTable(const Material& m) : material_(m) {
  if (m.pieces() > 4) throw std::invalid_argument("the reference solver handles up to 4 pieces");
  for (Color side : {Color::White, Color::Black}) {
    positions_[int(side)] = test::all_placements(m, side);
    values_[int(side)].assign(std::size_t{1} << (6 * m.pieces()), 3);
  }
}

// The squares of white kings, white men, black kings, black men in that
// order (ascending within each), 6 bits each.
std::uint32_t ReferenceTable::key(const Position& p) {
  std::uint32_t k = 0;
  for (Bitboard set : {p.white & p.kings, p.white & ~p.kings, p.black & p.kings, p.black & ~p.kings})
    for (int s = 1; s <= 50; ++s)
      if (set & square_bb(s)) k = k << 6 | static_cast<std::uint32_t>(s);
  return k;
}

ReferenceTable solve_material(const Material& m, const Oracle& oracle) {
  ReferenceTable table(m);
  std::vector<Position> unknown = table.positions(Color::White);
  unknown.insert(unknown.end(), table.positions(Color::Black).begin(), table.positions(Color::Black).end());

  // Value of a successor for ITS mover, or 3 if still unknown.
  auto successor_value = [&](const Position& s) -> std::uint8_t {
    if (s.pieces(s.side) == 0) return static_cast<std::uint8_t>(Wdl::Loss);
    if (material_of(s) == m) return table.raw(s);
    return static_cast<std::uint8_t>(oracle(s));
  };

  for (bool changed = true; changed;) {
    // Jacobi sweep: decide from the values of the previous sweep only, then
    // apply, so the sweep may run in parallel.
    std::vector<std::uint8_t> decided(unknown.size(), 3);
#pragma omp parallel for schedule(dynamic, 1024)
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      // thread_local: a MoveList is 16 KB, and zero-filling one per position dominated the profile.
      thread_local MoveList list;
      generate_moves(unknown[i], list);
      bool all_known = true;
      int best = static_cast<int>(Wdl::Loss);
      for (const Move& mv : list) {
        const std::uint8_t v = successor_value(make_move(unknown[i], mv));
        if (v == 3) {
          all_known = false;
          continue;
        }
        best = std::max(best, 2 - int(v));
      }
      if (best == int(Wdl::Win) || all_known) decided[i] = static_cast<std::uint8_t>(best);
    }
    changed = false;
    std::vector<Position> still;
    for (std::size_t i = 0; i < unknown.size(); ++i) {
      if (decided[i] == 3) {
        still.push_back(unknown[i]);
      } else {
        table.set(unknown[i], static_cast<Wdl>(decided[i]));
        changed = true;
      }
    }
    unknown.swap(still);
  }
  for (const Position& p : unknown) table.set(p, Wdl::Draw);  // no forced result: endless, a draw
  return table;
}

// Dependencies looked up in the reference's own earlier results.
Oracle oracle_of(const std::map<Material, ReferenceTable>& solved) {
  return [&solved](const Position& p) {
    if (const auto it = solved.find(material_of(p)); it != solved.end()) return static_cast<Wdl>(it->second.raw(p));
    // A table of M holds both sides to move, so it also answers for
    // reversed(M) through the colour symmetry of the rules.
    const Position r = colour_reversed(p);
    if (const auto it = solved.find(material_of(r)); it != solved.end()) return static_cast<Wdl>(it->second.raw(r));
    throw std::logic_error("reference dependency missing: " + material_of(p).name());
  };
}

// The reference's own values of every material up to 3 pieces.
const std::map<Material, ReferenceTable>& reference_up_to_3() {
  static const auto solved = [] {
    std::map<Material, ReferenceTable> out;
    for (int n = 2; n <= 3; ++n)
      for (const Material& m : test::materials_with(n)) out.emplace(m, solve_material(m, oracle_of(out)));
    return out;
  }();
  return solved;
}

}  // namespace dtb::reference
