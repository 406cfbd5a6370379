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

/// The largest c < n with C(c, k) <= r (k >= 1, r < C(n, k)). Branch-light
/// binary search over one row of the table; k == 1 is direct (C(c, 1) = c).
inline int largest_below(int k, std::uint64_t r, int n) {
  if (k == 1) return static_cast<int>(r);
  const std::uint64_t* row = kBinomial[static_cast<std::size_t>(k)].data();
  int lo = k - 1, len = n - lo;  // row[k - 1] = 0 <= r: the answer is in [lo, lo + len)
  while (len > 1) {
    const int half = len / 2;
    lo = row[lo + half] <= r ? lo + half : lo;
    len -= half;
  }
  return lo;
}

/// The set of k positions in 0..n-1 with colex rank r, as a bit mask.
inline std::uint64_t colex_unrank(int k, std::uint64_t r, int n) {
  std::uint64_t set = 0;
  for (; k > 0; --k) {
    const int c = largest_below(k, r, n);
    r -= kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
    set |= std::uint64_t{1} << c;
    n = c;
  }
  return set;
}

/// The square holding position p among the squares not in `blocked`.
inline int nth_available(int p, std::uint64_t blocked) {
  int square = p;
  // Each blocked square at or below the running answer pushes it up by one;
  // ascending order makes a single pass enough.
  for (; blocked; blocked &= blocked - 1) {
    if (std::countr_zero(blocked) > square) break;
    ++square;
  }
  return square;
}

/// Inverse of colex_rank_among: the k squares (avoiding `blocked`) of rank r
/// among the n available ones.
inline std::uint64_t colex_unrank_among(int k, std::uint64_t r, int n, std::uint64_t blocked) {
  std::uint64_t set = 0;
  for (; k > 0; --k) {
    const int c = largest_below(k, r, n);
    r -= kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
    set |= std::uint64_t{1} << nth_available(c, blocked);
    n = c;
  }
  return set;
}

}  // namespace dtb::index_detail
