// The `.dtw`, `.rule` or `.mtc` files of a table directory (one 16-bit value
// per position, encoded as compress/value_encoding.h and probe/perfect_play.h
// say), read one value at a time: the probe library's one reader of them,
// under DtwTables, RuleTables and PerfectPlay.
//
// Each file is opened on first use under one mutex (these probes are rarer
// than WDL probes: an engine's root, a researcher's scan, the explorer) and
// checked to hold the expected kind, material and number of positions.
//
// Decoded blocks go into the handle's block cache (block_cache.h), as wide
// pages of 16-bit values beside the WDL pages, not into a cache of their own:
// one budget, dtb_open's cache_bytes, bounds all that a handle keeps. A scan
// of a material in index order (dtb_material_positions) decodes each block
// once and then reads its pages; probes that alternate between kinds or
// materials (.mtc beside .dtw, a best move's successors) keep each other's
// blocks as the WDL probes do.
//
// Thread safety: value() may be called from many threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "index/position_index.h"
#include "probe/block_cache.h"
#include "probe/tablebase.h"

namespace dtb::probe {

class LimitTableFiles {
 public:
  /// `cache` (the handle's, which must outlive this) keeps the decoded blocks.
  /// The files are found by `locator` (which must outlive this).
  LimitTableFiles(BlockCache& cache, const TableLocator& locator, TableKind kind)
      : cache_(cache), locator_(locator), kind_(kind) {}

  /// The stored value of a White-to-move position `w` (both colours have
  /// pieces). DTB_TABLE_MISSING if its file does not exist, DTB_CORRUPTED_TABLE
  /// (with the block) if it is damaged, DTB_IO_ERROR if it cannot be read.
  dtb_status value(const Position& w, std::uint16_t& out, ProbeError* error);

  /// The largest value stored in m's file (its header's max_value): for a
  /// `.mtc` file the longest conversion of a win or loss in the table. Same
  /// errors as value().
  dtb_status max_value(const Material& m, std::uint16_t& out, ProbeError* error);

  /// Blocks decoded so far, and the release of the file pages those decodes
  /// mapped (as Tablebase's): for a caller that bounds its RSS.
  std::uint64_t blocks_decoded() const { return blocks_decoded_.load(std::memory_order_relaxed); }
  void drop_mapped_pages();

 private:
  struct OpenTable {
    std::unique_ptr<TableReader> reader;
    std::unique_ptr<PositionIndex> index;
    std::uint64_t key = 0;  // cache key of the table's first page; page n is key | n
    std::uint64_t pages_per_block = 0;
  };
  const OpenTable* table(const Material& m, ProbeError* error);
  // Decode `block` into the cache and give the value at `in_block`.
  dtb_status decode_into_cache(const OpenTable& t, std::uint64_t block, std::uint64_t in_block,
                               std::uint16_t& out, ProbeError* error);

  BlockCache& cache_;
  const TableLocator& locator_;
  TableKind kind_;
  std::mutex mutex_;
  std::map<Material, std::unique_ptr<OpenTable>> open_;  // entries never move or die
  std::atomic<std::uint64_t> blocks_decoded_{0};
};

}  // namespace dtb::probe
