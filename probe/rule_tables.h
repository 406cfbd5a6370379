// The FMJD draw-limit values (articles 6.3 and 6.4) for the C API's
// dtb_probe_rule: reads the `.rule` budget tables that `dtb gen --dtw` writes.
// Each class position stores one number, the least budget b of plies left in
// the class's count that still forces its result (encoding in
// limits/value_encoding.h, the proof that one number covers every count in
// limits/rule_builder.h): with c plies played and limit 2N, the rule value is
// the stored result if 2N - c >= b, else a draw.
//
// Rule probes are rare (an engine asks at its root, not in its search), so the
// files are opened lazily under one mutex and read through the reader's
// thread-safe value_at; no block cache.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "index/position_index.h"
#include "probe/tablebase.h"
#include "rules/value.h"

namespace dtb::probe {

class RuleTables {
 public:
  explicit RuleTables(std::string dir) : dir_(std::move(dir)) {}

  /// The rule value of `p` (side to move's view) with `plies_in_class` plies
  /// already played in its class. DTB_NOT_IN_CLASS if its material is in no
  /// class, DTB_INVALID_ARGUMENT if the count is outside 0..limit.
  dtb_status rule_value(const Position& p, int plies_in_class, Wdl& out, ProbeError* error);

 private:
  struct OpenTable {
    std::unique_ptr<TableReader> reader;
    std::unique_ptr<PositionIndex> index;
  };
  const OpenTable* table(const Material& m, ProbeError* error);

  std::string dir_;
  std::mutex mutex_;
  std::map<Material, std::unique_ptr<OpenTable>> open_;  // entries never move or die
};

}  // namespace dtb::probe
