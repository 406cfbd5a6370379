// Binomial coefficients and the combinatorial number system (colex ranking).
//
// A set of k positions {p_0 < p_1 < ... < p_{k-1}} taken from 0..n-1 has the
// colex rank  sum_i C(p_i, i + 1),  a bijection onto 0 .. C(n, k) - 1. Ranking
// is a table lookup per element. Unranking peels the largest element first:
// p_{k-1} is the largest c with C(c, k) <= r; subtract and repeat with k - 1.
//
// Pieces are ranked among the squares still *available* to them (the squares
// other piece sets left). In the dense layout (square s on bit s - 1) the
// position of a square among the available ones is
//   bit - popcount(blocked & below(bit)),
// and going back, the p-th available square is found by walking the blocked
// squares in ascending order and stepping over each one at or below it. Both
// need only popcount (x86-64-v2), not PEXT/PDEP, which are slow on some AMD
// processors.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

namespace dtb::index_detail {

inline constexpr int kMaxBinomialN = 50;  // the board has 50 squares

/// kBinomial[k][n] = C(n, k), 0 when k > n. Indexed k-major so the rows used
/// by the few pieces of one colour (k <= 8) share a handful of cache lines.
/// C(50, 25) ~ 1.3e14 fits easily in 64 bits.
inline constexpr auto kBinomial = [] {
  std::array<std::array<std::uint64_t, kMaxBinomialN + 1>, kMaxBinomialN + 1> c{};
  for (int n = 0; n <= kMaxBinomialN; ++n) {
    c[0][n] = 1;
    for (int k = 1; k <= n; ++k) c[k][n] = c[k - 1][n - 1] + (k <= n - 1 ? c[k][n - 1] : 0);
  }
  return c;
}();

static_assert(kBinomial[2][50] == 1225 && kBinomial[5][45] == 1221759 && kBinomial[3][2] == 0);
static_assert(kBinomial[25][50] == 126410606437752ULL);

/// C(n, k) for any 0 <= n, k <= 50.
constexpr std::uint64_t binomial(int n, int k) {
  return kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(n)];
}

constexpr std::uint64_t below(int bit) { return (std::uint64_t{1} << bit) - 1; }

/// Colex rank of `set` whose positions are its bit indices.
inline std::uint64_t colex_rank(std::uint64_t set) {
  std::uint64_t r = 0;
  for (std::size_t k = 1; set; ++k, set &= set - 1)
    r += kBinomial[k][static_cast<std::size_t>(std::countr_zero(set))];
  return r;
}

/// Colex rank of `set` among the squares not in `blocked` (set & blocked == 0).
inline std::uint64_t colex_rank_among(std::uint64_t set, std::uint64_t blocked) {
  std::uint64_t r = 0;
  for (std::size_t k = 1; set; ++k, set &= set - 1) {
    const int bit = std::countr_zero(set);
    r += kBinomial[k][static_cast<std::size_t>(bit - std::popcount(blocked & below(bit)))];
  }
  return r;
}

/// Inverse of c -> C(c, k) for the set sizes one colour's pieces of one kind
/// actually have (k <= 8): start[r >> shift] is the largest c with
/// C(c, k) <= (r >> shift) << shift, a lower bound for the answer for r that
/// is almost always exact or one short. 4096 one-byte entries per k keep the
/// hot rows in L1 and replace a six-step dependent binary search.
inline constexpr int kInverseMaxK = 8;
inline constexpr int kInverseEntries = 4096;

struct InverseBinomialRow {
  int shift = 0;
  std::array<std::uint8_t, kInverseEntries> start{};
};

inline constexpr auto kInverseBinomial = [] {
  std::array<InverseBinomialRow, kInverseMaxK + 1> rows{};
  for (int k = 2; k <= kInverseMaxK; ++k) {
    InverseBinomialRow& row = rows[static_cast<std::size_t>(k)];
    const std::uint64_t largest = kBinomial[static_cast<std::size_t>(k)][kMaxBinomialN];
    while (((largest - 1) >> row.shift) >= kInverseEntries) ++row.shift;
    int c = k - 1;
    for (std::uint64_t b = 0; b < kInverseEntries; ++b) {
      const std::uint64_t r = b << row.shift;
      while (c < kMaxBinomialN && kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(c + 1)] <= r) ++c;
      row.start[b] = static_cast<std::uint8_t>(c);
    }
  }
  return rows;
}();

/// The largest c < n with C(c, k) <= r (k >= 1, r < C(n, k)).
inline int largest_below(int k, std::uint64_t r, int n) {
  if (k == 1) return static_cast<int>(r);  // C(c, 1) = c
  const std::uint64_t* row = kBinomial[static_cast<std::size_t>(k)].data();
  if (k <= kInverseMaxK) {
    const InverseBinomialRow& inverse = kInverseBinomial[static_cast<std::size_t>(k)];
    // r < C(50, k), so the answer is at most 49 and row[c + 1] stays in range.
    int c = inverse.start[r >> inverse.shift];
    c += row[c + 1] <= r;                  // branch-free: the usual single step
    while (row[c + 1] <= r) ++c;           // rare: the first buckets of a row are wide in c
    return c;
  }
  // Many pieces of one kind (beyond any table this project builds): binary search.
  int lo = k - 1, len = n - lo;  // row[k - 1] = 0 <= r: the answer is in [lo, lo + len)
  while (len > 1) {
    const int half = len / 2;
    lo = row[lo + half] <= r ? lo + half : lo;
    len -= half;
  }
  return lo;
}

/// Every set of 0 to 3 positions in 0..49 as a bit mask, by colex rank:
/// the last steps of an unrank become one load instead of a chain of
/// dependent searches (the tables take 0.4 KB, 9.8 KB and 157 KB). Larger
/// sets peel their largest elements until three are left.
template <int K>
constexpr auto make_small_set_masks() {
  std::array<std::uint64_t, kBinomial[K][kMaxBinomialN]> masks{};
  std::uint64_t set = (std::uint64_t{1} << K) - 1;  // the first set in colex order
  for (std::uint64_t& mask : masks) {
    mask = set;
    if (K == 0) break;
    // Next set in colex order (Gosper's hack): the same number of bits, the
    // next larger value.
    const std::uint64_t lowest = set & (~set + 1), ripple = set + lowest;
    set = ripple | (((set ^ ripple) >> 2) / lowest);
  }
  return masks;
}
inline constexpr auto kSingles = make_small_set_masks<1>();
inline constexpr auto kPairs = make_small_set_masks<2>();
inline constexpr auto kTriples = make_small_set_masks<3>();
inline constexpr std::uint64_t kEmptySet[1] = {0};
inline constexpr const std::uint64_t* kSmallSets[4] = {kEmptySet, kSingles.data(), kPairs.data(),
                                                       kTriples.data()};
static_assert(kPairs[0] == 0b11 && kPairs[1] == 0b101 && kPairs[2] == 0b110 && kSingles[49] == 1ULL << 49);
static_assert(kTriples[19599] == 0b111ULL << 47);

/// The set of k positions in 0..n-1 with colex rank r, as a bit mask.
inline std::uint64_t colex_unrank(int k, std::uint64_t r, int n) {
  std::uint64_t set = 0;
  for (; k > 3; --k) {
    const int c = largest_below(k, r, n);
    r -= kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
    set |= std::uint64_t{1} << c;
    n = c;
  }
  return set | kSmallSets[k][r];
}

/// Positions among the available squares -> squares: a zero is inserted at
/// every blocked square, lowest first (what PDEP(compact, ~blocked) does in
/// one instruction on CPUs where PDEP is fast). Each insertion moves the bits
/// at and above the blocked square up by one, so later, higher blocked
/// squares are already at their final place when their turn comes. The trip
/// count is the number of blocked squares, fixed for a material.
inline std::uint64_t spread_around(std::uint64_t compact, std::uint64_t blocked) {
  for (; blocked; blocked &= blocked - 1) {
    // blocked | -blocked: every bit from the lowest blocked square up. Adding
    // those bits of `compact` to itself shifts exactly them up by one.
    compact += compact & (blocked | (~blocked + 1));
  }
  return compact;
}

/// spread_around for two sets around the same blocked squares, in one pass.
inline void spread_both_around(std::uint64_t& a, std::uint64_t& b, std::uint64_t blocked) {
  for (; blocked; blocked &= blocked - 1) {
    const std::uint64_t from_lowest = blocked | (~blocked + 1);
    a += a & from_lowest;
    b += b & from_lowest;
  }
}

/// Inverse of colex_rank_among: the k squares (avoiding `blocked`) of rank r
/// among the n available ones.
inline std::uint64_t colex_unrank_among(int k, std::uint64_t r, int n, std::uint64_t blocked) {
  return spread_around(colex_unrank(k, r, n), blocked);
}

}  // namespace dtb::index_detail
