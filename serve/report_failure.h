// Why a probe failed, in the terms a client acts on: its own input was bad,
// a table it needs is not there, or a table is damaged. `dtb probe` prints
// these details; `dtb serve` also turns the kind into the HTTP status
// (400, 404, 500).
#pragma once

#include <cstdint>
#include <string>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "probe/tablebase.h"

namespace dtb {

enum class FailureKind {
  None,
  BadInput,      // malformed or illegal FEN, too many pieces, a count out of range
  TableMissing,  // no table file for a material the answer needs
  TableDamaged,  // a table failed its checks (or the tables contradict each other)
  Internal,      // out of memory and the like: not the client's fault, nor a table's
};

struct Failure {
  FailureKind kind = FailureKind::None;
  std::string message;   // names the file and block where the library does
  std::string material;  // the table's material ("KKMvK"), "" if unknown
  std::string file;      // the damaged table's file name, no directory; "" if unknown
  std::int64_t block = -1;  // the damaged block, -1 if unknown
  explicit operator bool() const { return kind != FailureKind::None; }
};

/// A failure of the probe library: through the C API (dtb.h), or of its C++
/// readers behind the handle (probe/handle.h).
Failure failure_of(dtb_status status, const dtb_error& error);
Failure failure_of(const probe::ProbeError& error);
/// A failure loading the rules report's tables whole (serve/rule_report_tables.h).
Failure failure_of(const TableError& error);

}  // namespace dtb
