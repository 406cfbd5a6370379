// TableReader over a memory-mapped file (or bytes in memory): checks the header and the block
// table once on open, each block's checksum on every decode (FORMAT.md,
// "Reading"). Everything after open() is const and touches no shared mutable
// state, so any number of threads may decode blocks of one reader at once.
#include <xxhash.h>

#include <algorithm>
#include <cstring>

#include "compress/block_codec.h"
#include "compress/file_layout.h"
#include "compress/little_endian.h"
#include "compress/mapped_file.h"
#include "compress/packing.h"
#include "compress/table_file.h"

namespace dtb {
namespace {

std::string hex(std::uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(v));
  return buf;
}

struct Header {
  TableKind kind{};
  Packing packing{};
  Material material;
  std::uint16_t max_value = 0;
  std::uint32_t per_block = 0;
  std::uint64_t positions = 0, blocks = 0;
  std::uint32_t dictionary_bytes = 0;
  std::uint64_t table_checksum = 0;
  bool compact = false;  // format version 2: RawCompactBlockEntry
};

// Header checks in the order that gives the most precise error: a file that
// is not a table at all (magic), one from another format version (whose
// layout may differ, so its checksum cannot be checked), damage (checksum),
// then fields that cannot be right.
TableError parse_header(const std::string& path, std::span<const std::uint8_t> file, Header* out) {
  const std::size_t magic_seen = std::min(file.size(), sizeof layout::kMagic);
  if (!std::equal(file.begin(), file.begin() + static_cast<std::ptrdiff_t>(magic_seen), layout::kMagic))
    return {TableStatus::BadMagic, path + ": not a draughts-tb table (wrong magic)"};
  if (file.size() < sizeof(layout::RawHeader))
    return {TableStatus::Truncated, path + ": truncated: " + std::to_string(file.size()) +
                                        " bytes, shorter than the 64-byte header"};
  const auto& h = *reinterpret_cast<const layout::RawHeader*>(file.data());
  const auto version = le::load<std::uint16_t>(h.format_version);
  if (version != layout::kFormatVersion && version != layout::kCompactFormatVersion)
    return {TableStatus::BadVersion, path + ": format version " + std::to_string(version) +
                                         ", this build reads versions " + std::to_string(layout::kFormatVersion) +
                                         " and " + std::to_string(layout::kCompactFormatVersion)};
  const auto stored = le::load<std::uint64_t>(h.header_checksum);
  const auto computed = XXH3_64bits(file.data(), layout::kHeaderChecksummedBytes);
  if (stored != computed)
    return {TableStatus::BadHeader, path + ": header checksum mismatch (stored " + hex(stored) + ", computed " +
                                        hex(computed) + ")"};
  const auto scheme = le::load<std::uint16_t>(h.index_scheme_version);
  if (scheme != kIndexSchemeVersion)
    return {TableStatus::BadVersion, path + ": index scheme " + std::to_string(scheme) +
                                         ", this build uses scheme " + std::to_string(kIndexSchemeVersion)};

  Header r;
  r.compact = version == layout::kCompactFormatVersion;
  r.kind = static_cast<TableKind>(h.kind);
  r.packing = static_cast<Packing>(h.packing);
  r.material = Material{h.material[0], h.material[1], h.material[2], h.material[3]};
  r.max_value = le::load<std::uint16_t>(h.max_value);
  r.per_block = le::load<std::uint32_t>(h.positions_per_block);
  r.positions = le::load<std::uint64_t>(h.positions);
  r.blocks = le::load<std::uint64_t>(h.block_count);
  r.dictionary_bytes = le::load<std::uint32_t>(h.dictionary_bytes);
  r.table_checksum = le::load<std::uint64_t>(h.table_checksum);
  const auto bad = [&](const std::string& what) { return TableError{TableStatus::BadHeader, path + ": " + what}; };
  if (r.kind != TableKind::Wdl && r.kind != TableKind::Dtw && r.kind != TableKind::Rule && r.kind != TableKind::Mtc &&
      r.kind != TableKind::Article62)
    return bad("unknown table kind " + std::to_string(h.kind));
  if (r.packing < Packing::Bits2 || r.packing > Packing::Runs)
    return bad("unknown packing " + std::to_string(h.packing));
  if (!packing::can_hold(r.packing, r.max_value) || (r.kind == TableKind::Wdl && r.max_value > 2))
    return bad("maximum value " + std::to_string(r.max_value) + " impossible for its kind or packing");
  if (r.per_block == 0 || r.per_block > layout::kMaxPositionsPerBlock)
    return bad("invalid block size " + std::to_string(r.per_block));
  // ceil(positions / per_block), written so that it cannot wrap: positions
  // + per_block - 1 does for a count near 2^64, and then 0 blocks passed.
  if (r.blocks != r.positions / r.per_block + (r.positions % r.per_block != 0))
    return bad(std::to_string(r.blocks) + " blocks cannot hold " + std::to_string(r.positions) + " positions");
  if (r.dictionary_bytes > layout::kMaxDictionaryBytes) return bad("dictionary size out of range");
  if (h.reserved[0] | h.reserved[1] | h.reserved[2] | h.reserved[3]) return bad("reserved bytes not zero");
  *out = r;
  return {};
}

class MappedTableReader final : public TableReader {
 public:
  /// `file` maps the table, or is null and `owned` holds its bytes.
  static std::unique_ptr<TableReader> open(const std::string& path, std::unique_ptr<MappedFile> file,
                                           std::vector<std::uint8_t> owned, TableError* error);

  const Material& material() const override { return h_.material; }
  TableKind kind() const override { return h_.kind; }
  std::uint64_t positions() const override { return h_.positions; }
  std::uint32_t positions_per_block() const override { return h_.per_block; }
  std::uint64_t block_count() const override { return h_.blocks; }
  std::uint64_t file_bytes() const override { return bytes_.size(); }
  std::uint16_t format_version() const override {
    return h_.compact ? layout::kCompactFormatVersion : layout::kFormatVersion;
  }
  Packing packing() const override { return h_.packing; }
  std::uint16_t max_value() const override { return h_.max_value; }
  std::uint32_t dictionary_bytes() const override { return h_.dictionary_bytes; }
  std::uint64_t block_bytes(std::uint64_t b) const override {
    if (b >= h_.blocks) return 0;
    const std::uint64_t begin = block_begin(b);
    return block_end(b, begin) - begin;
  }

  TableError decode_block(std::uint64_t b, std::vector<std::uint16_t>& out) const override;
  TableError decode_block_bytes(std::uint64_t b, std::vector<std::uint8_t>& out) const override;
  TableError decode_block_packed2(std::uint64_t b, std::vector<std::uint8_t>& out) const override;
  TableError verify_all() const override;
  void drop_resident_pages() const noexcept override {
    if (file_) file_->drop_resident_pages();
  }

 private:
  TableError read_block_table();
  TableError read_compact_block_table(const std::uint8_t* table, std::uint64_t& total);
  // Block b's bytes are [data_ + block_begin(b), data_ + block_end(b, block_begin(b))).
  std::uint64_t block_begin(std::uint64_t b) const {
    if (!h_.compact) return b == 0 ? 0 : le::load<std::uint64_t>(entries_[b - 1].end);
    std::uint64_t begin = group_begin_[b / layout::kCompactGroupBlocks];
    for (std::uint64_t k = b - b % layout::kCompactGroupBlocks; k < b; ++k)
      begin += le::load<std::uint16_t>(compact_[k].size);
    return begin;
  }
  std::uint64_t block_end(std::uint64_t b, std::uint64_t begin) const {
    return h_.compact ? begin + le::load<std::uint16_t>(compact_[b].size) : le::load<std::uint64_t>(entries_[b].end);
  }
  std::uint64_t stored_checksum(std::uint64_t b) const {
    return h_.compact ? le::load<std::uint32_t>(compact_[b].checksum) : le::load<std::uint64_t>(entries_[b].checksum);
  }
  /// Checksum, then zstd: the packed bytes of block b into `packed` (resized).
  TableError decompress_block(std::uint64_t b, std::vector<std::uint8_t>& packed) const;
  template <typename T>
  TableError decode_values(std::uint64_t b, std::vector<T>& out) const;
  TableError block_error(TableStatus s, std::uint64_t b, const std::string& what) const {
    return {s, path_ + ": block " + std::to_string(b) + " of " + std::to_string(h_.blocks) + ": " + what};
  }

  std::string path_;
  std::unique_ptr<MappedFile> file_;
  std::vector<std::uint8_t> owned_;
  std::span<const std::uint8_t> bytes_;  // the whole file, from file_ or owned_
  Header h_;
  const layout::RawBlockEntry* entries_ = nullptr;          // version 1
  const layout::RawCompactBlockEntry* compact_ = nullptr;  // version 2
  std::vector<std::uint64_t> group_begin_;  // version 2: offset of every kCompactGroupBlocks-th block
  const std::uint8_t* data_ = nullptr;  // first byte of block 0
  std::unique_ptr<block_codec::DecompressionDictionary> dictionary_;
};

std::unique_ptr<TableReader> MappedTableReader::open(const std::string& path, std::unique_ptr<MappedFile> file,
                                                     std::vector<std::uint8_t> owned, TableError* error) {
  std::unique_ptr<MappedTableReader> r(new MappedTableReader);
  r->path_ = path;
  r->file_ = std::move(file);
  r->owned_ = std::move(owned);
  r->bytes_ = r->file_ ? r->file_->bytes() : std::span<const std::uint8_t>(r->owned_);
  if ((*error = parse_header(path, r->bytes_, &r->h_))) return nullptr;
  if ((*error = r->read_block_table())) return nullptr;
  return r;
}

TableError MappedTableReader::read_block_table() {
  const auto file = bytes_;
  // Sizes come from a header whose checksum matched, and are bounded: no overflow.
  const std::uint64_t entry_bytes = h_.compact ? sizeof(layout::RawCompactBlockEntry) : sizeof(layout::RawBlockEntry);
  const std::uint64_t table_bytes = h_.blocks * entry_bytes;
  const std::uint64_t data_start = sizeof(layout::RawHeader) + table_bytes + h_.dictionary_bytes;
  if (h_.blocks > file.size() || file.size() < data_start)
    return {TableStatus::Truncated, path_ + ": truncated: " + std::to_string(file.size()) +
                                        " bytes, the header and block table need more"};
  const std::uint8_t* table = file.data() + sizeof(layout::RawHeader);
  const std::uint64_t checksum = XXH3_64bits(table, table_bytes + h_.dictionary_bytes);
  if (checksum != h_.table_checksum)
    return {TableStatus::ChecksumMismatch, path_ + ": block table checksum mismatch (stored " +
                                               hex(h_.table_checksum) + ", computed " + hex(checksum) + ")"};
  data_ = file.data() + data_start;
  std::uint64_t total = 0;  // bytes of all blocks
  if (h_.compact) {
    if (TableError e = read_compact_block_table(table, total)) return e;
  } else {
    entries_ = reinterpret_cast<const layout::RawBlockEntry*>(table);
    for (std::uint64_t b = 0; b < h_.blocks; ++b) {
      const auto end = le::load<std::uint64_t>(entries_[b].end);
      if (end <= total) return {TableStatus::BadHeader, path_ + ": block " + std::to_string(b) + " is empty or out of order"};
      total = end;
    }
  }
  const std::uint64_t data_bytes = file.size() - data_start;
  if (total > data_bytes)
    return {TableStatus::Truncated, path_ + ": truncated: " + std::to_string(file.size()) + " bytes, expected " +
                                        std::to_string(data_start + total)};
  if (total < data_bytes)
    return {TableStatus::BadHeader, path_ + ": " + std::to_string(data_bytes - total) +
                                        " unexpected bytes after the last block"};
  if (h_.dictionary_bytes > 0) {
    dictionary_ = std::make_unique<block_codec::DecompressionDictionary>(
        std::span<const std::uint8_t>(table + table_bytes, h_.dictionary_bytes));
    if (!dictionary_->ok()) return {TableStatus::DecodeError, path_ + ": invalid zstd dictionary"};
  }
  return {};
}

// Version 2 stores sizes, not ends: sum them once, keeping the offset of
// every kCompactGroupBlocks-th block, so a decode adds at most 63 sizes.
TableError MappedTableReader::read_compact_block_table(const std::uint8_t* table, std::uint64_t& total) {
  compact_ = reinterpret_cast<const layout::RawCompactBlockEntry*>(table);
  try {
    group_begin_.resize((h_.blocks + layout::kCompactGroupBlocks - 1) / layout::kCompactGroupBlocks);
  } catch (const std::bad_alloc&) {
    return {TableStatus::OutOfMemory, path_ + ": out of memory reading the block table"};
  }
  total = 0;
  for (std::uint64_t b = 0; b < h_.blocks; ++b) {
    if (b % layout::kCompactGroupBlocks == 0) group_begin_[b / layout::kCompactGroupBlocks] = total;
    const auto size = le::load<std::uint16_t>(compact_[b].size);
    if (size == 0) return {TableStatus::BadHeader, path_ + ": block " + std::to_string(b) + " is empty"};
    total += size;
  }
  return {};
}

TableError MappedTableReader::decompress_block(std::uint64_t b, std::vector<std::uint8_t>& packed) const {
  if (b >= h_.blocks)
    return {TableStatus::InvalidArgument, path_ + ": block " + std::to_string(b) + " out of range (" +
                                              std::to_string(h_.blocks) + " blocks)"};
  const std::uint64_t begin = block_begin(b);
  const std::uint64_t end = block_end(b, begin);
  const std::span<const std::uint8_t> frame(data_ + begin, end - begin);
  const std::uint64_t stored = stored_checksum(b);
  std::uint64_t computed = XXH3_64bits_withSeed(frame.data(), frame.size(), b);
  if (h_.compact) computed &= 0xffffffffu;  // version 2 keeps the low 32 bits
  if (stored != computed)
    return block_error(TableStatus::ChecksumMismatch,  b, "checksum mismatch (stored " + hex(stored) +
                                                              ", computed " + hex(computed) + ")");
  const std::size_t capacity = packing::max_packed_bytes(h_.packing, block_values(b));
  packed.resize(capacity);
  std::size_t size = 0;
  std::string message;
  switch (block_codec::decompress(dictionary_.get(), frame, packed.data(), capacity, &size, &message)) {
    case block_codec::DecompressResult::Ok: break;
    case block_codec::DecompressResult::OutOfMemory: return block_error(TableStatus::OutOfMemory, b, message);
    case block_codec::DecompressResult::Failed: return block_error(TableStatus::DecodeError, b, message);
  }
  packed.resize(size);
  return {};
}

template <typename T>
TableError MappedTableReader::decode_values(std::uint64_t b, std::vector<T>& out) const {
  thread_local std::vector<std::uint8_t> packed;  // reused: no allocation per block
  if (TableError e = decompress_block(b, packed)) return e;
  const std::uint32_t n = block_values(b);
  out.resize(n);
  if (!packing::unpack<T>(h_.packing, packed, out.data(), n))
    return block_error(TableStatus::DecodeError, b, std::string("invalid ") + packing_name(h_.packing) + " data");
  const T largest = n == 0 ? T{0} : *std::max_element(out.begin(), out.end());
  if (largest > h_.max_value)
    return block_error(TableStatus::DecodeError, b, "value " + std::to_string(largest) + " above the maximum " +
                                                        std::to_string(h_.max_value));
  return {};
}

TableError MappedTableReader::decode_block(std::uint64_t b, std::vector<std::uint16_t>& out) const {
  return decode_values(b, out);
}

TableError MappedTableReader::decode_block_bytes(std::uint64_t b, std::vector<std::uint8_t>& out) const {
  if (h_.max_value > 255)
    return {TableStatus::InvalidArgument, path_ + ": values up to " + std::to_string(h_.max_value) +
                                              " do not fit one byte"};
  return decode_values(b, out);
}

TableError MappedTableReader::decode_block_packed2(std::uint64_t b, std::vector<std::uint8_t>& out) const {
  if (h_.max_value > 3)
    return {TableStatus::InvalidArgument, path_ + ": values up to " + std::to_string(h_.max_value) +
                                              " do not fit two bits"};
  if (h_.packing != Packing::Bits2) {  // convert through one byte per value
    thread_local std::vector<std::uint8_t> bytes;
    if (TableError e = decode_values(b, bytes)) return e;
    packing::bytes_to_packed2(bytes.data(), bytes.size(), out);
    return {};
  }
  // Stored form is the cache form: decompress straight into `out`.
  if (TableError e = decompress_block(b, out)) return e;
  const std::uint32_t n = block_values(b);
  if (out.size() != (n + 3) / 4)
    return block_error(TableStatus::DecodeError, b, "invalid bits2 data (wrong length)");
  if (!packing::packed2_padding_clear(out, n))
    return block_error(TableStatus::DecodeError, b, "invalid bits2 data (bits set past the last value)");
  if (packing::packed2_max(out) > h_.max_value)
    return block_error(TableStatus::DecodeError, b, "value above the maximum " + std::to_string(h_.max_value));
  return {};
}

TableError MappedTableReader::verify_all() const {
  const std::uint64_t drop_every = blocks_between_page_drops();  // every page is read
  std::vector<std::uint16_t> values;
  for (std::uint64_t b = 0; b < h_.blocks; ++b) {
    if (TableError e = decode_block(b, values)) return e;
    if ((b + 1) % drop_every == 0) drop_resident_pages();
  }
  return {};
}

}  // namespace

std::uint64_t TableReader::blocks_between_page_drops() const {
  constexpr std::uint64_t kFileBytesBetweenDrops = std::uint64_t{16} << 20;
  const std::uint64_t bytes_per_block = file_bytes() / std::max<std::uint64_t>(1, block_count());
  return std::max<std::uint64_t>(1, kFileBytesBetweenDrops / std::max<std::uint64_t>(1, bytes_per_block));
}

std::unique_ptr<TableReader> TableReader::open(const std::string& path, TableError* error) {
  TableError ignored;
  if (!error) error = &ignored;
  *error = {};
  auto file = MappedFile::open(path, error);
  if (!file) return nullptr;
  return MappedTableReader::open(path, std::move(file), {}, error);
}

std::unique_ptr<TableReader> TableReader::open_bytes(std::vector<std::uint8_t> bytes, const std::string& name,
                                                     TableError* error) {
  TableError ignored;
  if (!error) error = &ignored;
  *error = {};
  return MappedTableReader::open(name, nullptr, std::move(bytes), error);
}

}  // namespace dtb
