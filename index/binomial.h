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

/// Every set of 2 or 3 positions in 0..49 by colex rank, elements packed
/// one per byte, largest in the highest byte: the last two or three steps
/// of an unrank become one load (2.4 KB and 78 KB) instead of a chain of
/// dependent searches. Larger sets peel elements until three are left.
template <int K>
constexpr auto make_small_sets() {
  std::array<std::uint32_t, kBinomial[K][kMaxBinomialN]> sets{};
  std::array<int, K> element{};
  for (int i = 0; i < K; ++i) element[static_cast<std::size_t>(i)] = i;
  // Colex order: advance the lowest element that can move, reset those below.
  for (std::uint32_t& packed : sets) {
    packed = 0;
    for (int i = K - 1; i >= 0; --i) packed = packed << 8 | static_cast<std::uint32_t>(element[static_cast<std::size_t>(i)]);
    int i = 0;
    while (i + 1 < K && element[static_cast<std::size_t>(i)] + 1 == element[static_cast<std::size_t>(i + 1)]) ++i;
    ++element[static_cast<std::size_t>(i)];
    for (int j = 0; j < i; ++j) element[static_cast<std::size_t>(j)] = j;
  }
  return sets;
}
inline constexpr auto kPairs = make_small_sets<2>();
inline constexpr auto kTriples = make_small_sets<3>();
static_assert(kPairs[0] == 0x0100 && kPairs[1] == 0x0200 && kPairs[2] == 0x0201 && kPairs[1224] == 0x3130);
static_assert(kTriples[1] == 0x030100 && kTriples[19599] == 0x31302F);

/// Calls emit(c) for each element c of the k-set of positions in 0..n-1 with
/// colex rank r, largest first.
template <class Emit>
inline void for_each_colex_element(int k, std::uint64_t r, int n, Emit&& emit) {
  for (; k > 3; --k) {
    const int c = largest_below(k, r, n);
    r -= kBinomial[static_cast<std::size_t>(k)][static_cast<std::size_t>(c)];
    emit(c);
    n = c;
  }
  if (k == 3) {
    const std::uint32_t packed = kTriples[r];
    emit(static_cast<int>(packed >> 16)), emit(static_cast<int>(packed >> 8 & 0xFF)), emit(static_cast<int>(packed & 0xFF));
  } else if (k == 2) {
    const std::uint32_t packed = kPairs[r];
    emit(static_cast<int>(packed >> 8)), emit(static_cast<int>(packed & 0xFF));
  } else if (k == 1) {
    emit(static_cast<int>(r));
  }
}

/// The set of k positions in 0..n-1 with colex rank r, as a bit mask.
inline std::uint64_t colex_unrank(int k, std::uint64_t r, int n) {
  std::uint64_t set = 0;
  for_each_colex_element(k, r, n, [&](int c) { set |= std::uint64_t{1} << c; });
  return set;
}

/// The square holding position p among the squares not in `blocked`.
inline int nth_available(int p, std::uint64_t blocked) {
  int square = p;
  // Each blocked square at or below the running answer pushes it up by one;
  // ascending order makes a single pass enough. Once a blocked square lies
  // above the answer all later ones do too, so no early exit is needed: the
  // trip count is then fixed per material and the loop branch predicts well.
  for (; blocked; blocked &= blocked - 1) square += std::countr_zero(blocked) <= square;
  return square;
}

/// Inverse of colex_rank_among: the k squares (avoiding `blocked`) of rank r
/// among the n available ones.
inline std::uint64_t colex_unrank_among(int k, std::uint64_t r, int n, std::uint64_t blocked) {
  std::uint64_t set = 0;
  for_each_colex_element(k, r, n, [&](int c) { set |= std::uint64_t{1} << nth_available(c, blocked); });
  return set;
}

}  // namespace dtb::index_detail
