// The `.dtw` or `.rule` files of a table directory (the ones `dtb gen --dtw`
// writes, encoded as limits/value_encoding.h says), read one value at a time
// for the C API's dtb_probe_dtw, dtb_probe_rule and dtb_probe_rule_budget.
//
// Each file is opened on first use under one mutex (these probes are rarer
// than WDL probes: an engine's root, a researcher's scan) and checked to hold
// the expected kind, material and number of positions.
//
// Why a few decoded blocks per thread and not the WDL block cache: these
// values are 16-bit, the WDL cache packs 2 bits; and their heavy users scan
// whole materials in index order (dtb_material_positions), where consecutive
// probes fall into the same block. A block per thread makes such a scan
// decode each block once instead of once per position, without a lock; a
// handful (direct-mapped) keeps probes that alternate between kinds or
// materials (.mtc beside .dtw, a best move's successors) from evicting each
// other.
//
// Thread safety: value() may be called from many threads at once.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "index/position_index.h"
#include "probe/tablebase.h"

namespace dtb::probe {

class LimitTableFiles {
 public:
  LimitTableFiles(std::string dir, TableKind kind) : dir_(std::move(dir)), kind_(kind) {}

  /// The stored value of a White-to-move position `w` (both colours have
  /// pieces). DTB_TABLE_MISSING if its file does not exist, DTB_CORRUPTED_TABLE
  /// (with the block) if it is damaged, DTB_IO_ERROR if it cannot be read.
  dtb_status value(const Position& w, std::uint16_t& out, ProbeError* error);

 private:
  struct OpenTable {
    std::unique_ptr<TableReader> reader;
    std::unique_ptr<PositionIndex> index;
    std::uint64_t serial = 0;  // unique in the process: keys the per-thread block
  };
  const OpenTable* table(const Material& m, ProbeError* error);

  std::string dir_;
  TableKind kind_;
  std::mutex mutex_;
  std::map<Material, std::unique_ptr<OpenTable>> open_;  // entries never move or die
};

}  // namespace dtb::probe
