// The WDL value of every position of one material, both sides to move: the
// reference the generator's tests check solver/unit_solver.cpp against.
// Written separately from it and sharing only the move generator: explicit
// positions (both sides to move, no colour reversal, no PositionIndex, every
// position from tests/support/every_position.h), and sweeps until nothing
// changes, so a bug in the index or in colour reversal shows too.
//
// A position is a win once some move reaches a lost position, a loss once
// every move reaches a won position (or there is no move), a draw once all
// successors are known and none of them is lost; whatever is still unknown at
// the fixed point is a draw. Slow (every sweep regenerates every unknown
// position's moves) but obviously right. Up to 4 pieces; whole units of
// kings with 4 pieces are out of a test's reach.
//
// The other references: naive_solver.h computes the same values fast, for
// every material up to N in index order, but through the project's index and
// colour reversal (the probe tests write table files from it);
// reference_minimax.h gives exact distances and the 6.3/6.4 rule values.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "index/material.h"
#include "rules/position.h"
#include "rules/value.h"

namespace dtb::reference {

/// Values of one material, both sides to move, keyed by the pieces' squares.
class ReferenceTable {
 public:
  explicit ReferenceTable(const Material& m);
  const Material& material() const { return material_; }
  /// Every position of the material with `side` to move.
  const std::vector<Position>& positions(Color side) const { return positions_[int(side)]; }
  /// Value of a position of this material; 3 while unknown.
  std::uint8_t raw(const Position& p) const { return values_[int(p.side)][key(p)]; }
  void set(const Position& p, Wdl v) { values_[int(p.side)][key(p)] = static_cast<std::uint8_t>(v); }

 private:
  static std::uint32_t key(const Position& p);
  Material material_;
  std::vector<Position> positions_[2];
  std::vector<std::uint8_t> values_[2];  // 64^pieces entries: 6 bits per square
};

/// Value of a position of another (already solved) material, for its mover.
using Oracle = std::function<Wdl(const Position&)>;

/// Solve material m for both sides to move. Captures and promotions that
/// leave m are valued by `oracle`; a side with no piece left has lost.
ReferenceTable solve_material(const Material& m, const Oracle& oracle);

/// Dependencies looked up in the reference's own earlier results (a table
/// of M answers for reversed(M) too, through the colour symmetry).
Oracle oracle_of(const std::map<Material, ReferenceTable>& solved);

/// The reference's own values of every material up to 3 pieces (solved once).
const std::map<Material, ReferenceTable>& reference_up_to_3();

}  // namespace dtb::reference
