#include "serve/report_failure.h"

#include <regex>

namespace dtb {
namespace {

// The library's messages name the table by its path ("DIR/KMvK.wdl: block 3
// of 7: checksum mismatch"); a client gets the file name alone, never the
// server's directory.
std::string file_named_in(const std::string& message) {
  static const std::regex file(R"(([KM]+v[KM]+\.(wdl|dtw|rule|mtc|r62))\b)");
  std::smatch m;
  return std::regex_search(message, m, file) ? m[1].str() : std::string();
}

std::int64_t block_named_in(const std::string& message) {
  static const std::regex block(R"(: block ([0-9]{1,18})\b)");
  std::smatch m;
  return std::regex_search(message, m, block) ? std::stoll(m[1].str()) : -1;
}

FailureKind kind_of(dtb_status s) {
  switch (s) {
    case DTB_OK: return FailureKind::None;
    case DTB_INVALID_ARGUMENT:
    case DTB_INVALID_POSITION: return FailureKind::BadInput;
    // Past the largest table or a table absent: the same answer, "not in the tables".
    case DTB_TOO_MANY_PIECES:
    case DTB_TABLE_MISSING: return FailureKind::TableMissing;
    case DTB_CORRUPTED_TABLE:
    case DTB_IO_ERROR: return FailureKind::TableDamaged;
    default: return FailureKind::Internal;
  }
}

FailureKind kind_of(TableStatus s) {
  switch (s) {
    case TableStatus::Ok: return FailureKind::None;
    case TableStatus::Missing: return FailureKind::TableMissing;
    case TableStatus::InvalidArgument: return FailureKind::BadInput;
    case TableStatus::OutOfMemory: return FailureKind::Internal;
    default: return FailureKind::TableDamaged;
  }
}

}  // namespace

Failure failure_of(const probe::ProbeError& error) {
  Failure f;
  f.kind = kind_of(error.status);
  if (!f) return f;
  // The same wording as before the report was shared: "table missing: ...".
  f.message = std::string(dtb_status_string(error.status)) +
              (error.message.empty() ? std::string() : ": " + error.message);
  // A bad input (a count beyond the class's limit) is no table's fault: the
  // answer names no material, as for a bad FEN.
  if (f.kind != FailureKind::BadInput) f.material = error.material;
  if (f.kind == FailureKind::TableDamaged) {
    f.file = file_named_in(error.message);
    f.block = error.block >= 0 ? error.block : block_named_in(error.message);
  }
  return f;
}

Failure failure_of(dtb_status status, const dtb_error& error) {
  return failure_of(probe::ProbeError{status, error.material, error.block, error.message});
}

Failure failure_of(const TableError& error) {
  Failure f;
  f.kind = kind_of(error.status);
  if (!f) return f;
  f.message = error.message;
  f.file = file_named_in(error.message);
  if (!f.file.empty()) f.material = f.file.substr(0, f.file.find('.'));
  if (f.kind == FailureKind::TableDamaged) f.block = block_named_in(error.message);
  return f;
}

}  // namespace dtb
