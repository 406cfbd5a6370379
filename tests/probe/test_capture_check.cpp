// The probe's bitboard-fill capture test agrees with the move generator's
// has_capture (the reference) everywhere we can look.
#include <catch2/catch.hpp>
#include <random>

#include "index/position_index.h"
#include "tests/support/every_position.h"
#include "probe/capture_check.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb::probe {
namespace {

TEST_CASE("must_capture agrees with has_capture on every 2-3 piece position", "[capture]") {
  std::uint64_t checked = 0, captures = 0;
  for (const Material& m : test::materials_up_to(3)) {
    const PositionIndex index(m);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      Position p = index.unrank(i);
      for (const Color side : {Color::White, Color::Black}) {
        p.side = side;
        const bool expected = has_capture(p);
        if (must_capture(p) != expected) FAIL(to_fen(p) << ": has_capture says " << expected);
        captures += expected;
        ++checked;
      }
    }
  }
  CHECK(checked == 17690 + 1612600);  // RULES.md: placements of 2 and of 3 pieces, both sides to move
  CHECK(captures > 0);
}

TEST_CASE("must_capture agrees with has_capture on random crowded positions", "[capture]") {
  std::mt19937_64 rng(4242);
  std::uint64_t captures = 0;
  for (int n = 0; n < 400000; ++n) {
    Position p;
    const int pieces = 2 + static_cast<int>(rng() % 30);
    const int king_percent = static_cast<int>(rng() % 101);
    for (int k = 0; k < pieces; ++k) {
      const int sq = 1 + static_cast<int>(rng() % 50);
      const Bitboard b = square_bb(sq);
      if (p.occupied() & b) continue;
      const bool white = rng() & 1;
      const bool king = static_cast<int>(rng() % 100) < king_percent;
      if (!king && (b & promotion_row(white ? Color::White : Color::Black))) continue;
      (white ? p.white : p.black) |= b;
      if (king) p.kings |= b;
    }
    p.side = rng() & 1 ? Color::White : Color::Black;
    const bool expected = has_capture(p);
    if (must_capture(p) != expected) FAIL(to_fen(p) << ": has_capture says " << expected);
    captures += expected;
  }
  CHECK(captures > 1000);
}

}  // namespace
}  // namespace dtb::probe
