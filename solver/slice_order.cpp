#include "solver/slice_order.h"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "rules/position.h"

namespace dtb::gen {
namespace {

// Rows 1..10 as masks of the padded bitboard.
constexpr Bitboard row_mask(int row) { return squares_bb(5 * row - 4, 5 * row); }

}  // namespace

int advancement(Bitboard white_men, Bitboard black_men) {
  int a = 0;
  for (int row = 1; row <= 10; ++row) {
    a += popcount(white_men & row_mask(row)) * (10 - row);
    a += popcount(black_men & row_mask(row)) * (row - 1);
  }
  return a;
}

std::vector<std::uint64_t> positions_by_advancement(const Material& m) {
  const int wm = m.white_men, bm = m.black_men, levels = max_advancement(m) + 1;
  // ways[w][b][a]: placements of w white and b black men on the squares seen
  // so far with advancement a. Each square takes a white man, a black man or neither.
  using Table = std::vector<std::vector<std::vector<std::uint64_t>>>;
  Table ways(wm + 1, std::vector<std::vector<std::uint64_t>>(bm + 1, std::vector<std::uint64_t>(levels, 0)));
  ways[0][0][0] = 1;
  for (int square = 1; square <= kSquares; ++square) {
    const int row = row_of_square(square);
    Table next = ways;
    for (int w = 0; w <= wm; ++w)
      for (int b = 0; b <= bm; ++b)
        for (int a = 0; a < levels; ++a) {
          const std::uint64_t n = ways[w][b][a];
          if (n == 0) continue;
          if (w < wm && row > 1 && a + 10 - row < levels) next[w + 1][b][a + 10 - row] += n;   // white man: not on row 1
          if (b < bm && row < 10 && a + row - 1 < levels) next[w][b + 1][a + row - 1] += n;     // black man: not on row 10
        }
    ways = std::move(next);
  }
  const PositionIndex index(m);
  std::vector<std::uint64_t> positions(static_cast<std::size_t>(levels));
  for (int a = 0; a < levels; ++a) positions[static_cast<std::size_t>(a)] = ways[wm][bm][a] * index.kings_per_slice();
  return positions;
}

SliceLevels::SliceLevels(const PositionIndex& index, Form form) : kings_per_slice_(index.kings_per_slice()) {
  const std::uint64_t n = index.slice_count();
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::length_error(index.material().name() + ": too many men configurations for 32-bit slice numbers");
  const int levels = max_advancement(index.material()) + 1;
  // Counting sort by advancement; slices of one level stay in increasing order.
  std::vector<std::uint8_t> level_of(n);
  std::vector<std::uint64_t> count(static_cast<std::size_t>(levels) + 1, 0);
  const std::int64_t signed_n = static_cast<std::int64_t>(n);
#pragma omp parallel for schedule(static)
  for (std::int64_t s = 0; s < signed_n; ++s) {
    const auto [white, black] = index.unrank_men(static_cast<std::uint64_t>(s));
    level_of[static_cast<std::size_t>(s)] = static_cast<std::uint8_t>(advancement(white, black));
  }
  for (const std::uint8_t a : level_of) ++count[a + 1u];
  begin_.assign(count.begin(), count.end());
  for (std::size_t a = 1; a < begin_.size(); ++a) begin_[a] += begin_[a - 1];
  if (form == Form::Compact || (form == Form::Automatic && compact_for(n))) {
    level_of_ = std::move(level_of);
    return;
  }
  slices_.resize(n);
  std::vector<std::uint64_t> next(begin_.begin(), begin_.end() - 1);
  for (std::uint64_t s = 0; s < n; ++s) slices_[next[level_of[s]]++] = static_cast<std::uint32_t>(s);
}

std::vector<std::uint32_t> man_move_slices(const PositionIndex& from, const PositionIndex& to, std::uint32_t slice) {
  const auto [white, black] = from.unrank_men(slice);
  std::vector<std::uint32_t> out;
  for (Bitboard men = white; men;) {
    const Bitboard man = Bitboard{1} << pop_lsb(men);
    for (const int d : {kUpLeft, kUpRight}) {
      const Bitboard step = shift(man, d) & kBoardMask & ~(white | black);
      if (!step || (step & promotion_row(Color::White))) continue;
      const Bitboard moved = (white & ~man) | step;
      // Black to move after it: as White to move in `to`, colours swapped and the board turned.
      out.push_back(static_cast<std::uint32_t>(to.rank_men(rotate_bb(black), rotate_bb(moved))));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::span<const std::uint32_t> SliceLevels::level(int a) const {
  const auto at = static_cast<std::size_t>(a);
  if (!compact()) return {slices_.data() + begin_[at], slices_.data() + begin_[at + 1]};
  for (const Made& m : made_)
    if (m.level == a) return m.slices;
  Made& m = made_[older_];
  older_ = 1 - older_;
  m.level = -1;
  m.slices.clear();
  m.slices.shrink_to_fit();  // the old list goes before the new one is made
  m.slices.reserve(begin_[at + 1] - begin_[at]);
  const auto wanted = static_cast<std::uint8_t>(a);
  for (std::size_t s = 0; s < level_of_.size(); ++s)
    if (level_of_[s] == wanted) m.slices.push_back(static_cast<std::uint32_t>(s));
  m.level = a;
  return m.slices;
}

std::uint64_t SliceLevels::memory_bytes() const {
  std::uint64_t bytes = slices_.size() * sizeof(std::uint32_t) + level_of_.size();
  for (const Made& m : made_) bytes += m.slices.capacity() * sizeof(std::uint32_t);
  return bytes;
}

std::uint64_t SliceLevels::memory_bytes_for(std::uint64_t slices, std::uint64_t largest_level_slices) {
  if (!compact_for(slices)) return slices * sizeof(std::uint32_t);
  return slices + 2 * largest_level_slices * sizeof(std::uint32_t);
}

std::uint64_t SliceLevels::ordinal(int a, std::uint32_t s) const {
  const std::span<const std::uint32_t> l = level(a);
  return static_cast<std::uint64_t>(std::lower_bound(l.begin(), l.end(), s) - l.begin());
}

}  // namespace dtb::gen
