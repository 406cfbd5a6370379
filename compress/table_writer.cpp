// write_table: values -> don't-care fill -> blocks -> packing -> zstd ->
// block table and checksums -> one atomic file write (FORMAT.md).
#include <xxhash.h>

#include <algorithm>
#include <array>
#include <memory>

#include "compress/atomic_file.h"
#include "compress/block_codec.h"
#include "compress/dont_care_fill.h"
#include "compress/file_layout.h"
#include "compress/little_endian.h"
#include "compress/packing.h"
#include "compress/parallel_blocks.h"
#include "compress/table_file.h"

namespace dtb {
namespace {

TableError invalid(const std::string& path, const std::string& what) {
  return {TableStatus::InvalidArgument, "cannot write " + path + ": " + what};
}

bool known_kind(TableKind k) { return k == TableKind::Wdl || k == TableKind::Dtw || k == TableKind::Rule; }

bool known_packing(Packing p) { return p >= Packing::Bits2 && p <= Packing::Runs; }

// The smallest plain packing that holds the values. For WDL that is Bits2:
// after zstd it is as small as base-3 or bits8 (within 1%) and smaller than
// runs, and it decodes 4x fewer bytes than bits8 (FORMAT.md, "Measurements").
Packing default_packing(std::uint16_t max_value) {
  if (max_value < 4) return Packing::Bits2;
  if (max_value < 256) return Packing::Bits8;
  return Packing::Bits16;
}

// Whether position i holds a value that matters.
bool cared(const TableContents& c, std::size_t i) { return c.dont_care.empty() || !c.dont_care[i]; }

// The first WDL value out of range (> 2) that matters, or n. The scan has no
// branch per position, so it vectorises: the writer runs it over every table
// of the generator (hundreds of millions of positions) on one thread.
std::size_t first_bad_wdl(const TableContents& c) {
  const std::size_t n = c.values.size();
  bool bad = false;
  if (c.dont_care.empty()) {
    for (std::size_t i = 0; i < n; ++i) bad |= c.values[i] > 2;
  } else {
    for (std::size_t i = 0; i < n; ++i) bad |= (c.values[i] > 2) & (c.dont_care[i] == 0);
  }
  if (!bad) return n;
  std::size_t i = 0;
  while (!(c.values[i] > 2 && cared(c, i))) ++i;
  return i;
}

TableError check_contents(const std::string& path, const TableContents& c, const WriteOptions& o) {
  if (!known_kind(c.kind)) return invalid(path, "unknown table kind");
  if (!c.dont_care.empty() && c.dont_care.size() != c.values.size())
    return invalid(path, "dont_care has " + std::to_string(c.dont_care.size()) + " entries for " +
                             std::to_string(c.values.size()) + " values");
  if (c.kind == TableKind::Wdl)
    if (const std::size_t i = first_bad_wdl(c); i < c.values.size())
      return invalid(path, "WDL value " + std::to_string(c.values[i]) + " at index " + std::to_string(i));
  if (o.positions_per_block > layout::kMaxPositionsPerBlock)
    return invalid(path, "more than " + std::to_string(layout::kMaxPositionsPerBlock) + " positions per block");
  if (o.dictionary_bytes.value_or(0) > layout::kMaxDictionaryBytes) return invalid(path, "dictionary too large");
  if (o.packing && !known_packing(*o.packing)) return invalid(path, "unknown packing");
  return {};
}

// Every block's stored values (don't-care positions filled), packed: one
// buffer per block, filled in parallel.
TableError pack_blocks(const std::string& path, const TableContents& c, Packing packing, std::uint32_t per_block,
                       int threads, std::vector<std::vector<std::uint8_t>>& packed) {
  const std::size_t n = c.values.size();
  const std::vector<std::uint16_t> carries = block_carries(c.values, c.dont_care, per_block);
  packed.assign(carries.size(), {});
  return for_each_block(carries.size(), threads, [&]() -> BlockJob {
    return [&, filled = std::vector<std::uint16_t>()](std::size_t b) mutable -> TableError {
      const std::size_t first = b * per_block;
      filled.resize(std::min<std::size_t>(per_block, n - first));
      fill_dont_care_block(c.values, c.dont_care, first, carries[b], filled);
      packing::pack(packing, filled, packed[b]);
      return {};
    };
  }, "cannot write " + path);
}

// Compress every packed block into frames[b]. Each thread owns its zstd
// context; a block's frame depends only on its bytes, the level and the
// dictionary, so the output is the same for any thread count.
TableError compress_blocks(const std::string& path, const std::vector<std::vector<std::uint8_t>>& packed,
                           int level, std::span<const std::uint8_t> dictionary, int threads,
                           std::vector<std::vector<std::uint8_t>>& frames) {
  frames.assign(packed.size(), {});
  return for_each_block(packed.size(), threads, [&]() -> BlockJob {
    auto compressor = std::make_shared<block_codec::Compressor>(level, dictionary);
    return [&, compressor, message = std::string()](std::size_t b) mutable -> TableError {
      if (!compressor->ok()) return {TableStatus::OutOfMemory, "cannot write " + path + ": zstd context"};
      if (!compressor->compress(packed[b], frames[b], &message))
        return {TableStatus::IoError, "cannot write " + path + ": block " + std::to_string(b) + ": " + message};
      return {};
    };
  }, "cannot write " + path);
}

// The largest value stored: the largest that matters (don't-care positions
// take copies of those, or 0 when nothing matters). Branch-free, so that it
// vectorises (as first_bad_wdl).
std::uint16_t max_stored_value(const TableContents& c) {
  std::uint16_t max = 0;
  if (c.dont_care.empty()) {
    for (const std::uint16_t v : c.values) max = std::max(max, v);
  } else {
    for (std::size_t i = 0; i < c.values.size(); ++i)
      max = std::max(max, static_cast<std::uint16_t>(c.dont_care[i] ? 0 : c.values[i]));
  }
  return max;
}

std::array<std::uint8_t, 64> make_header(const TableContents& c, Packing packing, std::uint16_t max_value,
                                         std::uint32_t per_block, std::uint64_t blocks,
                                         std::uint32_t dictionary_bytes, std::uint64_t table_checksum) {
  std::array<std::uint8_t, 64> bytes{};
  auto& h = *reinterpret_cast<layout::RawHeader*>(bytes.data());  // all-byte struct: no aliasing issue
  std::copy(std::begin(layout::kMagic), std::end(layout::kMagic), h.magic);
  le::store<std::uint16_t>(h.format_version, layout::kFormatVersion);
  h.kind = static_cast<std::uint8_t>(c.kind);
  h.packing = static_cast<std::uint8_t>(packing);
  h.material[0] = c.material.white_kings;
  h.material[1] = c.material.white_men;
  h.material[2] = c.material.black_kings;
  h.material[3] = c.material.black_men;
  le::store<std::uint16_t>(h.index_scheme_version, kIndexSchemeVersion);
  le::store<std::uint16_t>(h.max_value, max_value);
  le::store<std::uint32_t>(h.positions_per_block, per_block);
  le::store<std::uint64_t>(h.positions, c.values.size());
  le::store<std::uint64_t>(h.block_count, blocks);
  le::store<std::uint32_t>(h.dictionary_bytes, dictionary_bytes);
  le::store<std::uint64_t>(h.table_checksum, table_checksum);
  le::store<std::uint64_t>(h.header_checksum, XXH3_64bits(bytes.data(), layout::kHeaderChecksummedBytes));
  return bytes;
}

// The blocks of a table at one block size: packed, a dictionary if wanted,
// compressed.
struct EncodedBlocks {
  std::vector<std::uint8_t> dictionary;
  std::vector<std::vector<std::uint8_t>> frames;
  std::size_t frame_bytes() const {
    std::size_t n = 0;
    for (const auto& f : frames) n += f.size();
    return n;
  }
};

TableError encode_blocks(const std::string& path, const TableContents& contents, Packing packing,
                         std::uint32_t per_block, int level, const WriteOptions& options, EncodedBlocks& out) {
  std::vector<std::vector<std::uint8_t>> packed;
  if (TableError e = pack_blocks(path, contents, packing, per_block, options.threads, packed)) return e;
  std::size_t packed_bytes = 0;
  for (const auto& block : packed) packed_bytes += block.size();
  // A dictionary holds the patterns and entropy tables that the blocks of a
  // large table share: each block then need not carry its own, which makes
  // blocks both smaller and faster to decode (FORMAT.md, "Measurements").
  const std::uint32_t dictionary_bytes = options.dictionary_bytes.value_or(
      packed_bytes >= kAutoDictionaryMinPackedBytes ? kAutoDictionaryBytes : 0);
  out.dictionary.clear();
  if (dictionary_bytes > 0) out.dictionary = block_codec::train_dictionary(packed, dictionary_bytes, level);
  return compress_blocks(path, packed, level, out.dictionary, options.threads, out.frames);
}

}  // namespace

TableError write_table(const std::string& path, const TableContents& contents) {
  return write_table(path, contents, WriteOptions{});
}

TableError write_table(const std::string& path, const TableContents& contents, const WriteOptions& options) {
  if (TableError e = check_contents(path, contents, options)) return e;
  std::uint32_t per_block = options.positions_per_block ? options.positions_per_block : kDefaultPositionsPerBlock;
  const int level = options.zstd_level ? options.zstd_level : kDefaultZstdLevel;

  const std::uint16_t max_value = max_stored_value(contents);
  const Packing packing = options.packing.value_or(default_packing(max_value));
  if (!packing::can_hold(packing, max_value))
    return invalid(path, std::string("packing ") + packing_name(packing) + " cannot hold value " +
                             std::to_string(max_value));

  // Decoding a block costs about 1.5 us plus 4.5 ns per compressed byte, so
  // a table that compresses poorly gets smaller blocks (FORMAT.md, "Block size").
  EncodedBlocks encoded;
  for (;;) {
    if (TableError e = encode_blocks(path, contents, packing, per_block, level, options, encoded)) return e;
    const std::size_t blocks = encoded.frames.size();
    if (options.max_average_block_bytes == 0 || blocks == 0 || per_block / 2 < kMinAdaptivePositionsPerBlock ||
        encoded.frame_bytes() <= options.max_average_block_bytes * blocks)
      break;
    per_block /= 2;
  }
  std::vector<std::uint8_t>& dictionary = encoded.dictionary;
  std::vector<std::vector<std::uint8_t>>& frames = encoded.frames;
  std::vector<std::uint8_t> table(frames.size() * sizeof(layout::RawBlockEntry));
  std::vector<std::uint8_t> data;
  for (std::size_t b = 0; b < frames.size(); ++b) {
    data.insert(data.end(), frames[b].begin(), frames[b].end());
    // Seeding with the block number makes a block copied to the wrong slot fail its check.
    auto& entry = reinterpret_cast<layout::RawBlockEntry*>(table.data())[b];
    le::store<std::uint64_t>(entry.end, data.size());
    le::store<std::uint64_t>(entry.checksum, XXH3_64bits_withSeed(frames[b].data(), frames[b].size(), b));
    frames[b] = {};
  }

  // The dictionary follows the block table and shares its checksum.
  table.insert(table.end(), dictionary.begin(), dictionary.end());
  const auto header = make_header(contents, packing, max_value, per_block, frames.size(),
                                  static_cast<std::uint32_t>(dictionary.size()),
                                  XXH3_64bits(table.data(), table.size()));
  const std::array<std::span<const std::uint8_t>, 3> parts = {
      std::span<const std::uint8_t>(header), std::span<const std::uint8_t>(table),
      std::span<const std::uint8_t>(data)};
  return write_file_atomically(path, parts);
}

}  // namespace dtb
