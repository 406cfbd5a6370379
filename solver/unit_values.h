// The final values of one table of the unit being solved, 3 bits a position.
//
// The solver finishes a unit level by level (slice_order.h); each finished
// level's values go here, and later levels read them back (a man move from
// level A lands in level A + 1). At the end the writer reads the whole table
// from here, block by block (compress's ValueSource), so no array of a byte
// or more per position of the whole unit ever exists: the largest 6-piece
// unit (KMvKKMM + KKMMvKM, 4.16 G positions) takes 1.56 GB.
//
// Layout: the WDL value (rules/value.h) at 2 bits per position, 32 per word,
// and the must-capture flag at 1 bit per position, 64 per word. A level's
// slices are not word-aligned, so an Appender ORs into zeroed words
// atomically, once per word it touches; every position is set exactly once.
//
// Spilled values. Solving level a reads only level a + 1 (a man move
// advances one step; captures and promotions leave the unit), so the other
// finished levels need not be in memory. Values kept in a scratch file
// (scratch_file.h: mapped, the two arrays one after the other) cost memory
// only for the pages touched since the last drop_resident_pages(): the
// solver drops them before each level's finalize, so about one level's
// values stay resident, and the writer and the counts read the file by
// pread. They are stored level by level (level_order.h), so that one
// level's values are one run of pages. What lets the 7-piece units (32 GiB
// of values for KKMMvKKM) be solved within 12 GiB.
#pragma once

#include <atomic>
#include <cstdint>
#include <span>

#include <memory>

#include "compress/table_file.h"
#include "support/large_array.h"
#include "support/scratch_file.h"
#include "solver/level_order.h"
#include "solver/material_stats.h"
#include "index/material.h"
#include "rules/value.h"

namespace dtb::gen {

class UnitValues final : public ValueSource {
 public:
  /// Zeroed storage for `positions` values (in parallel: large_array.h).
  explicit UnitValues(std::uint64_t positions);

  /// Storage left unset, for a caller that stores every word with
  /// set_words(): its pages are touched only as they are filled.
  struct Unset {};
  UnitValues(std::uint64_t positions, Unset);

  /// In a scratch file of bytes_for(positions) bytes, stored in `order`
  /// (spilled values, see above). The caller gives a file that reads as
  /// zero, or one whose unfinished levels it clears (clear_slices).
  UnitValues(std::uint64_t positions, std::unique_ptr<ScratchFile> file, std::unique_ptr<const LevelOrder> order);
  ~UnitValues() override;
  UnitValues(UnitValues&&) noexcept = default;  // the storage moves, its address stays

  /// Zero every value and capture flag, giving the memory of whole pages back
  /// to the system (they cost nothing until written again): a worker of a
  /// distributed build reuses one UnitValues of a unit for many parts of it,
  /// each touching a few slices.
  void clear();

  /// The 64 positions from 64 * word at once: their values as two words of
  /// 32 (position 64 * word + k in bits 2k of `low`, k < 32, then `high`) and
  /// their capture flags. Not atomic: one caller per word. In memory only.
  void set_words(std::uint64_t word, std::uint64_t low, std::uint64_t high, std::uint64_t capture) {
    wdl_[2 * word] = low;
    if (2 * word + 1 < wdl_words_) wdl_[2 * word + 1] = high;
    capture_[word] = capture;
  }

  /// Sets values at increasing indexes with one atomic OR per word instead of
  /// one per position (a level's slices are runs of consecutive indexes).
  class Appender {
   public:
    explicit Appender(UnitValues& v) : v_(v) {}
    ~Appender() { flush(); }
    void set(std::uint64_t index, Wdl value, bool capture) {
      const std::uint64_t i = v_.at(index);
      if ((i >> 6) != word_) {
        flush();
        word_ = i >> 6;
      }
      const std::uint64_t v = static_cast<std::uint8_t>(value);
      wdl_[(i >> 5) & 1] |= v << ((i & 31) * 2);
      capture_ |= std::uint64_t{capture} << (i & 63);
    }
    void flush() {
      if (word_ == kNone) return;
      for (std::uint64_t k = 0; k < 2; ++k)
        if (wdl_[k])
          std::atomic_ref<std::uint64_t>(v_.wdl_[2 * word_ + k]).fetch_or(wdl_[k], std::memory_order_relaxed);
      if (capture_) std::atomic_ref<std::uint64_t>(v_.capture_[word_]).fetch_or(capture_, std::memory_order_relaxed);
      wdl_[0] = wdl_[1] = capture_ = 0;
      word_ = kNone;
    }

   private:
    static constexpr std::uint64_t kNone = ~std::uint64_t{0};
    UnitValues& v_;
    std::uint64_t word_ = kNone;  // the 64 positions being gathered: index / 64
    std::uint64_t wdl_[2] = {0, 0}, capture_ = 0;
  };

  /// Values of finished levels only (a plain read: levels finish before they are read).
  Wdl value(std::uint64_t index) const {
    const std::uint64_t i = at(index);
    return static_cast<Wdl>((wdl_[i >> 5] >> ((i & 31) * 2)) & 3);
  }
  bool capture(std::uint64_t index) const {
    const std::uint64_t i = at(index);
    return (capture_[i >> 6] >> (i & 63)) & 1;
  }
  /// Start loading the words of position i (for a caller about to read many
  /// scattered positions: the cache misses then overlap).
  void prefetch(std::uint64_t index) const {
    const std::uint64_t i = at(index);
    __builtin_prefetch(&wdl_[i >> 5]);
    __builtin_prefetch(&capture_[i >> 6]);
  }
  /// The same for a caller that reads the value only.
  void prefetch_value(std::uint64_t index) const { __builtin_prefetch(&wdl_[at(index) >> 5]); }

  /// Win/draw/loss counts, all and quiet (for the build summary and the stats sidecar).
  MaterialStats count(const Material& m) const;

  /// Free the capture flags (after writing: lookups need only the values).
  /// In memory only.
  void drop_capture_flags();
  /// Memory held (0 for spilled values: their pages belong to the file).
  std::uint64_t memory_bytes() const {
    return (wdl_store_.capacity() + capture_store_.capacity()) * sizeof(std::uint64_t);
  }

  /// The storage as bytes (values, then capture flags): what a level
  /// checkpoint (level_checkpoint.h) saves and loads back.
  std::span<std::uint8_t> value_bytes() { return {reinterpret_cast<std::uint8_t*>(wdl_), wdl_words_ * 8}; }
  std::span<std::uint8_t> capture_bytes() { return {reinterpret_cast<std::uint8_t*>(capture_), capture_words_ * 8}; }
  std::span<const std::uint8_t> value_bytes() const { return {reinterpret_cast<const std::uint8_t*>(wdl_), wdl_words_ * 8}; }
  std::span<const std::uint8_t> capture_bytes() const {
    return {reinterpret_cast<const std::uint8_t*>(capture_), capture_words_ * 8};
  }

  /// Same values and capture flags.
  bool operator==(const UnitValues& o) const;

  /// The scratch file of spilled values, or nullptr.
  const ScratchFile* file() const { return file_.get(); }
  /// Spilled values: give back the pages touched so far (they stay in the
  /// file). Nothing in memory.
  void drop_resident_pages() const {
    if (file_) file_->drop_resident_pages();
  }
  /// XXH3 of the values and capture flags of the given slices (positions
  /// [s * kps, (s + 1) * kps) of each, in order): what a level checkpoint
  /// keeps of a finished level's spilled values, to check them on resume.
  std::uint64_t hash_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice) const;
  /// Zero the values and capture flags of the given slices (a resumed solve:
  /// the levels not finished may hold a part of an interrupted finalize).
  void clear_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice);

  static std::uint64_t bytes_for(std::uint64_t positions) { return (positions + 31) / 32 * 8 + (positions + 63) / 64 * 8; }

  // ValueSource, for the writer: capture positions are don't-care.
  std::uint64_t size() const override { return size_; }
  bool has_dont_care() const override { return true; }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override;

 private:
  // Where position i is stored: in index order, or for spilled values level by level.
  std::uint64_t at(std::uint64_t i) const { return order_ ? order_->stored(i) : i; }
  void read_stored(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const;
  void clear_stored(std::uint64_t first, std::uint64_t count);
  void read_words(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care,
                  const std::uint64_t* wdl, const std::uint64_t* capture, std::uint64_t base) const;

  std::uint64_t size_;
  std::uint64_t wdl_words_, capture_words_;
  // In memory: the two arrays. Spilled: the file, both arrays in its mapping.
  LargeArray<std::uint64_t> wdl_store_;
  LargeArray<std::uint64_t> capture_store_;
  std::unique_ptr<ScratchFile> file_;
  std::unique_ptr<const LevelOrder> order_;
  std::uint64_t* wdl_ = nullptr;
  std::uint64_t* capture_ = nullptr;
};

/// Where a unit's table keeps its spilled values while it is solved and
/// written: `dir`/m.values-work.
std::string values_scratch_path(const std::string& dir, const Material& m);

}  // namespace dtb::gen
