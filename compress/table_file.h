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
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"

namespace dtb {

/// What the values of a table mean.
enum class TableKind : std::uint8_t {
  Wdl = 1,   // values 0 = loss, 1 = draw, 2 = win (rules/value.h), side to move
  Dtw = 2,   // plies to the end of the game with perfect play (0 = not decided)
  Rule = 3,  // draw-rule budgets; small integers
  Mtc = 4,   // moves to conversion: plies to the next capture or man move
             // (the end of the game counts as one) with perfect play; read
             // only where the WDL value is not a draw and there is no capture
  Article62 = 5,  // article 6.2 from a fresh count, for tables where MTC alone does
               // not decide it (gen/article62_builder.h): plies to a conversion
               // that keeps the result under 6.2, 51 if none can be forced
               // within the count; read only where the WDL value is not a draw
};

/// File name extension of a kind, with the dot: ".wdl", ".dtw", ".rule", ".mtc", ".r62".
const char* table_extension(TableKind kind);

/// How the values of one block are laid out before zstd compresses them
/// (FORMAT.md, "Packings"). The writer picks one per table from the values.
enum class Packing : std::uint8_t {
  Bits2 = 1,   // 4 values per byte, 2 bits each, value i at bits 2*(i%4) of byte i/4
  Base3 = 2,   // 5 values per byte, byte = sum v_k * 3^k (values 0..2 only)
  Bits8 = 3,   // 1 byte per value
  Bits16 = 4,  // 2 bytes per value, little-endian
  Runs = 5,    // runs: value byte, then the run length - 1 as a LEB128 varint (values < 256)
};

/// Name of a packing ("bits2", "base3", "bits8", "bits16", "runs").
const char* packing_name(Packing packing);

/// Which index scheme (index/position_index.h) the values are ordered by.
/// Bump it whenever PositionIndex changes the order of positions: readers
/// refuse files of another scheme (BadVersion) instead of misreading them.
inline constexpr std::uint16_t kIndexSchemeVersion = 1;

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
  Interrupted,       // a stop was asked for (SIGINT/SIGTERM) before the work was done; the file may be sound
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

/// Values handed to the writer block by block instead of as whole arrays: a
/// 6-piece table has up to 2.3 G positions, and one uint16_t plus one byte
/// per position of it would take 7 GB, where the generator keeps them packed
/// in well under 1 GB (solver/unit_values.h). The writer reads every block a few
/// times (checks, don't-care carries, packing; again if it halves the block
/// size), from several threads at once.
class ValueSource {
 public:
  virtual ~ValueSource() = default;
  virtual std::uint64_t size() const = 0;
  /// Whether some positions may be don't-care (else read() leaves dont_care alone).
  virtual bool has_dont_care() const = 0;
  /// Values of positions [first, first + values.size()) and, if
  /// has_dont_care(), their don't-care marks (0/1; same size). Thread-safe.
  virtual void read(std::uint64_t first, std::span<std::uint16_t> values,
                    std::span<std::uint8_t> dont_care) const = 0;
};

/// Knobs of the writer. The defaults are the smallest measured encoding whose
/// blocks decode in under 5 us (FORMAT.md, "Measurements"); larger blocks
/// trade decode time for size. The same contents and options always give the
/// same bytes.
struct WriteOptions {
  std::optional<Packing> packing;           // default: chosen from the kind and the values
  std::uint32_t positions_per_block = 0;    // default (0): kDefaultPositionsPerBlock
  int zstd_level = 0;                       // default (0): kDefaultZstdLevel
  // Embedded zstd dictionary of at most this many bytes (0: none). Default:
  // kAutoDictionaryBytes for tables of at least kAutoDictionaryMinPackedBytes
  // packed bytes, none for smaller ones (the dictionary would cost more than it saves).
  std::optional<std::uint32_t> dictionary_bytes;
  // Threads compressing blocks at once (each with its own zstd context). The
  // bytes written do not depend on it: every block is compressed on its own.
  int threads = 1;
  // If not 0: while the compressed blocks average more than this many bytes,
  // halve positions_per_block (not below kMinAdaptivePositionsPerBlock) and
  // encode again. Decode time grows with the compressed bytes, so this bounds
  // it for tables that compress poorly. The header records the size chosen.
  std::uint32_t max_average_block_bytes = 0;
  // With max_average_block_bytes: start the halving at the block size a
  // sample of blocks predicts (kSizingSamples of them at each size) instead
  // of encoding the whole table at every size on the way down. The loop
  // above still checks the whole table's average, so the bound holds; the
  // size chosen can differ from the plain loop's where the estimate errs
  // (then the bytes differ too, so tables with committed checksums keep it off).
  bool size_blocks_by_sample = false;
  // Compress with zstd's optimal parser (strategy btopt) set for blocks of a
  // few KB instead of zstd_level's parameters: 2-7 % smaller blocks for about
  // 2.5x the compression time, and no slower to decode (FORMAT.md, "Blocks").
  bool zstd_optimal_parsing = false;
  // Write the compact block table (format version 2: 6 bytes a block, not
  // 16) when every compressed block fits its 16-bit size; otherwise, and
  // when false, the wide table of version 1 (FORMAT.md, "Block table").
  bool compact_block_table = false;
};
inline constexpr std::uint32_t kMinAdaptivePositionsPerBlock = 2048;
inline constexpr std::size_t kSizingSamples = 256;
inline constexpr std::uint32_t kDefaultPositionsPerBlock = 8192;
inline constexpr int kDefaultZstdLevel = 19;
inline constexpr std::uint32_t kAutoDictionaryBytes = 4096;
inline constexpr std::size_t kAutoDictionaryMinPackedBytes = 64 * kAutoDictionaryBytes;

/// Write a table atomically: a temporary file beside `path`, fsync, rename.
/// A full disk, a failed write or an fsync error is reported, and the
/// temporary file is removed; `path` is never left half-written.
TableError write_table(const std::string& path, const TableContents& contents);
TableError write_table(const std::string& path, const TableContents& contents,
                       const WriteOptions& options);
/// The same from a ValueSource: the same values give the same bytes.
TableError write_table(const std::string& path, const Material& material, TableKind kind,
                       const ValueSource& source, const WriteOptions& options);

/// Read-only access to one table file. Opening checks the header and the
/// offset table; each block's checksum is checked whenever it is decoded.
/// All const member functions are thread-safe (no shared mutable state).
class TableReader {
 public:
  static std::unique_ptr<TableReader> open(const std::string& path, TableError* error);
  /// The same checks on a file's bytes already in memory (tests, fuzzing,
  /// tables shipped inside a program). `name` stands for the path in messages.
  static std::unique_ptr<TableReader> open_bytes(std::vector<std::uint8_t> bytes, const std::string& name,
                                                 TableError* error);
  virtual ~TableReader() = default;

  virtual const Material& material() const = 0;
  virtual TableKind kind() const = 0;
  virtual std::uint64_t positions() const = 0;
  virtual std::uint32_t positions_per_block() const = 0;  // the last block may hold fewer
  virtual std::uint64_t block_count() const = 0;
  virtual std::uint64_t file_bytes() const = 0;
  /// 1 (block table of 16 bytes a block) or 2 (compact: 6 bytes a block).
  virtual std::uint16_t format_version() const = 0;

  virtual Packing packing() const = 0;
  virtual std::uint16_t max_value() const = 0;  // largest value stored in the file
  /// Number of values in block b (positions_per_block(), or fewer for the last).
  std::uint32_t block_values(std::uint64_t b) const;
  /// Compressed size of block b in the file (0 if b is out of range).
  virtual std::uint64_t block_bytes(std::uint64_t b) const = 0;
  virtual std::uint32_t dictionary_bytes() const = 0;

  /// Decode block `b` into `out` (resized to the block's number of values).
  virtual TableError decode_block(std::uint64_t b, std::vector<std::uint16_t>& out) const = 0;

  /// Fast paths for the probe's cache, for tables whose values fit (else
  /// InvalidArgument). Same checks as decode_block.
  /// One byte per value (max_value() < 256):
  virtual TableError decode_block_bytes(std::uint64_t b, std::vector<std::uint8_t>& out) const = 0;
  /// Four values per byte, value i at bits 2*(i%4) of byte i/4, read with
  /// packed2_value() (max_value() < 4; WDL tables): the densest cache form.
  virtual TableError decode_block_packed2(std::uint64_t b, std::vector<std::uint8_t>& out) const = 0;

  /// Value at one index (decodes its block: for tools and tests, not for speed).
  TableError value_at(std::uint64_t index, std::uint16_t* value) const;

  /// Check every block's checksum (and that every block decodes).
  virtual TableError verify_all() const = 0;

  /// Stop holding the file's pages read so far in memory (MappedFile::
  /// drop_resident_pages; nothing for a reader of bytes in memory). Safe
  /// while other threads decode.
  virtual void drop_resident_pages() const noexcept = 0;

  /// How many blocks a reader of the whole file decodes between two
  /// drop_resident_pages: about 16 MiB of the file on average. Every page
  /// read stays in the resident set until its mapping goes, so without the
  /// drops, reading a 6- or 7-piece table's .mtc (hundreds of MB) would add
  /// the whole file to the process's memory, past what the memory plans
  /// allow for mapped pages.
  std::uint64_t blocks_between_page_drops() const;
};

/// Value i of a block decoded by decode_block_packed2.
inline unsigned packed2_value(const std::uint8_t* packed, std::uint32_t i) {
  return (packed[i >> 2] >> ((i & 3) * 2)) & 3u;
}

/// On-disk size and density of a table file, for `dtb stats` and `dtb info`.
struct TableFileStats {
  std::uint64_t positions = 0;
  std::uint64_t file_bytes = 0;
  double bits_per_position() const {
    return positions == 0 ? 0.0 : 8.0 * static_cast<double>(file_bytes) / static_cast<double>(positions);
  }
};
/// Opens the file (header and offset table checked) and returns its stats.
TableError table_file_stats(const std::string& path, TableFileStats* stats);

}  // namespace dtb
