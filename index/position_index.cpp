// Dense combinatorial index of one material (see position_index.h for the
// layout). All ranking happens in the dense layout: square s on bit s - 1, so
// squares 1-5 are bits 0-4, 6-45 are bits 5-44 and 46-50 are bits 45-49.
#include "index/position_index.h"

#include <cassert>
#include <stdexcept>

#include "index/binomial.h"

namespace dtb {

using index_detail::binomial;
using index_detail::colex_rank;
using index_detail::colex_rank_among;
using index_detail::colex_unrank;
using index_detail::colex_unrank_among;
using index_detail::FastDivisor;
using index_detail::spread_around;
using index_detail::spread_both_around;

namespace {

constexpr int kHomeRowShift = 45;   // dense bit of square 46: white men only
constexpr int kSharedShift = 5;     // dense bit of square 6: men of both colours
constexpr int kHomeRowSquares = 5;  // squares 46..50
constexpr int kSharedSquares = 40;  // squares 6..45
constexpr int kBlackManSquares = 45;  // squares 1..45
// The same sets in the padded layout of rules/board.h.
constexpr Bitboard kPaddedShared = squares_bb(6, 45);
constexpr int kPaddedHomeRowShift = 49;  // padded bit of square 46
static_assert(bit_of_square(46) == kPaddedHomeRowShift && bit_of_square(6) == kSharedShift);
constexpr std::uint64_t kSizeLimit = std::uint64_t{1} << 62;

// The white men on 46..50 as a 5-bit set: its colex rank, and back (the set
// of j men with a given rank), by table rather than by a loop of varying length.
constexpr auto kHomeRowRanks = [] {
  std::array<std::uint8_t, 32> ranks{};
  for (std::uint64_t set = 0; set < 32; ++set) {
    std::uint64_t r = 0, rest = set;
    for (int k = 1; rest; ++k, rest &= rest - 1)
      r += binomial(std::countr_zero(rest), k);
    ranks[set] = static_cast<std::uint8_t>(r);
  }
  return ranks;
}();
constexpr auto kHomeRowSets = [] {
  std::array<std::array<std::uint8_t, 10>, kHomeRowSquares + 1> sets{};  // C(5, j) <= 10
  for (std::uint8_t set = 0; set < 32; ++set)
    sets[static_cast<std::size_t>(std::popcount(set))][kHomeRowRanks[set]] = set;
  return sets;
}();
static_assert(kHomeRowRanks[0b11000] == 9 && kHomeRowSets[2][9] == 0b11000);

std::uint64_t checked_product(std::uint64_t a, std::uint64_t b, const Material& m) {
  std::uint64_t out = 0;
  if (__builtin_mul_overflow(a, b, &out) || out >= kSizeLimit)
    throw std::invalid_argument("material " + m.name() + " has too many positions to index");
  return out;
}

// Dense -> padded layout (rules/board.h from_dense), as four "insert a ghost
// bit" steps: adding the bits at and above a ghost to themselves moves them
// up by one. 8 operations instead of 13; unrank converts three boards.
inline Bitboard padded_from_dense(std::uint64_t d) {
  d += d & ~((std::uint64_t{1} << 10) - 1);
  d += d & ~((std::uint64_t{1} << 21) - 1);
  d += d & ~((std::uint64_t{1} << 32) - 1);
  d += d & ~((std::uint64_t{1} << 43) - 1);
  return d;
}

}  // namespace

PositionIndex::PositionIndex(const Material& m) : material_(m) {
  const int wm = m.white_men, bm = m.black_men;
  if (wm > 45 || bm > 45 || m.pieces() > kSquares)
    throw std::invalid_argument("material " + m.name() + " does not fit on the board");

  group_count_ = std::min(wm, kHomeRowSquares) + 1;
  std::uint64_t first = 0;
  for (int j = 0; j < group_count_; ++j) {
    MenGroup& g = groups_[static_cast<std::size_t>(j)];
    g.shared_white_men = wm - j;
    const std::uint64_t shared = binomial(kSharedSquares, wm - j);
    const std::uint64_t black = binomial(kBlackManSquares - (wm - j), bm);
    // The dividend of both divisions is a rank within this group.
    const std::uint64_t group_size =
        checked_product(checked_product(binomial(kHomeRowSquares, j), shared, m), black, m);
    g.shared_ranks = FastDivisor(shared, group_size);
    g.black_ranks = FastDivisor(black, group_size);
    g.white_ranks = FastDivisor(shared * black, group_size);
    g.first = first;
    first += group_size;
    g.end = first;
  }
  slice_count_ = first;

  free_squares_ = kSquares - wm - bm;
  const std::uint64_t black_kings = binomial(free_squares_ - m.white_kings, m.black_kings);
  white_king_sets_ = binomial(free_squares_, m.white_kings);
  kings_per_slice_ = checked_product(white_king_sets_, black_kings, m);
  checked_product(slice_count_, kings_per_slice_, m);
  slice_div_ = FastDivisor(kings_per_slice_, size());
  black_kings_div_ = FastDivisor(black_kings, size());
}

// Ranking works directly on the padded bitboards: a square's position among
// the available squares is its bit minus the blocked bits below it, and
// counting the ghost bits as blocked turns padded bits into dense positions
// for free, so no layout conversion is needed.
std::uint64_t PositionIndex::rank_men_padded(Bitboard white_men, Bitboard black_men) const {
  const std::uint64_t home = white_men >> kPaddedHomeRowShift;
  const MenGroup& g = groups_[static_cast<std::size_t>(std::popcount(home))];
  const std::uint64_t shared = colex_rank_among((white_men & kPaddedShared) >> kSharedShift,
                                                kGhostBits >> kSharedShift);
  // Black men stand on 1..45 only, all below the white home row, so the white
  // men that block them are exactly those counted below each black man.
  const std::uint64_t black = colex_rank_among(black_men, white_men | kGhostBits);
  return g.first + (kHomeRowRanks[home] * g.shared_ranks.divisor() + shared) *
                       g.black_ranks.divisor() +
         black;
}

inline std::pair<std::uint64_t, std::uint64_t> PositionIndex::unrank_men_dense(
    std::uint64_t slice) const {
  // The group is the number of groups ending at or before the slice; counting
  // over all groups (no early exit) avoids a data-dependent branch.
  int j = 0;
  for (int g = 0; g + 1 < group_count_; ++g) j += slice >= groups_[static_cast<std::size_t>(g)].end;
  const MenGroup& g = groups_[static_cast<std::size_t>(j)];
  // slice - first = (home * C40 + shared) * Cb + black. Both quotients are
  // taken from the same dividend so the two divisions run in parallel.
  const std::uint64_t r = slice - g.first;
  const std::uint64_t white_part = g.black_ranks.quotient(r);
  const std::uint64_t home_rank = g.white_ranks.quotient(r);
  const std::uint64_t black_rank = r - white_part * g.black_ranks.divisor();
  const std::uint64_t shared_rank = white_part - home_rank * g.shared_ranks.divisor();
  const std::uint64_t shared = colex_unrank(g.shared_white_men, shared_rank, kSharedSquares)
                               << kSharedShift;
  const std::uint64_t white_men = std::uint64_t{kHomeRowSets[j][home_rank]} << kHomeRowShift | shared;
  // Black men are spread around all white men, not only those on 6..45: the
  // ones on 46..50 lie above every black position and change nothing, and a
  // trip count fixed by the material keeps the loop branch predictable.
  return {white_men, colex_unrank_among(material_.black_men, black_rank,
                                        kBlackManSquares - g.shared_white_men, white_men)};
}

std::uint64_t PositionIndex::rank_men(Bitboard white_men, Bitboard black_men) const {
  return rank_men_padded(white_men, black_men);
}

std::pair<Bitboard, Bitboard> PositionIndex::unrank_men(std::uint64_t slice) const {
  const auto [white, black] = unrank_men_dense(slice);
  return {from_dense(white), from_dense(black)};
}

std::uint64_t PositionIndex::kings_rank(const Position& p) const {
  const Bitboard blocked = (p.white & ~p.kings) | (p.black & ~p.kings) | kGhostBits;
  const Bitboard white_kings = p.white & p.kings;
  return colex_rank_among(white_kings, blocked) * black_kings_div_.divisor() +
         colex_rank_among(p.black & p.kings, blocked | white_kings);
}

std::uint64_t PositionIndex::white_kings_term(const Position& p) const {
  const Bitboard blocked = (p.white & ~p.kings) | (p.black & ~p.kings) | kGhostBits;
  return colex_rank_among(p.white & p.kings, blocked) * black_kings_div_.divisor();
}

std::uint64_t PositionIndex::black_kings_term(const Position& p) const {
  return colex_rank_among(p.black & p.kings, ((p.white | p.black) & ~(p.black & p.kings)) | kGhostBits);
}

std::uint64_t PositionIndex::rank(const Position& p) const {
  assert(contains(p));
  return rank_men_padded(p.white & ~p.kings, p.black & ~p.kings) * kings_per_slice_ + kings_rank(p);
}

Position PositionIndex::unrank(std::uint64_t index) const {
  assert(index < size());
  // index = (slice * Cw + white_rank) * Cb + black_rank with Cw, Cb the king
  // set counts of each colour; both divisions work on the index itself so
  // that they do not wait for each other.
  const std::uint64_t slice = slice_div_.quotient(index);
  const std::uint64_t slice_and_white = black_kings_div_.quotient(index);
  const std::uint64_t black_rank = index - slice_and_white * black_kings_div_.divisor();
  const std::uint64_t white_rank = slice_and_white - slice * white_king_sets_;
  const auto [white_men, black_men] = unrank_men_dense(slice);
  if (material_.white_kings + material_.black_kings == 0)  // fixed per material: predictable
    return Position{padded_from_dense(white_men), padded_from_dense(black_men), 0, Color::White};
  // Kings first as positions among the free squares: black's among those
  // white's kings left, then both spread around the men in one pass.
  std::uint64_t white_kings = colex_unrank(material_.white_kings, white_rank, free_squares_);
  std::uint64_t black_kings = spread_around(
      colex_unrank(material_.black_kings, black_rank, free_squares_ - material_.white_kings),
      white_kings);
  spread_both_around(white_kings, black_kings, white_men | black_men);
  return Position{padded_from_dense(white_men | white_kings),
                  padded_from_dense(black_men | black_kings),
                  padded_from_dense(white_kings | black_kings), Color::White};
}

std::string PositionIndex::why_not_contained(const Position& p) const {
  if (p.side != Color::White) return "Black is to move (tables index White to move)";
  if ((p.white | p.black | p.kings) & ~kBoardMask) return "a piece stands off the board";
  if (p.white & p.black) return "a square holds a white and a black piece";
  if (p.kings & ~(p.white | p.black)) return "a king stands on an empty square";
  if (p.white & ~p.kings & kWhitePromotionRow) return "a white man stands on 1-5";
  if (p.black & ~p.kings & kBlackPromotionRow) return "a black man stands on 46-50";
  if (material_of(p) != material_)
    return "the material is " + material_of(p).name() + ", not " + material_.name();
  return "";
}

bool PositionIndex::contains(const Position& p) const { return why_not_contained(p).empty(); }

}  // namespace dtb
