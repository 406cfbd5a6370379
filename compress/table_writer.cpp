// write_table: values -> don't-care fill -> blocks -> packing -> zstd ->
// block table and checksums -> one atomic file write (FORMAT.md).
#include <xxhash.h>

#include <algorithm>
#include <atomic>
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

bool known_kind(TableKind k) {
  return k == TableKind::Wdl || k == TableKind::Dtw || k == TableKind::Rule || k == TableKind::Mtc ||
         k == TableKind::Article62;
}

bool known_packing(Packing p) { return p >= Packing::Bits2 && p <= Packing::Runs; }

// The smallest plain packing that holds the values. For WDL that is Bits2:
// after zstd it is as small as base-3 or bits8 (within 1%) and smaller than
// runs, and it decodes 4x fewer bytes than bits8 (FORMAT.md, "Measurements").
Packing default_packing(std::uint16_t max_value) {
  if (max_value < 4) return Packing::Bits2;
  if (max_value < 256) return Packing::Bits8;
  return Packing::Bits16;
}

constexpr std::uint64_t kNoIndex = ~std::uint64_t{0};

// The values of a TableContents as a ValueSource.
class SpanSource final : public ValueSource {
 public:
  explicit SpanSource(const TableContents& c) : c_(c) {}
  std::uint64_t size() const override { return c_.values.size(); }
  bool has_dont_care() const override { return !c_.dont_care.empty(); }
  void read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const override {
    std::copy_n(c_.values.begin() + static_cast<std::ptrdiff_t>(first), values.size(), values.begin());
    if (has_dont_care())
      std::copy_n(c_.dont_care.begin() + static_cast<std::ptrdiff_t>(first), dont_care.size(), dont_care.begin());
  }

 private:
  const TableContents& c_;
};

// One block's values and don't-care marks, read from the source into a
// thread's scratch buffers (all zero marks when the source has none).
struct BlockBuffer {
  std::vector<std::uint16_t> values;
  std::vector<std::uint8_t> dont_care;
  void read(const ValueSource& source, std::uint64_t first, std::size_t count) {
    values.resize(count);
    dont_care.assign(count, 0);
    source.read(first, values, dont_care);
  }
};

// What one pass over a block learns: enough to check its values, find the
// largest one stored, and give the next blocks the carry of their leading
// don't-care positions (dont_care_fill.h).
struct BlockScan {
  std::uint16_t max_cared = 0;        // largest value that matters (0 if none)
  std::uint64_t first_bad = kNoIndex;  // first WDL value > 2 that matters
  std::uint16_t bad_value = 0;
  bool any_cared = false;
  std::uint16_t first_cared = 0, last_cared = 0;
};

// The loops have no branch per position, so they vectorise: the writer runs
// them over every table of the generator (billions of positions for 6 pieces).
BlockScan scan_block(const BlockBuffer& b, std::uint64_t first, bool wdl) {
  BlockScan s;
  const std::size_t n = b.values.size();
  bool bad = false;
  for (std::size_t k = 0; k < n; ++k) {
    const bool cared = b.dont_care[k] == 0;
    s.max_cared = std::max(s.max_cared, static_cast<std::uint16_t>(cared ? b.values[k] : 0));
    bad |= (b.values[k] > 2) & cared;
  }
  const auto cared = [&](std::size_t k) { return b.dont_care[k] == 0; };
  if (wdl && bad) {
    std::size_t k = 0;
    while (!(b.values[k] > 2 && cared(k))) ++k;
    s.first_bad = first + k;
    s.bad_value = b.values[k];
  }
  std::size_t k = 0;
  while (k < n && !cared(k)) ++k;
  if (k == n) return s;
  s.any_cared = true;
  s.first_cared = b.values[k];
  k = n;
  while (!cared(k - 1)) --k;
  s.last_cared = b.values[k - 1];
  return s;
}

std::uint64_t block_count(std::uint64_t positions, std::uint32_t per_block) {
  return (positions + per_block - 1) / per_block;
}

// Scan every block of `per_block` positions, in parallel.
TableError scan_blocks(const std::string& path, const ValueSource& source, bool wdl, std::uint32_t per_block,
                       int threads, std::vector<BlockScan>& scans) {
  const std::uint64_t n = source.size();
  scans.assign(block_count(n, per_block), {});
  return for_each_block(scans.size(), threads, [&]() -> BlockJob {
    return [&, buffer = BlockBuffer()](std::size_t b) mutable -> TableError {
      const std::uint64_t first = std::uint64_t{b} * per_block;
      buffer.read(source, first, static_cast<std::size_t>(std::min<std::uint64_t>(per_block, n - first)));
      scans[b] = scan_block(buffer, first, wdl);
      return {};
    };
  }, "cannot write " + path);
}

// The carry of each block (dont_care_fill.h): the last value that matters
// before it, or for blocks before the first such value that value itself
// (all zero if nothing matters). Same result as block_carries().
std::vector<std::uint16_t> carries_of(const std::vector<BlockScan>& scans) {
  std::vector<std::uint16_t> carries(scans.size(), 0);
  const auto first = std::find_if(scans.begin(), scans.end(), [](const BlockScan& s) { return s.any_cared; });
  if (first == scans.end()) return carries;
  std::uint16_t carry = first->first_cared;
  for (std::size_t b = 0; b < scans.size(); ++b) {
    carries[b] = carry;
    if (scans[b].any_cared) carry = scans[b].last_cared;
  }
  return carries;
}

TableError check_kind_and_options(const std::string& path, TableKind kind, const WriteOptions& o) {
  if (!known_kind(kind)) return invalid(path, "unknown table kind");
  if (o.positions_per_block > layout::kMaxPositionsPerBlock)
    return invalid(path, "more than " + std::to_string(layout::kMaxPositionsPerBlock) + " positions per block");
  if (o.dictionary_bytes.value_or(0) > layout::kMaxDictionaryBytes) return invalid(path, "dictionary too large");
  if (o.packing && !known_packing(*o.packing)) return invalid(path, "unknown packing");
  return {};
}

// Packs block b of a table: its values read from the source, don't-care
// positions filled (dont_care_fill.h), laid out by the packing. One per
// thread (its scratch buffers).
class BlockPacker {
 public:
  BlockPacker(const ValueSource& source, const std::vector<std::uint16_t>& carries, Packing packing,
              std::uint32_t per_block)
      : source_(source), carries_(carries), packing_(packing), per_block_(per_block) {}
  void pack(std::size_t b, std::vector<std::uint8_t>& out) {
    const std::uint64_t first = std::uint64_t{b} * per_block_;
    buffer_.read(source_, first, static_cast<std::size_t>(std::min<std::uint64_t>(per_block_, source_.size() - first)));
    filled_.resize(buffer_.values.size());
    fill_dont_care_block(buffer_.values, buffer_.dont_care, 0, carries_[b], filled_);
    packing::pack(packing_, filled_, out);
  }

 private:
  const ValueSource& source_;
  const std::vector<std::uint16_t>& carries_;
  Packing packing_;
  std::uint32_t per_block_;
  BlockBuffer buffer_;
  std::vector<std::uint16_t> filled_;
};

// Bytes of the whole table packed: from the counts for the packings of a
// fixed size per value, by packing every block once for runs.
TableError total_packed_bytes(const std::string& path, const ValueSource& source,
                              const std::vector<std::uint16_t>& carries, Packing packing, std::uint32_t per_block,
                              int threads, std::size_t& total) {
  const std::uint64_t n = source.size();
  std::vector<std::size_t> sizes(carries.size(), 0);
  if (packing != Packing::Runs) {
    for (std::size_t b = 0; b < sizes.size(); ++b)
      sizes[b] = packing::max_packed_bytes(packing, std::min<std::uint64_t>(per_block, n - std::uint64_t{b} * per_block));
  } else if (TableError e = for_each_block(carries.size(), threads, [&]() -> BlockJob {
               return [&, packer = BlockPacker(source, carries, packing, per_block),
                       packed = std::vector<std::uint8_t>()](std::size_t b) mutable -> TableError {
                 packer.pack(b, packed);
                 sizes[b] = packed.size();
                 return {};
               };
             }, "cannot write " + path)) {
    return e;
  }
  total = 0;
  for (std::size_t s : sizes) total += s;
  return {};
}

// The dictionary of a table: trained on the blocks training_blocks() picks,
// packed (block_codec.h). Empty if none is wanted.
TableError make_dictionary(const std::string& path, const ValueSource& source,
                           const std::vector<std::uint16_t>& carries, Packing packing, std::uint32_t per_block,
                           int level, const WriteOptions& options, std::vector<std::uint8_t>& dictionary) {
  dictionary.clear();
  std::size_t packed_bytes = 0;
  if (!options.dictionary_bytes)
    if (TableError e = total_packed_bytes(path, source, carries, packing, per_block, options.threads, packed_bytes))
      return e;
  // A dictionary holds the patterns and entropy tables that the blocks of a
  // large table share: each block then need not carry its own, which makes
  // blocks both smaller and faster to decode (FORMAT.md, "Measurements").
  const std::uint32_t dictionary_bytes = options.dictionary_bytes.value_or(
      packed_bytes >= kAutoDictionaryMinPackedBytes ? kAutoDictionaryBytes : 0);
  if (dictionary_bytes == 0) return {};
  const std::vector<std::size_t> chosen = block_codec::training_blocks(carries.size());
  std::vector<std::vector<std::uint8_t>> samples(chosen.size());
  if (TableError e = for_each_block(chosen.size(), options.threads, [&]() -> BlockJob {
        return [&, packer = BlockPacker(source, carries, packing, per_block)](std::size_t k) mutable -> TableError {
          packer.pack(chosen[k], samples[k]);
          return {};
        };
      }, "cannot write " + path))
    return e;
  dictionary = block_codec::train_dictionary(samples, dictionary_bytes, level);
  return {};
}

// Pack and compress every block into frames[b], one block at a time per
// thread: only the compressed frames of the table are ever held, not its
// packed blocks (a byte a position for a 6-piece `.mtc` table: 2.3 GB).
// Each thread owns its zstd context; a block's frame depends only on its
// bytes, the zstd settings and the dictionary, so the output is the same for any
// thread count.
// Compresses `count` blocks into frames[0..count): the k-th is block
// block_of(k) of the table. All of them in order when writing; a spread
// sample when sizing blocks (sampled_block_bytes).
//
// With a `budget` (bytes), the frames stop as soon as those made exceed it,
// and `over_budget` says so (the frames are then incomplete). The halving of
// write_table uses it: once the frames made exceed max_average_block_bytes
// times the blocks, the average of them all will too, whatever the rest
// compress to, so the rest is not compressed. The choice, and the bytes, are
// those of a whole encode.
struct FrameBudget {
  std::size_t bytes = 0;  // 0: none
  bool over = false;      // set when the frames exceeded it
};

template <class BlockOf>
TableError compress_block_list(const std::string& path, const ValueSource& source,
                               const std::vector<std::uint16_t>& carries, Packing packing, std::uint32_t per_block,
                               int level, std::span<const std::uint8_t> dictionary, const WriteOptions& options,
                               std::size_t count, BlockOf block_of, std::vector<std::vector<std::uint8_t>>& frames,
                               FrameBudget* budget = nullptr) {
  frames.assign(count, {});
  std::atomic<std::size_t> made{0};
  // An error stops every thread; this one is taken back below (unless a
  // real error came first).
  const std::string over_budget = "cannot write " + path + ": over the frame budget";
  TableError e = for_each_block(count, options.threads, [&]() -> BlockJob {
    auto compressor = std::make_shared<block_codec::Compressor>(level, dictionary, options.zstd_optimal_parsing);
    return [&, compressor, packer = BlockPacker(source, carries, packing, per_block),
            packed = std::vector<std::uint8_t>(), frame = std::vector<std::uint8_t>(),
            message = std::string()](std::size_t k) mutable -> TableError {
      if (!compressor->ok()) return {TableStatus::OutOfMemory, "cannot write " + path + ": zstd context"};
      const std::size_t b = block_of(k);
      packer.pack(b, packed);
      if (!compressor->compress(packed, frame, &message))
        return {TableStatus::IoError, "cannot write " + path + ": block " + std::to_string(b) + ": " + message};
      frames[k].assign(frame.begin(), frame.end());  // exactly its size: `frame` keeps zstd's bound
      if (budget && budget->bytes != 0 &&
          made.fetch_add(frame.size(), std::memory_order_relaxed) + frame.size() > budget->bytes)
        return {TableStatus::InvalidArgument, over_budget};
      return {};
    };
  }, "cannot write " + path);
  if (budget && e.status == TableStatus::InvalidArgument && e.message == over_budget) {
    budget->over = true;
    return {};
  }
  return e;
}

TableError compress_blocks(const std::string& path, const ValueSource& source,
                           const std::vector<std::uint16_t>& carries, Packing packing, std::uint32_t per_block,
                           int level, std::span<const std::uint8_t> dictionary, const WriteOptions& options,
                           std::vector<std::vector<std::uint8_t>>& frames, FrameBudget* budget) {
  return compress_block_list(path, source, carries, packing, per_block, level, dictionary, options, carries.size(),
                             [](std::size_t k) { return k; }, frames, budget);
}

std::array<std::uint8_t, 64> make_header(std::uint16_t version, const Material& material, TableKind kind,
                                         std::uint64_t positions,
                                         Packing packing, std::uint16_t max_value,
                                         std::uint32_t per_block, std::uint64_t blocks,
                                         std::uint32_t dictionary_bytes, std::uint64_t table_checksum) {
  std::array<std::uint8_t, 64> bytes{};
  auto& h = *reinterpret_cast<layout::RawHeader*>(bytes.data());  // all-byte struct: no aliasing issue
  std::copy(std::begin(layout::kMagic), std::end(layout::kMagic), h.magic);
  le::store<std::uint16_t>(h.format_version, version);
  h.kind = static_cast<std::uint8_t>(kind);
  h.packing = static_cast<std::uint8_t>(packing);
  h.material[0] = material.white_kings;
  h.material[1] = material.white_men;
  h.material[2] = material.black_kings;
  h.material[3] = material.black_men;
  le::store<std::uint16_t>(h.index_scheme_version, kIndexSchemeVersion);
  le::store<std::uint16_t>(h.max_value, max_value);
  le::store<std::uint32_t>(h.positions_per_block, per_block);
  le::store<std::uint64_t>(h.positions, positions);
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
  std::size_t largest_frame() const {
    std::size_t n = 0;
    for (const auto& f : frames) n = std::max(n, f.size());
    return n;
  }
};

// Whether to try again with half the block size: the blocks average more
// than max_average_block_bytes, and half is not below the smallest size.
bool may_halve_block_size(const WriteOptions& options, std::uint32_t per_block) {
  return options.max_average_block_bytes != 0 && per_block / 2 >= kMinAdaptivePositionsPerBlock;
}
bool halve_block_size(const WriteOptions& options, std::uint32_t per_block, std::size_t blocks,
                      std::size_t frame_bytes) {
  return may_halve_block_size(options, per_block) && blocks != 0 &&
         frame_bytes > options.max_average_block_bytes * blocks;
}

// Block table of format version 1: per block, the end of its bytes (u64)
// and its XXH3-64 seeded with the block number.
std::vector<std::uint8_t> wide_block_table(const std::vector<std::vector<std::uint8_t>>& frames) {
  std::vector<std::uint8_t> table(frames.size() * sizeof(layout::RawBlockEntry));
  std::uint64_t end = 0;
  for (std::size_t b = 0; b < frames.size(); ++b) {
    end += frames[b].size();
    // Seeding with the block number makes a block copied to the wrong slot fail its check.
    auto& entry = reinterpret_cast<layout::RawBlockEntry*>(table.data())[b];
    le::store<std::uint64_t>(entry.end, end);
    le::store<std::uint64_t>(entry.checksum, XXH3_64bits_withSeed(frames[b].data(), frames[b].size(), b));
  }
  return table;
}

// Block table of format version 2: per block, its size (u16) and the low
// 32 bits of the same seeded XXH3-64. Every frame fits 16 bits (checked by
// the caller).
std::vector<std::uint8_t> compact_block_table(const std::vector<std::vector<std::uint8_t>>& frames) {
  std::vector<std::uint8_t> table(frames.size() * sizeof(layout::RawCompactBlockEntry));
  for (std::size_t b = 0; b < frames.size(); ++b) {
    auto& entry = reinterpret_cast<layout::RawCompactBlockEntry*>(table.data())[b];
    le::store<std::uint16_t>(entry.size, static_cast<std::uint16_t>(frames[b].size()));
    le::store<std::uint32_t>(entry.checksum, static_cast<std::uint32_t>(
                                                 XXH3_64bits_withSeed(frames[b].data(), frames[b].size(), b)));
  }
  return table;
}

TableError encode_blocks(const std::string& path, const ValueSource& source, const std::vector<BlockScan>& scans,
                         Packing packing, std::uint32_t per_block, int level, const WriteOptions& options,
                         EncodedBlocks& out, FrameBudget* budget = nullptr) {
  const std::vector<std::uint16_t> carries = carries_of(scans);
  if (TableError e = make_dictionary(path, source, carries, packing, per_block, level, options, out.dictionary))
    return e;
  return compress_blocks(path, source, carries, packing, per_block, level, out.dictionary, options,
                         out.frames, budget);
}

// The average compressed block at block size per_block, estimated from
// kSizingSamples blocks spread over the table (between the dictionary's
// training blocks, which it would flatter), compressed with the dictionary
// trained at that size.
TableError sampled_block_bytes(const std::string& path, const ValueSource& source, Packing packing,
                               std::uint32_t per_block, int level, const WriteOptions& options, double& average) {
  std::vector<BlockScan> scans;
  if (TableError e = scan_blocks(path, source, false, per_block, options.threads, scans)) return e;
  const std::vector<std::uint16_t> carries = carries_of(scans);
  std::vector<std::uint8_t> dictionary;
  if (TableError e = make_dictionary(path, source, carries, packing, per_block, level, options, dictionary)) return e;
  const std::size_t blocks = carries.size(), take = std::min(blocks, kSizingSamples);
  std::vector<std::vector<std::uint8_t>> frames;
  if (TableError e = compress_block_list(path, source, carries, packing, per_block, level, dictionary, options, take,
                                         [&](std::size_t k) { return (2 * k + 1) * blocks / (2 * take); }, frames))
    return e;
  std::size_t total = 0;
  for (const auto& f : frames) total += f.size();
  average = take ? static_cast<double>(total) / static_cast<double>(take) : 0.0;
  return {};
}

// The block size to encode the whole table at first (WriteOptions::
// size_blocks_by_sample): the largest, halving from per_block, whose sampled
// average meets max_average_block_bytes. Only where a sample is much smaller
// than the table; the halving loop of write_table still checks the real
// average, so a low estimate costs a pass and never the bound.
TableError first_block_size(const std::string& path, const ValueSource& source, Packing packing, int level,
                            const WriteOptions& options, std::uint32_t& per_block) {
  while (per_block / 2 >= kMinAdaptivePositionsPerBlock &&
         block_count(source.size(), per_block) >= 4 * kSizingSamples) {
    double average = 0;
    if (TableError e = sampled_block_bytes(path, source, packing, per_block, level, options, average)) return e;
    if (average <= options.max_average_block_bytes) break;
    per_block /= 2;
  }
  return {};
}

}  // namespace

TableError write_table(const std::string& path, const TableContents& contents) {
  return write_table(path, contents, WriteOptions{});
}

TableError write_table(const std::string& path, const TableContents& contents, const WriteOptions& options) {
  if (!contents.dont_care.empty() && contents.dont_care.size() != contents.values.size())
    return invalid(path, "dont_care has " + std::to_string(contents.dont_care.size()) + " entries for " +
                             std::to_string(contents.values.size()) + " values");
  return write_table(path, contents.material, contents.kind, SpanSource(contents), options);
}

TableError write_table(const std::string& path, const Material& material, TableKind kind,
                       const ValueSource& source, const WriteOptions& options) {
  if (TableError e = check_kind_and_options(path, kind, options)) return e;
  std::uint32_t per_block = options.positions_per_block ? options.positions_per_block : kDefaultPositionsPerBlock;
  const int level = options.zstd_level ? options.zstd_level : kDefaultZstdLevel;

  std::vector<BlockScan> scans;
  if (TableError e = scan_blocks(path, source, kind == TableKind::Wdl, per_block, options.threads, scans)) return e;
  std::uint16_t max_value = 0;  // the largest value stored: don't-care positions take copies of cared ones
  for (const BlockScan& s : scans) {
    if (s.first_bad != kNoIndex)
      return invalid(path, "WDL value " + std::to_string(s.bad_value) + " at index " + std::to_string(s.first_bad));
    max_value = std::max(max_value, s.max_cared);
  }
  const Packing packing = options.packing.value_or(default_packing(max_value));
  if (!packing::can_hold(packing, max_value))
    return invalid(path, std::string("packing ") + packing_name(packing) + " cannot hold value " +
                             std::to_string(max_value));

  // Decoding a block costs about 1.5 us plus 4.5 ns per compressed byte, so
  // a table that compresses poorly gets smaller blocks (FORMAT.md, "Block size").
  EncodedBlocks encoded;
  if (options.size_blocks_by_sample && options.max_average_block_bytes != 0) {
    const std::uint32_t first = per_block;
    if (TableError e = first_block_size(path, source, packing, level, options, per_block)) return e;
    if (per_block != first)
      if (TableError e = scan_blocks(path, source, false, per_block, options.threads, scans)) return e;
  }
  for (;;) {
    // An encode that halving may replace stops once it is sure to be (FrameBudget).
    FrameBudget budget;
    if (may_halve_block_size(options, per_block)) budget.bytes = options.max_average_block_bytes * scans.size();
    if (TableError e = encode_blocks(path, source, scans, packing, per_block, level, options, encoded, &budget))
      return e;
    if (!budget.over && !halve_block_size(options, per_block, encoded.frames.size(), encoded.frame_bytes())) break;
    per_block /= 2;
    if (TableError e = scan_blocks(path, source, false, per_block, options.threads, scans)) return e;
  }
  const bool compact = options.compact_block_table && encoded.largest_frame() <= layout::kMaxCompactBlockBytes;
  const std::vector<std::uint8_t> table = compact ? compact_block_table(encoded.frames)
                                                  : wide_block_table(encoded.frames);
  std::vector<std::uint8_t> data;
  data.reserve(encoded.frame_bytes());  // growing by doubling would hold up to twice the frames, and copy them
  for (auto& frame : encoded.frames) {
    data.insert(data.end(), frame.begin(), frame.end());
    frame = {};
  }
  const std::vector<std::uint8_t>& dictionary = encoded.dictionary;
  const std::uint64_t blocks = encoded.frames.size();

  // The dictionary follows the block table and shares its checksum.
  XXH3_state_t* state = XXH3_createState();
  if (!state) return {TableStatus::OutOfMemory, "cannot write " + path + ": XXH3 state"};
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, table.data(), table.size());
  XXH3_64bits_update(state, dictionary.data(), dictionary.size());
  const std::uint64_t table_checksum = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  const auto header = make_header(compact ? layout::kCompactFormatVersion : layout::kFormatVersion, material, kind,
                                  source.size(), packing, max_value, per_block, blocks,
                                  static_cast<std::uint32_t>(dictionary.size()), table_checksum);
  const std::array<std::span<const std::uint8_t>, 4> parts = {
      std::span<const std::uint8_t>(header), std::span<const std::uint8_t>(table),
      std::span<const std::uint8_t>(dictionary), std::span<const std::uint8_t>(data)};
  return write_file_atomically(path, parts);
}

}  // namespace dtb
