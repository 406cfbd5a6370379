// The WDL value of every position of every material up to N pieces, White to
// move, in index order: the reference of the probe tests, which write table
// files from it (probe_test_support.h). It shares the move generator, the
// index (the "addresses") and colour reversal with the project, but none of
// the generator's solving code, so a probe that agrees with it agrees with
// the rules, not with a common bug. Fast enough for every 4-piece material.
//
// Textbook retrograde analysis over explicit move graphs, one unit
// {M, reversed(M)} at a time, smallest first: build every position's
// successors, mark positions without moves as lost, then propagate: a
// position with a lost successor is won; one whose successors are all won is
// lost; whatever is never decided is a draw (an endless game). Successors in
// finished units (after a capture or a promotion) are plain look-ups. The
// values of capture positions are true values (nothing is "don't care").
//
// The other references: reference_solver.h computes the same values without
// the index or colour reversal (so it also checks those, in the generator's
// tests), but too slowly for whole 4-piece units; reference_minimax.h gives
// exact distances and the 6.3/6.4 rule values, not WDL alone.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <thread>
#include <vector>

#include "index/material.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/value.h"
#include "tests/support/every_position.h"

namespace dtb::test {

class NaiveSolution {
 public:
  explicit NaiveSolution(int max_pieces) {
    if (max_pieces > kMaxCount) throw std::invalid_argument("NaiveSolution: at most 7 pieces");
    for (const Material& m : materials_up_to(max_pieces)) {
      if (values_.count(m)) continue;
      std::vector<Material> unit{m};
      if (!m.symmetric()) unit.push_back(m.reversed());
      solve_unit(unit);
    }
  }

  std::vector<Material> materials() const {
    std::vector<Material> out;
    for (const auto& [m, v] : values_) out.push_back(m);
    return out;
  }
  const std::vector<std::uint8_t>& values(const Material& m) const { return values_.at(m); }
  const PositionIndex& index(const Material& m) const { return indexes_.at(m); }

  /// Value of any position of a solved material, either side to move.
  Wdl value(const Position& p) const {
    if (p.pieces(p.side) == 0) return Wdl::Loss;
    const Position w = p.side == Color::White ? p : colour_reversed(p);
    const Material m = material_of(w);
    return static_cast<Wdl>(values_.at(m)[indexes_.at(m).rank(w)]);
  }

 private:
  static constexpr std::uint8_t kUnknown = 3;

  // Direct look-up tables by piece counts (each 0..kMaxCount): the solve does
  // one look-up per move, too many for std::map.
  static constexpr int kMaxCount = 7;
  static int slot(const Material& m) {
    return ((m.white_kings * 8 + m.white_men) * 8 + m.black_kings) * 8 + m.black_men;
  }

  void solve_unit(const std::vector<Material>& unit) {
    std::vector<std::uint64_t> first{0};  // global id of each unit material's index 0
    for (const Material& m : unit) {
      const PositionIndex& index = indexes_.emplace(m, PositionIndex(m)).first->second;
      index_by_slot_[slot(m)] = &index;
      first.push_back(first.back() + index.size());
    }
    const std::uint64_t n = first.back();
    std::vector<std::int64_t> unit_first(8 * 8 * 8 * 8, -1);  // by slot: first id, or -1 outside
    for (std::size_t u = 0; u < unit.size(); ++u) unit_first[slot(unit[u])] = static_cast<std::int64_t>(first[u]);

    // Pass 1 (parallel over id ranges): successors inside the unit, and what
    // the successors outside it already tell.
    std::vector<std::uint8_t> value(n, kUnknown);
    std::vector<std::uint8_t> draw_floor(n, 0);  // a successor outside is a draw
    std::vector<std::uint32_t> successor_count(n, 0);
    const unsigned threads = std::max(1u, std::min(4u, std::thread::hardware_concurrency()));
    std::vector<std::vector<std::uint32_t>> successors(threads);  // per thread, in id order
    auto scan = [&](unsigned t, std::uint64_t begin, std::uint64_t end) {
      MoveList moves;
      successors[t].reserve((end - begin) * 16);
      for (std::uint64_t g = begin; g < end; ++g) {
        const std::size_t u = static_cast<std::size_t>(
            std::upper_bound(first.begin(), first.end(), g) - first.begin() - 1);
        const Position p = index_by_slot_[slot(unit[u])]->unrank(g - first[u]);
        generate_moves(p, moves);
        if (moves.size == 0) value[g] = static_cast<std::uint8_t>(Wdl::Loss);
        for (const Move& mv : moves) {
          const Position child = make_move(p, mv);
          if (child.pieces(child.side) == 0) {  // took the last piece
            value[g] = static_cast<std::uint8_t>(Wdl::Win);
            continue;
          }
          const Position w = colour_reversed(child);  // child has Black to move
          const int s = slot(material_of(w));
          const std::uint64_t rank = index_by_slot_[s]->rank(w);
          if (unit_first[s] >= 0) {
            successors[t].push_back(static_cast<std::uint32_t>(static_cast<std::uint64_t>(unit_first[s]) + rank));
            ++successor_count[g];
            continue;
          }
          const Wdl outside = static_cast<Wdl>((*values_by_slot_[s])[rank]);
          if (outside == Wdl::Loss) value[g] = static_cast<std::uint8_t>(Wdl::Win);
          if (outside == Wdl::Draw) draw_floor[g] = 1;
        }
      }
    };
    std::vector<std::thread> pool;
    for (unsigned t = 0; t < threads; ++t) pool.emplace_back(scan, t, n * t / threads, n * (t + 1) / threads);
    for (auto& th : pool) th.join();

    // Predecessor lists (compressed rows), and per position the number of
    // successors not yet known to be won.
    std::vector<std::uint64_t> pred_start(n + 1, 0);
    for (const auto& list : successors)
      for (const std::uint32_t c : list) ++pred_start[c + 1];
    for (std::uint64_t g = 0; g < n; ++g) pred_start[g + 1] += pred_start[g];
    std::vector<std::uint32_t> predecessors(pred_start[n]);
    {
      std::vector<std::uint64_t> fill(pred_start.begin(), pred_start.end() - 1);
      std::uint64_t g = 0;
      std::uint32_t left = 0;  // successors of g still to read
      for (const auto& list : successors)
        for (const std::uint32_t c : list) {
          while (left == 0) left = successor_count[g++];
          predecessors[fill[c]++] = static_cast<std::uint32_t>(g - 1);
          --left;
        }
    }
    std::vector<std::vector<std::uint32_t>>().swap(successors);
    std::vector<std::uint32_t>& remaining = successor_count;
    std::vector<std::uint32_t> queue;
    for (std::uint64_t g = 0; g < n; ++g) {
      if (value[g] == kUnknown && remaining[g] == 0 && !draw_floor[g])
        value[g] = static_cast<std::uint8_t>(Wdl::Loss);  // every move leads to a won position
      if (value[g] != kUnknown) queue.push_back(static_cast<std::uint32_t>(g));
    }
    for (std::size_t q = 0; q < queue.size(); ++q) {
      const std::uint32_t c = queue[q];
      for (std::uint64_t k = pred_start[c]; k < pred_start[c + 1]; ++k) {
        const std::uint32_t p = predecessors[k];
        if (value[p] != kUnknown) continue;
        if (value[c] == static_cast<std::uint8_t>(Wdl::Loss)) {
          value[p] = static_cast<std::uint8_t>(Wdl::Win);
          queue.push_back(p);
        } else if (--remaining[p] == 0 && !draw_floor[p]) {
          value[p] = static_cast<std::uint8_t>(Wdl::Loss);
          queue.push_back(p);
        }
      }
    }
    for (auto& v : value)
      if (v == kUnknown) v = static_cast<std::uint8_t>(Wdl::Draw);
    for (std::size_t u = 0; u < unit.size(); ++u) {
      auto& stored = values_[unit[u]];
      stored.assign(value.begin() + static_cast<std::ptrdiff_t>(first[u]),
                    value.begin() + static_cast<std::ptrdiff_t>(first[u + 1]));
      values_by_slot_[slot(unit[u])] = &stored;
    }
  }

  std::map<Material, std::vector<std::uint8_t>> values_;
  std::map<Material, PositionIndex> indexes_;
  std::vector<const PositionIndex*> index_by_slot_ = std::vector<const PositionIndex*>(8 * 8 * 8 * 8);
  std::vector<const std::vector<std::uint8_t>*> values_by_slot_ =
      std::vector<const std::vector<std::uint8_t>*>(8 * 8 * 8 * 8);
};

}  // namespace dtb::test
