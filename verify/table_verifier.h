// Verification of .dtw and .rule tables held in memory: every stored value
// must equal the value recomputed from its successors' stored values (the
// winner's quickest, the loser's longest). With exact distances this local
// check proves the whole table: take a wrong position of least true
// distance; its successors on the true line are stored correctly, so the
// recomputation disagrees with it. (A cycle of wrongly stored draws cannot
// hide a win either: its least-distance member would be caught.)
#pragma once

#include <cstdint>
#include <string>

#include "drawrules/table_set.h"
#include "compress/value_encoding.h"

namespace dtb {

struct VerifyResult {
  std::uint64_t positions = 0, mismatches = 0;
  std::string message;  // the first mismatch, with its FEN
  bool ok() const { return mismatches == 0 && positions > 0; }
};

/// Check the dtw table of `m` against itself and the materials it reaches
/// (all must be held in `dtw`).
VerifyResult verify_dtw(const TableSet& dtw, const Material& m);

/// Check the rule budgets of class material `m`; `rules` must hold the class
/// materials it reaches and `dtw` the others.
VerifyResult verify_rules(const TableSet& rules, const TableSet& dtw, const Material& m);

/// Every .dtw and .rule table of a directory, loaded and checked as above
/// (`dtb verify`). A directory without such tables passes with tables = 0.
struct DirectoryCheck {
  int tables = 0;
  std::uint64_t positions = 0;
};
bool verify_limits_directory(const std::string& dir, DirectoryCheck& report, std::string& failure);

}  // namespace dtb
