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
#pragma once

#include <atomic>
#include <cstdint>
#include <span>

#include "compress/table_file.h"
#include "support/large_array.h"
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

  /// Zero every value and capture flag, giving the memory of whole pages back
  /// to the system (they cost nothing until written again): a worker of a
  /// distributed build reuses one UnitValues of a unit for many parts of it,
  /// each touching a few slices.
  void clear();

  /// The 64 positions from 64 * word at once: their values as two words of
  /// 32 (position 64 * word + k in bits 2k of `low`, k < 32, then `high`) and
  /// their capture flags. Not atomic: one caller per word.
  void set_words(std::uint64_t word, std::uint64_t low, std::uint64_t high, std::uint64_t capture) {
    wdl_[2 * word] = low;
    if (2 * word + 1 < wdl_.size()) wdl_[2 * word + 1] = high;
    capture_[word] = capture;
  }

  /// Sets values at increasing indexes with one atomic OR per word instead of
  /// one per position (a level's slices are runs of consecutive indexes).
  class Appender {
   public:
    explicit Appender(UnitValues& v) : v_(v) {}
    ~Appender() { flush(); }
    void set(std::uint64_t i, Wdl value, bool capture) {
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
  Wdl value(std::uint64_t i) const { return static_cast<Wdl>((wdl_[i >> 5] >> ((i & 31) * 2)) & 3); }
  bool capture(std::uint64_t i) const { return (capture_[i >> 6] >> (i & 63)) & 1; }
  /// Start loading the words of position i (for a caller about to read many
  /// scattered positions: the cache misses then overlap).
  void prefetch(std::uint64_t i) const {
    __builtin_prefetch(&wdl_[i >> 5]);
    __builtin_prefetch(&capture_[i >> 6]);
  }

  /// Win/draw/loss counts, all and quiet (for the build summary and the stats sidecar).
  MaterialStats count(const Material& m) const;

  /// Free the capture flags (after writing: lookups need only the values).
  void drop_capture_flags() { LargeArray<std::uint64_t>().swap(capture_); }
  std::uint64_t memory_bytes() const { return (wdl_.capacity() + capture_.capacity()) * sizeof(std::uint64_t); }

  /// The storage as bytes (values, then capture flags): what a level
  /// checkpoint (level_checkpoint.h) saves and loads back.
  std::span<std::uint8_t> value_bytes() { return bytes_of(wdl_); }
  std::span<std::uint8_t> capture_bytes() { return bytes_of(capture_); }

  /// Same values and capture flags.
  bool operator==(const UnitValues& o) const { return size_ == o.size_ && wdl_ == o.wdl_ && capture_ == o.capture_; }

  static std::uint64_t bytes_for(std::uint64_t positions) { return (positions + 31) / 32 * 8 + (positions + 63) / 64 * 8; }

  // ValueSource, for the writer: capture positions are don't-care.
  std::uint64_t size() const override { return size_; }
  bool has_dont_care() const override { return true; }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override;

 private:
  static std::span<std::uint8_t> bytes_of(LargeArray<std::uint64_t>& words) {
    return {reinterpret_cast<std::uint8_t*>(words.data()), words.size() * sizeof(std::uint64_t)};
  }

  std::uint64_t size_;
  LargeArray<std::uint64_t> wdl_;
  LargeArray<std::uint64_t> capture_;
};

}  // namespace dtb::gen
