// Slices and the order they are solved in: how a unit is solved in bounded memory.
//
// The index (index/position_index.h) already cuts every table into slices:
// one slice per men configuration, holding every placement of the kings. A
// quiet king move keeps the men where they are, so it stays in the slice (of
// the unit's other table: the side to move changes, and a table holds White
// to move only, see unit_solver.h). Every other move leaves the slice:
//   - a capture removes a piece: a smaller material, already finished;
//   - a promotion turns a man into a king: a material with more kings,
//     already finished (build order, index/material.h);
//   - any other man move advances one man by one row.
//
// Advancement. Give every men configuration the number of rows its men have
// advanced: a white man on row r (rows 1..10, white men move up towards row 1)
// has advanced 10 - r rows, a black man on row r has advanced r - 1. Then:
//   (a) a non-promoting man move raises the advancement by exactly 1, and no
//       other move inside the unit changes it;
//   (b) colour reversal keeps it (a white man on row r becomes a black man on
//       row 11 - r, which has advanced 11 - r - 1 = 10 - r rows).
// By (b) the slices of one advancement in M and in reversed(M) are exactly
// the colour reversals of each other, so "level A" of a unit - every slice of
// advancement A in either table - is closed under quiet king moves. By (a)
// every other move from level A leads to level A + 1 or out of the unit.
//
// Order. So the levels are solved from the highest advancement down to 0:
// when level A is solved, every successor outside it is final (level A + 1,
// or a finished material). Inside a level only kings move, and the level is
// solved by the same retrograde counting as a kings-only unit; its man moves
// are looked up like captures and promotions. This is a topological order of
// the slices' successor relation (tests/gen/test_slice_order.cpp checks it
// exhaustively on small materials), and the values do not depend on it: the
// WDL fixed point is unique, so the tables are byte-identical to those of a
// whole-unit solve.
//
// Memory. The solver keeps, for the whole unit, only the final values packed
// at 3 bits a position (solver/unit_values.h), and its one byte a position of
// working state for one level at a time: a level of a material with men holds
// 10-20 % of it. Kings-only materials are one level: their working state is
// the whole unit, so those that would not fit the bound that way (4 kings
// against 3: 7.0 G positions) keep it in half a byte a position, without
// move counters (solver/level_states.h).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "index/position_index.h"
#include "index/position_walker.h"
#include "rules/board.h"

namespace dtb::gen {

/// Rows advanced by all the men of a configuration (see above).
int advancement(Bitboard white_men, Bitboard black_men);

/// Largest advancement of a material: every man one row before promotion.
inline int max_advancement(const Material& m) { return 8 * m.men(); }

/// Positions of a material at each advancement 0..max_advancement(m),
/// counted without listing the slices (a small dynamic programme over the
/// squares): for memory plans of materials too large to enumerate.
std::vector<std::uint64_t> positions_by_advancement(const Material& m);

/// The slices of `to` (the unit's other table) that White's man moves from
/// slice `slice` of `from` lead to, promotions excepted, in increasing order:
/// the slices of level + 1 whose values solving that slice reads (White
/// moves; the position, Black to move, is looked up colour-reversed as White
/// to move in the other table, unit_solver.h). A step onto a square that a
/// king may hold is counted: some placement of the kings leaves it empty.
std::vector<std::uint32_t> man_move_slices(const PositionIndex& from, const PositionIndex& to, std::uint32_t slice);

/// The slices of one table grouped by advancement: level A is
/// slices()[level_begin(A) .. level_begin(A + 1)), in increasing slice order.
class SliceLevels {
 public:
  /// Listed: every level's slices in one array, 4 bytes a slice. Compact:
  /// each slice's level in a byte, a level's list made when asked for (a
  /// scan of those bytes) and kept for the last two levels asked for. The
  /// 7-piece tables of men only have a slice a position (3.3 G slices for
  /// MMMMvMMM: 12 GiB listed, 3.3 GB compact). Automatic: compact from
  /// kCompactFrom slices on.
  enum class Form { Automatic, Listed, Compact };
  static constexpr std::uint64_t kCompactFrom = std::uint64_t{1} << 28;
  static bool compact_for(std::uint64_t slices) { return slices >= kCompactFrom; }

  explicit SliceLevels(const PositionIndex& index, Form form = Form::Automatic);

  int levels() const { return static_cast<int>(begin_.size()) - 1; }
  /// The slices of level a in increasing order. Compact: valid until two
  /// other levels have been asked for; not to be called concurrently.
  std::span<const std::uint32_t> level(int a) const;
  /// Positions of level a (slices times kings per slice).
  std::uint64_t positions(int a) const {
    return (begin_[static_cast<std::size_t>(a) + 1] - begin_[static_cast<std::size_t>(a)]) * kings_per_slice_;
  }
  /// Where slice s stands within level a (s must be in that level).
  std::uint64_t ordinal(int a, std::uint32_t s) const;
  bool compact() const { return !level_of_.empty(); }
  std::uint64_t memory_bytes() const;
  /// What the form chosen for `slices` slices holds at most, the largest
  /// level having `largest_level_slices` (for the memory plan).
  static std::uint64_t memory_bytes_for(std::uint64_t slices, std::uint64_t largest_level_slices);

 private:
  std::uint64_t kings_per_slice_ = 0;
  std::vector<std::uint32_t> slices_;     // listed: sorted by (advancement, slice)
  std::vector<std::uint64_t> begin_;      // levels + 1 entries: where each level starts in that order
  std::vector<std::uint8_t> level_of_;    // compact: each slice's level
  struct Made {
    int level = -1;
    std::vector<std::uint32_t> slices;
  };
  mutable std::array<Made, 2> made_;      // compact: the last two levels asked for
  mutable std::size_t older_ = 0;
};

// Walks the positions of a level in local order (the level's slices one
// after the other, each with all its king placements), giving each one's
// index in the table: one division at the start instead of one per position.
class LevelCursor {
 public:
  LevelCursor(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice, std::uint64_t local)
      : slices_(slices), kps_(kings_per_slice), ordinal_(local / kings_per_slice),
        kings_(local % kings_per_slice) {}
  std::uint64_t index() const { return slices_[ordinal_] * kps_ + kings_; }
  std::uint64_t slice() const { return slices_[ordinal_]; }
  /// Moves on; true if the next position starts a new slice.
  bool next() {
    if (++kings_ < kps_) return false;
    kings_ = 0;
    ++ordinal_;
    return true;
  }

 private:
  std::span<const std::uint32_t> slices_;
  std::uint64_t kps_, ordinal_, kings_;
};

// A LevelCursor that also gives each position: inside a slice by stepping a
// PositionWalker from the last position asked for, when that is at most
// kMaxSteps behind, else by unranking in full. Loops that visit every
// position of a level (the solver's first pass) step once a position; those
// that visit some of them (a propagation round's frontier) step over short
// gaps and unrank across long ones.
class LevelWalk {
 public:
  static constexpr std::uint64_t kMaxSteps = 4;  // a step costs a few ns, an unrank about 20

  LevelWalk(const PositionIndex& index, std::span<const std::uint32_t> slices, std::uint64_t local)
      : cursor_(slices, index.kings_per_slice(), local), walker_(index) {}
  std::uint64_t index() const { return cursor_.index(); }
  const LevelCursor& cursor() const { return cursor_; }
  /// The position at index().
  const Position& position() {
    if (!in_slice_ || lag_ > kMaxSteps) {
      in_slice_ = true;
      lag_ = 0;
      return walker_.seek(cursor_.index());
    }
    for (; lag_ > 0; --lag_) walker_.next();
    return walker_.position();
  }
  /// Moves on.
  void next() {
    if (cursor_.next())
      in_slice_ = false;
    else
      ++lag_;
  }

 private:
  LevelCursor cursor_;
  PositionWalker walker_;
  bool in_slice_ = false;  // walker_ is lag_ positions behind the cursor, in its slice
  std::uint64_t lag_ = 0;
};

}  // namespace dtb::gen
