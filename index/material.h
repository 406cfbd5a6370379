// Material signatures: how many kings and men each colour has.
//
// Canonical name: White's pieces, kings first then men, `v`, Black's pieces
// the same way - `KKMvK`, `MvM`, `KMMvKK`. Every colour has at least one piece.
//
// Build order. Tables are stored for White to move only; a position with
// Black to move is looked up as its colour reversal (index/colour.h), which has
// the reversed material (`KMvK` <-> `KvKM`). A non-converting move of material
// M leads to Black to move in M, i.e. to White to move in reversed(M), so M and
// reversed(M) are solved together as one "build unit". Captures (fewer pieces)
// and promotions (a man becomes a king) lead to other units, which must be
// built first.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/position.h"

namespace dtb {

struct Material {
  std::uint8_t white_kings = 0, white_men = 0, black_kings = 0, black_men = 0;

  int pieces() const { return white_kings + white_men + black_kings + black_men; }
  int men() const { return white_men + black_men; }
  /// Colours swapped: the material of the colour-reversed position.
  Material reversed() const { return Material{black_kings, black_men, white_kings, white_men}; }
  bool symmetric() const { return *this == reversed(); }
  /// Canonical name, e.g. "KKMvK".
  std::string name() const;

  friend constexpr auto operator<=>(const Material&, const Material&) = default;
};

/// Parse a canonical name. Rejects anything else (wrong order such as "MKvK",
/// a colour without pieces, unknown letters) with a message.
std::optional<Material> parse_material(std::string_view text, std::string* error = nullptr);

/// The material of a position (regardless of side to move).
Material material_of(const Position& pos);

/// Every material with 2..max_pieces pieces (each colour at least one), in
/// build order: each material comes after every material it reaches by one
/// capture or promotion (of either colour), and M and reversed(M) are adjacent.
std::vector<Material> materials_in_build_order(int max_pieces);

/// The same materials grouped in levels: a unit in level k depends only on
/// levels < k, so the units within one level can be built concurrently.
/// Each level lists units; a unit is {M, reversed(M)} (one entry if symmetric).
std::vector<std::vector<std::vector<Material>>> build_levels(int max_pieces);

/// Materials reachable from `m` in one move by either colour that are not m
/// or reversed(m): captures and promotions (the direct dependencies).
std::vector<Material> direct_dependencies(const Material& m);

}  // namespace dtb
