// KingMoveRanks against the index it shortcuts: for random positions, every
// white king moved to every empty square ranks as PositionIndex::kings_rank
// ranks the moved position; and ReversedKingMoveTerms as black_kings_term
// ranks the moved position with its colours reversed.
#include <catch2/catch.hpp>

#include <random>

#include "index/king_move_ranks.h"
#include "tests/index/index_test_helpers.h"

namespace dtb {

TEST_CASE("a white king moved anywhere ranks as kings_rank ranks the moved position, for every material up to 7 pieces") {
  std::mt19937_64 rng(20261206);
  std::uint64_t checked = 0;
  for (int n = 2; n <= 7; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.white_kings == 0) continue;
      INFO("material " << m.name());
      const PositionIndex index(m);
      std::uint64_t errors = 0;
      for (int k = 0; k < (n <= 5 ? 400 : 60); ++k) {
        const Position p = test::random_position(m, rng);
        for (Bitboard kings = p.white & p.kings; kings; kings &= kings - 1) {
          const Bitboard king = kings & (~kings + 1);
          KingMoveRanks ranks(index);
          ranks.set_king(p, king);
          for (Bitboard to = kBoardMask & ~p.occupied(); to; to &= to - 1) {
            const Bitboard square = to & (~to + 1);
            Position moved = p;
            moved.white ^= king | square;
            moved.kings ^= king | square;
            errors += ranks.kings_rank(std::countr_zero(square)) != index.kings_rank(moved);
            ++checked;
          }
        }
      }
      CHECK(errors == 0);
    }
  CHECK(checked > 1'000'000);
}

TEST_CASE("a white king moved anywhere, colours then reversed, has the black kings' term of black_kings_term") {
  std::mt19937_64 rng(20261208);
  std::uint64_t checked = 0;
  for (int n = 2; n <= 7; ++n)
    for (const Material& m : test::materials_with(n)) {
      if (m.white_kings == 0) continue;
      INFO("material " << m.name());
      const PositionIndex twin(m.reversed());
      std::uint64_t errors = 0;
      for (int k = 0; k < (n <= 5 ? 400 : 60); ++k) {
        const Position p = test::random_position(m, rng);
        for (Bitboard kings = p.white & p.kings; kings; kings &= kings - 1) {
          const Bitboard king = kings & (~kings + 1);
          ReversedKingMoveTerms terms;
          terms.set_king(p, king);
          for (Bitboard to = kBoardMask & ~p.occupied(); to; to &= to - 1) {
            const Bitboard square = to & (~to + 1);
            Position moved = p;
            moved.white ^= king | square;
            moved.kings ^= king | square;
            moved.side = Color::Black;
            errors += terms.black_kings_term(std::countr_zero(square)) != twin.black_kings_term(colour_reversed(moved));
            ++checked;
          }
        }
      }
      CHECK(errors == 0);
    }
  CHECK(checked > 1'000'000);
}

}  // namespace dtb
