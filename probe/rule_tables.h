// The FMJD draw-limit values (articles 6.3 and 6.4) for the C API's
// dtb_probe_rule: reads the `.rule` budget tables that `dtb gen --dtw` writes.
// Each class position stores one number, the least budget b of plies left in
// the class's count that still forces its result (encoding in
// limits/value_encoding.h, the proof that one number covers every count in
// limits/rule_builder.h): with c plies played and limit 2N, the rule value is
// the stored result if 2N - c >= b, else a draw.
//
// The files are opened and read by LimitTableFiles (lazily, one decoded
// block per thread).
#pragma once

#include <string>

#include "dtb/dtb.h"
#include "limits/value_encoding.h"
#include "probe/limit_table_files.h"
#include "probe/tablebase.h"
#include "rules/value.h"

namespace dtb::probe {

class RuleTables {
 public:
  explicit RuleTables(std::string dir) : files_(std::move(dir), TableKind::Rule) {}

  /// The rule value of `p` (side to move's view) with `plies_in_class` plies
  /// already played in its class. DTB_NOT_IN_CLASS if its material is in no
  /// class, DTB_INVALID_ARGUMENT if the count is outside 0..limit.
  dtb_status rule_value(const Position& p, int plies_in_class, Wdl& out, ProbeError* error);

  /// The stored budget of `p` itself (side to move's view): the result that
  /// can be forced and the least plies of the count it needs (value Draw if
  /// no budget forces a result). DTB_NOT_IN_CLASS as for rule_value.
  dtb_status budget(const Position& p, Outcome& out, ProbeError* error);

 private:
  LimitTableFiles files_;
};

}  // namespace dtb::probe
