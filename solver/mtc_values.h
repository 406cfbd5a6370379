// Moves to conversion of one table of the unit being solved, a byte a
// position (`dtb gen --mtc`; how the solver finds them:
// unit_solver.h, "Rounds are plies to conversion").
//
// The solver writes every position once per level it belongs to: 0 in its
// first pass, then the round in which the position is propagated if it is
// decided. The writer then stores them as a `.mtc` table
// (compress/FORMAT.md), where drawn positions (no MTC) and positions that
// must capture (MTC 1 whatever is stored) are don't-care, like captures in
// `.wdl` tables: the probe never reads them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "support/large_array.h"
#include "support/scratch_file.h"
#include "solver/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// The largest MTC a `.mtc` table can hold (bits8 packing). The solver
/// fails, naming the unit, rather than store a wrong value past it.
inline constexpr int kMaxMtc = 255;

class MtcValues {
 public:
  /// In memory, left unset: the solver's first pass writes every position
  /// (in parallel: large_array.h).
  explicit MtcValues(std::uint64_t positions) {
    plies_.resize(positions);
    data_ = plies_.data();
    size_ = positions;
  }
  /// In a scratch file (scratch_file.h), a byte a position: what `dtb gen
  /// --mtc` uses, so that a unit's MTC values cost memory only for the level
  /// being solved (drop_resident_pages after each level).
  explicit MtcValues(std::unique_ptr<ScratchFile> file)
      : file_(std::move(file)), data_(file_->data()), size_(file_->size()) {}

  void set(std::uint64_t i, int plies) { data_[i] = static_cast<std::uint8_t>(plies); }
  int get(std::uint64_t i) const { return data_[i]; }
  std::uint64_t size() const { return size_; }
  static std::uint64_t bytes_for(std::uint64_t positions) { return positions; }

  /// Values [first, first + out.size()), for the writer: from a file by
  /// pread (nothing stays resident), from memory by a copy. Thread-safe.
  void read(std::uint64_t first, std::span<std::uint8_t> out) const {
    if (file_)
      file_->read(first, out);
    else
      std::copy_n(data_ + first, out.size(), out.begin());
  }

  /// XXH3 of the values of the given slices (positions [s * kps, (s + 1) *
  /// kps) of each, in order): what a level checkpoint keeps of the values of
  /// a finished level held in a file, to check them when it resumes.
  std::uint64_t hash_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice) const;

  /// The scratch file, if the values are kept in one.
  const ScratchFile* file() const { return file_.get(); }
  /// In a file: give back the pages written so far (they stay in the file).
  /// The solver calls it after each level; it never reads an earlier level's MTC.
  void drop_resident_pages() const {
    if (file_) file_->drop_resident_pages();
  }

  /// In memory: give the memory of whole pages back to the system (they
  /// read as zero after): a worker of a distributed build, between parts of a unit.
  void release() {
    advise_small_pages(plies_.data(), plies_.size());  // used sparsely from then on
    release_pages(plies_.data(), plies_.size());
  }
  /// In memory: the storage, for a level checkpoint (level_checkpoint.h).
  std::span<std::uint8_t> bytes() { return {plies_.data(), plies_.size()}; }

 private:
  LargeArray<std::uint8_t> plies_;     // in memory
  std::unique_ptr<ScratchFile> file_;  // or in a file
  std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

/// Where `dtb gen --mtc` keeps the MTC values of table m while its unit is
/// solved and written: `dir`/m.mtc-work.
std::string mtc_scratch_path(const std::string& dir, const Material& m);

/// Every stored value of m's `.mtc` table in `dir`, a byte a position in
/// index order, after the file's checks (header, kind, material, every
/// block's checksum). Don't-care positions hold whatever was stored. False
/// with a message naming the file on failure. The same for its `.r62`
/// table with kind Article62 (a byte a position as well: values 0-51).
bool load_mtc_values(const std::string& dir, const Material& m, LargeArray<std::uint8_t>& out,
                     std::string& failure, TableKind kind = TableKind::Mtc);

/// A table's MTC values as the writer reads them: don't-care where the WDL
/// value is a draw or the side to move must capture.
class MtcTableSource final : public ValueSource {
 public:
  MtcTableSource(const MtcValues& mtc, const UnitValues& wdl) : mtc_(mtc), wdl_(wdl) {}
  std::uint64_t size() const override { return mtc_.size(); }
  bool has_dont_care() const override { return true; }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override {
    thread_local std::vector<std::uint8_t> plies;
    plies.resize(values.size());
    mtc_.read(first, plies);
    for (std::size_t k = 0; k < values.size(); ++k) {
      const std::uint64_t i = first + k;
      values[k] = plies[k];
      dont_care[k] = static_cast<std::uint8_t>(wdl_.capture(i) || wdl_.value(i) == Wdl::Draw);
    }
  }

 private:
  const MtcValues& mtc_;
  const UnitValues& wdl_;
};

}  // namespace dtb::gen
