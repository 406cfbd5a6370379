// Moves to conversion of one table of the unit being solved, a byte a
// position (`dtb gen --mtc`, issue 13; how the solver finds them:
// unit_solver.h, "Rounds are plies to conversion").
//
// The solver writes every position once per level it belongs to: 0 in its
// first pass, then the round in which the position is propagated if it is
// decided. The writer then stores them as a `.mtc` table
// (compress/FORMAT.md), where drawn positions (no MTC) and positions that
// must capture (MTC 1 whatever is stored) are don't-care, like captures in
// `.wdl` tables: the probe never reads them.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "compress/table_file.h"
#include "gen/large_array.h"
#include "gen/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// The largest MTC a `.mtc` table can hold (bits8 packing). The solver
/// fails, naming the unit, rather than store a wrong value past it.
inline constexpr int kMaxMtc = 255;

class MtcValues {
 public:
  /// Storage for `positions` values, left unset: the solver's first pass
  /// writes every position (in parallel: large_array.h).
  explicit MtcValues(std::uint64_t positions) { plies_.resize(positions); }

  void set(std::uint64_t i, int plies) { plies_[i] = static_cast<std::uint8_t>(plies); }
  int get(std::uint64_t i) const { return plies_[i]; }
  std::uint64_t size() const { return plies_.size(); }
  static std::uint64_t bytes_for(std::uint64_t positions) { return positions; }
  /// Give the memory of whole pages back to the system (they read as zero
  /// after): a worker of a distributed build, between parts of a unit.
  void release() {
    advise_small_pages(plies_.data(), plies_.size());  // used sparsely from then on
    release_pages(plies_.data(), plies_.size());
  }
  /// The storage, for a level checkpoint (level_checkpoint.h).
  std::span<std::uint8_t> bytes() { return {plies_.data(), plies_.size()}; }

 private:
  LargeArray<std::uint8_t> plies_;
};

/// Every stored value of m's `.mtc` table in `dir`, a byte a position in
/// index order, after the file's checks (header, kind, material, every
/// block's checksum). Don't-care positions hold whatever was stored. False
/// with a message naming the file on failure.
bool load_mtc_values(const std::string& dir, const Material& m, LargeArray<std::uint8_t>& out,
                     std::string& failure);

/// A table's MTC values as the writer reads them: don't-care where the WDL
/// value is a draw or the side to move must capture.
class MtcTableSource final : public ValueSource {
 public:
  MtcTableSource(const MtcValues& mtc, const UnitValues& wdl) : mtc_(mtc), wdl_(wdl) {}
  std::uint64_t size() const override { return mtc_.size(); }
  bool has_dont_care() const override { return true; }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override {
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::uint64_t i = first + k;
      values[k] = static_cast<std::uint16_t>(mtc_.get(i));
      dont_care[k] = static_cast<std::uint8_t>(wdl_.capture(i) || wdl_.value(i) == Wdl::Draw);
    }
  }

 private:
  const MtcValues& mtc_;
  const UnitValues& wdl_;
};

}  // namespace dtb::gen
