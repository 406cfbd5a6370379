// Table files: the public interface of the on-disk format (compress/FORMAT.md).
//
// One file per material and kind of value (`KKMvK.wdl`, `KKMvK.dtw`, ...),
// holding one small integer per position of the material's index (White to
// move), in index order, cut into fixed-size blocks that are packed,
// zstd-compressed and checksummed (XXH3) one by one, so a reader decodes only
// the block it needs and detects any damage before it uses a value.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"

namespace dtb {

/// What the values of a table mean.
enum class TableKind : std::uint8_t {
  Wdl = 1,   // values 0 = loss, 1 = draw, 2 = win (rules/value.h), side to move
  Dtw = 2,   // plies to the end of the game with perfect play (0 = not decided)
  Rule = 3,  // draw-rule budgets (see issue 7); small integers
};

/// File name extension of a kind, with the dot: ".wdl", ".dtw", ".rule".
const char* table_extension(TableKind kind);

/// Explicit error codes, as in zstd's API: every call says what went wrong.
enum class TableStatus : int {
  Ok = 0,
  Missing,           // the file does not exist
  BadMagic,          // not a draughts-tb table
  BadVersion,        // format or index-scheme version this build cannot read
  BadHeader,         // header fields inconsistent (or header checksum mismatch)
  Truncated,         // file shorter than its header says
  ChecksumMismatch,  // a block or the offset table does not match its checksum
  DecodeError,       // zstd or unpacking failed on a block with a valid checksum
  IoError,           // read/write failed (message says which call and errno)
  DiskFull,          // ENOSPC / EDQUOT while writing
  OutOfMemory,
  InvalidArgument,   // e.g. a value out of range for the kind
};

struct TableError {
  TableStatus status = TableStatus::Ok;
  std::string message;  // names the file, and the block where relevant
  explicit operator bool() const { return status != TableStatus::Ok; }
};

/// What a table holds. `dont_care` marks positions whose stored value no
/// reader may rely on (the side to move must capture; the probe resolves
/// those by search): the writer may store whatever compresses best there.
struct TableContents {
  Material material;
  TableKind kind = TableKind::Wdl;
  std::span<const std::uint16_t> values;  // one per position; WDL uses 0..2
  std::span<const std::uint8_t> dont_care;  // empty, or one byte (0/1) per position
};

/// Write a table atomically: a temporary file beside `path`, fsync, rename.
/// A full disk, a failed write or an fsync error is reported, and the
/// temporary file is removed; `path` is never left half-written.
TableError write_table(const std::string& path, const TableContents& contents);

/// Read-only access to one table file. Opening checks the header and the
/// offset table; each block's checksum is checked whenever it is decoded.
/// All const member functions are thread-safe (no shared mutable state).
class TableReader {
 public:
  static std::unique_ptr<TableReader> open(const std::string& path, TableError* error);
  virtual ~TableReader() = default;

  virtual const Material& material() const = 0;
  virtual TableKind kind() const = 0;
  virtual std::uint64_t positions() const = 0;
  virtual std::uint32_t positions_per_block() const = 0;  // the last block may hold fewer
  virtual std::uint64_t block_count() const = 0;
  virtual std::uint64_t file_bytes() const = 0;

  /// Decode block `b` into `out` (resized to the block's number of values).
  virtual TableError decode_block(std::uint64_t b, std::vector<std::uint16_t>& out) const = 0;

  /// Check every block's checksum (and that every block decodes).
  virtual TableError verify_all() const = 0;
};

}  // namespace dtb
