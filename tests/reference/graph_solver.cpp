#include "tests/reference/graph_solver.h"

#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>

#include "rules/movegen.h"

namespace dtb::reference {
namespace {

constexpr std::uint16_t kNoWin = std::numeric_limits<std::uint16_t>::max();
constexpr std::uint32_t kWinFlag = 0x80000000u;  // bucket entries: index | win flag

// What the forward pass learns about one position. External successors are
// folded into three numbers: the quickest win they offer, the longest delay
// they offer the loser, and whether one of them is a draw.
struct Summary {
  std::uint16_t external_win = kNoWin;  // min over external losing successors of plies + 1
  std::uint16_t external_loss = 0;      // max over external winning successors of plies + 1
  std::uint16_t internal_moves = 0;
  bool external_draw = false;
  bool no_moves = false;
};

// The unit as one index space: M's positions first, then R's.
class UnitSpace {
 public:
  explicit UnitSpace(const std::vector<const PositionIndex*>& unit) : unit_(unit) {
    if (unit.empty() || unit.size() > 2) throw std::invalid_argument("a unit holds one or two materials");
    std::uint64_t total = 0;
    for (const PositionIndex* idx : unit) {
      offsets_.push_back(total);
      total += idx->size();
    }
    if (total >= kWinFlag) throw std::length_error("unit too large for 31-bit position numbers");
    size_ = total;
  }
  std::uint64_t size() const { return size_; }
  Position unrank(std::uint64_t i) const {
    const std::size_t k = (unit_.size() == 2 && i >= offsets_[1]) ? 1 : 0;
    return unit_[k]->unrank(i - offsets_[k]);
  }
  // Global number of a White-to-move position if its material is in the unit.
  std::optional<std::uint32_t> find(const Position& w, const Material& m) const {
    for (std::size_t k = 0; k < unit_.size(); ++k)
      if (unit_[k]->material() == m) return static_cast<std::uint32_t>(offsets_[k] + unit_[k]->rank(w));
    return std::nullopt;
  }
  std::vector<std::vector<Outcome>> split(const std::vector<Outcome>& all) const {
    std::vector<std::vector<Outcome>> out;
    for (std::size_t k = 0; k < unit_.size(); ++k) {
      const auto first = all.begin() + static_cast<std::ptrdiff_t>(offsets_[k]);
      out.emplace_back(first, first + static_cast<std::ptrdiff_t>(unit_[k]->size()));
    }
    return out;
  }

 private:
  const std::vector<const PositionIndex*>& unit_;
  std::vector<std::uint64_t> offsets_;
  std::uint64_t size_ = 0;
};

// Internal successors of a contiguous range of positions, in order.
struct Chunk {
  std::uint64_t first = 0, last = 0;
  std::vector<std::uint32_t> successors;
};

void add_external(Summary& s, Outcome child) {
  const auto through = static_cast<std::uint16_t>(std::min<int>(child.plies + 1, kMaxStoredPlies));
  if (child.value == Wdl::Loss)
    s.external_win = std::min(s.external_win, through);
  else if (child.value == Wdl::Win)
    s.external_loss = std::max(s.external_loss, through);
  else
    s.external_draw = true;
}

void expand(const UnitSpace& space, const ExternalOutcome& external, Chunk& chunk,
            std::vector<Summary>& summaries) {
  MoveList moves;
  for (std::uint64_t i = chunk.first; i < chunk.last; ++i) {
    const Position p = space.unrank(i);
    generate_moves(p, moves);
    Summary& s = summaries[i];
    s.no_moves = moves.size == 0;
    for (const Move& m : moves) {
      const Position next = colour_reversed(make_move(p, m));  // White to move again
      if (next.white == 0) {  // the opponent's last piece was taken: it lost in 0
        add_external(s, Outcome{Wdl::Loss, 0});
        continue;
      }
      const Material mat = material_of(next);
      if (const auto j = space.find(next, mat)) {
        chunk.successors.push_back(*j);
        ++s.internal_moves;
      } else {
        add_external(s, external(next));
      }
    }
  }
}

// Parents of every position (reverse edges), compressed-row form.
struct ReverseGraph {
  std::vector<std::uint64_t> first;  // size n + 1
  std::vector<std::uint32_t> parent;
};

ReverseGraph reverse(const std::vector<Chunk>& chunks, const std::vector<Summary>& summaries,
                     std::uint64_t n) {
  ReverseGraph g;
  g.first.assign(n + 1, 0);
  for (const Chunk& c : chunks)
    for (std::uint32_t child : c.successors) ++g.first[child + 1];
  for (std::uint64_t i = 0; i < n; ++i) g.first[i + 1] += g.first[i];
  g.parent.resize(g.first[n]);
  std::vector<std::uint64_t> fill(g.first.begin(), g.first.end() - 1);
  for (const Chunk& c : chunks) {
    std::size_t k = 0;
    for (std::uint64_t i = c.first; i < c.last; ++i)
      for (int e = 0; e < summaries[i].internal_moves; ++e)
        g.parent[fill[c.successors[k++]]++] = static_cast<std::uint32_t>(i);
  }
  return g;
}

// Dijkstra-like sweep over distances: positions are decided in increasing
// order of plies, so the first time a position is decided is with its exact
// distance (a win: the least d with a losing successor at d - 1; a loss: once
// the last successor is known to win, at the largest successor distance + 1).
std::vector<Outcome> sweep(const std::vector<Summary>& summaries, const ReverseGraph& g) {
  const std::size_t n = summaries.size();
  std::vector<Outcome> result(n);
  std::vector<std::uint8_t> decided(n, 0);
  std::vector<std::uint16_t> queued_win(n, kNoWin);  // least win distance queued so far
  std::vector<std::uint16_t> remaining(n), longest(n);
  std::vector<std::vector<std::uint32_t>> buckets(64);
  auto push = [&](std::size_t d, std::uint32_t i, bool win) {
    if (d >= buckets.size()) buckets.resize(d + 1);
    buckets[d].push_back(i | (win ? kWinFlag : 0));
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Summary& s = summaries[i];
    const auto id = static_cast<std::uint32_t>(i);
    remaining[i] = s.internal_moves;
    longest[i] = s.external_loss;
    if (s.no_moves) {
      push(0, id, false);
    } else if (s.external_win != kNoWin) {
      queued_win[i] = s.external_win;
      push(s.external_win, id, true);
    } else if (s.internal_moves == 0 && !s.external_draw) {
      push(s.external_loss, id, false);
    }
  }
  for (std::size_t d = 0; d < buckets.size(); ++d) {
    for (std::size_t k = 0; k < buckets[d].size(); ++k) {
      const std::uint32_t entry = buckets[d][k];
      const std::uint32_t i = entry & ~kWinFlag;
      if (decided[i]) continue;
      const bool win = entry & kWinFlag;
      decided[i] = 1;
      result[i] = Outcome{win ? Wdl::Win : Wdl::Loss, static_cast<std::uint16_t>(d)};
      const auto through = static_cast<std::uint16_t>(std::min<std::size_t>(d + 1, kMaxStoredPlies));
      for (std::uint64_t e = g.first[i]; e < g.first[i + 1]; ++e) {
        const std::uint32_t q = g.parent[e];
        if (decided[q]) continue;
        if (!win) {  // q can move into a loss: q wins in d + 1 (or sooner)
          if (through < queued_win[q]) {
            queued_win[q] = through;
            push(through, q, true);
          }
          continue;
        }
        longest[q] = std::max(longest[q], through);
        if (--remaining[q] == 0 && queued_win[q] == kNoWin && !summaries[q].external_draw)
          push(longest[q], q, false);
      }
    }
    std::vector<std::uint32_t>().swap(buckets[d]);
  }
  return result;
}

}  // namespace

std::vector<std::vector<Outcome>> solve_unit_by_graph(const std::vector<const PositionIndex*>& unit,
                                                      const ExternalOutcome& external) {
  const UnitSpace space(unit);
  const std::uint64_t n = space.size();
  std::vector<Summary> summaries(n);
  constexpr std::uint64_t kChunk = 1 << 14;
  std::vector<Chunk> chunks((n + kChunk - 1) / kChunk);
  for (std::size_t c = 0; c < chunks.size(); ++c) {
    chunks[c].first = c * kChunk;
    chunks[c].last = std::min<std::uint64_t>(n, (c + 1) * kChunk);
  }
  // Forward pass in parallel: move generation and ranking dominate the cost.
  // Each chunk writes only its own vector and its own summaries.
#pragma omp parallel for schedule(dynamic, 1)
  for (std::ptrdiff_t c = 0; c < static_cast<std::ptrdiff_t>(chunks.size()); ++c)
    expand(space, external, chunks[static_cast<std::size_t>(c)], summaries);
  const ReverseGraph g = reverse(chunks, summaries, n);
  chunks.clear();
  chunks.shrink_to_fit();
  return space.split(sweep(summaries, g));
}

}  // namespace dtb::reference
