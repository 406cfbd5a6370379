// The table file reader (compress/table_file.h) on arbitrary bytes. The first
// input byte picks how the rest becomes a file:
//   mode 0: the bytes as they are;
//   mode 1: the bytes with their checksums made right (header, block table,
//           every block), so that damage past the checksums is reached;
//   mode 2: a file built from the bytes: the first 56 become the header, the
//           rest blocks of (2-byte length, packed bytes) which are compressed
//           here as the writer does, and every checksum is right; this
//           reaches the unpacking of every packing with well-formed frames.
// The file is read both from memory (open_bytes) and through a file
// (open, mmap of a memfd). Either way opening, the header, every block
// (in every decode form) and value_at must end in a clear error or in
// consistent answers: both readers agree, block sizes and values fit the
// header, the three decode forms give the same values, and verify_all
// fails exactly when some block does.
#include <sys/mman.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "compress/block_codec.h"
#include "compress/file_layout.h"
#include "compress/little_endian.h"
#include "compress/table_file.h"

namespace {

using dtb::TableError;
using dtb::TableReader;
using dtb::TableStatus;
namespace layout = dtb::layout;
namespace le = dtb::le;

// Bound on the values decoded for one input, so that headers promising
// 2^24 values a block do not slow the run to a crawl: blocks past it are
// left alone (the reader's own checks on them are the same).
constexpr std::uint64_t kMaxDecodedValues = std::uint64_t{1} << 20;

[[noreturn]] void fail(const std::string& what) {
  std::fprintf(stderr, "fuzz_table_reader: %s\n", what.c_str());
  std::abort();
}

void require_error(const TableError& e, const char* what) {
  if (e.status == TableStatus::Ok || e.message.empty()) fail(std::string(what) + ": failure without status or message");
}

std::uint64_t entry_bytes(bool compact) {
  return compact ? sizeof(layout::RawCompactBlockEntry) : sizeof(layout::RawBlockEntry);
}

// Mode 1: recompute the block checksums (from the block table as it stands),
// then the table checksum, then the header checksum, wherever they fit.
void fix_checksums(std::vector<std::uint8_t>& f) {
  if (f.size() < sizeof(layout::RawHeader)) return;
  auto& h = *reinterpret_cast<layout::RawHeader*>(f.data());
  const bool compact = le::load<std::uint16_t>(h.format_version) == layout::kCompactFormatVersion;
  const std::uint64_t blocks = le::load<std::uint64_t>(h.block_count);
  const std::uint64_t dict = le::load<std::uint32_t>(h.dictionary_bytes);
  const std::uint64_t room = f.size() - sizeof(layout::RawHeader);
  if (blocks <= room / entry_bytes(compact) && dict <= room - blocks * entry_bytes(compact)) {
    std::uint8_t* table = f.data() + sizeof(layout::RawHeader);
    const std::uint64_t data_start = sizeof(layout::RawHeader) + blocks * entry_bytes(compact) + dict;
    const std::uint64_t data_bytes = f.size() - data_start;
    std::uint64_t begin = 0;
    for (std::uint64_t b = 0; b < blocks; ++b) {
      std::uint64_t end;
      if (compact) {
        auto* e = reinterpret_cast<layout::RawCompactBlockEntry*>(table) + b;
        end = begin + le::load<std::uint16_t>(e->size);
        if (end > data_bytes) break;
        const auto sum = XXH3_64bits_withSeed(f.data() + data_start + begin, end - begin, b);
        le::store<std::uint32_t>(e->checksum, static_cast<std::uint32_t>(sum));
      } else {
        auto* e = reinterpret_cast<layout::RawBlockEntry*>(table) + b;
        end = le::load<std::uint64_t>(e->end);
        if (end < begin || end > data_bytes) break;
        le::store<std::uint64_t>(e->checksum, XXH3_64bits_withSeed(f.data() + data_start + begin, end - begin, b));
      }
      begin = end;
    }
    le::store<std::uint64_t>(h.table_checksum, XXH3_64bits(table, blocks * entry_bytes(compact) + dict));
  }
  le::store<std::uint64_t>(h.header_checksum, XXH3_64bits(f.data(), layout::kHeaderChecksummedBytes));
}

// Mode 2: a file built around blocks compressed here.
std::vector<std::uint8_t> build_file(const std::uint8_t* data, std::size_t size) {
  std::vector<std::uint8_t> header(sizeof(layout::RawHeader), 0);
  std::copy_n(data, std::min<std::size_t>(size, layout::kHeaderChecksummedBytes), header.begin());
  const std::size_t used = std::min<std::size_t>(size, layout::kHeaderChecksummedBytes);
  data += used;
  size -= used;
  auto& h = *reinterpret_cast<layout::RawHeader*>(header.data());
  std::copy(std::begin(layout::kMagic), std::end(layout::kMagic), h.magic);
  const bool compact = h.format_version[0] & 1;
  le::store<std::uint16_t>(h.format_version, compact ? layout::kCompactFormatVersion : layout::kFormatVersion);
  le::store<std::uint16_t>(h.index_scheme_version, dtb::kIndexSchemeVersion);
  le::store<std::uint32_t>(h.dictionary_bytes, 0);

  // The writer's own compressor: magicless frames with their content size.
  static dtb::block_codec::Compressor compressor(1, {});
  std::vector<std::vector<std::uint8_t>> frames;
  while (size >= 2 && frames.size() < 64) {
    const std::size_t n = std::min<std::size_t>(size - 2, data[0] | (data[1] << 8));
    std::vector<std::uint8_t> frame;
    std::string error;
    if (!compressor.ok() || !compressor.compress({data + 2, n}, frame, &error)) fail("cannot compress: " + error);
    frames.push_back(std::move(frame));
    data += 2 + n;
    size -= 2 + n;
  }
  le::store<std::uint64_t>(h.block_count, frames.size());

  std::vector<std::uint8_t> table(frames.size() * entry_bytes(compact)), blocks;
  for (std::size_t b = 0; b < frames.size(); ++b) {
    const auto sum = XXH3_64bits_withSeed(frames[b].data(), frames[b].size(), b);
    blocks.insert(blocks.end(), frames[b].begin(), frames[b].end());
    if (compact) {
      auto* e = reinterpret_cast<layout::RawCompactBlockEntry*>(table.data()) + b;
      le::store<std::uint16_t>(e->size, static_cast<std::uint16_t>(frames[b].size()));
      le::store<std::uint32_t>(e->checksum, static_cast<std::uint32_t>(sum));
    } else {
      auto* e = reinterpret_cast<layout::RawBlockEntry*>(table.data()) + b;
      le::store<std::uint64_t>(e->end, blocks.size());
      le::store<std::uint64_t>(e->checksum, sum);
    }
  }
  le::store<std::uint64_t>(h.table_checksum, XXH3_64bits(table.data(), table.size()));
  le::store<std::uint64_t>(h.header_checksum, XXH3_64bits(header.data(), layout::kHeaderChecksummedBytes));
  header.insert(header.end(), table.begin(), table.end());
  header.insert(header.end(), blocks.begin(), blocks.end());
  return header;
}

// What one reader answers, for comparing the two.
struct Answers {
  TableStatus open = TableStatus::Ok;
  std::vector<TableStatus> blocks;
  std::vector<std::uint16_t> values;  // of the blocks decoded, in order
};

Answers read_all(const TableReader* r, const TableError& open_error, std::size_t file_size) {
  Answers a;
  if (!r) {
    require_error(open_error, "open");
    a.open = open_error.status;
    return a;
  }
  const std::uint64_t positions = r->positions(), per_block = r->positions_per_block(), blocks = r->block_count();
  if (per_block == 0 || per_block > layout::kMaxPositionsPerBlock) fail("accepted block size " + std::to_string(per_block));
  // blocks == ceil(positions / per_block), without the overflow of the sum.
  if (blocks != positions / per_block + (positions % per_block != 0))
    fail("accepted " + std::to_string(blocks) + " blocks of " + std::to_string(per_block) + " for " +
         std::to_string(positions) + " positions");
  if (r->file_bytes() != file_size) fail("file_bytes differs from the file's size");
  if (r->format_version() != 1 && r->format_version() != 2) fail("unknown format version accepted");
  if (r->block_bytes(blocks) != 0) fail("block_bytes past the last block is not 0");

  std::vector<std::uint16_t> values;
  std::vector<std::uint8_t> bytes, packed2;
  std::uint64_t decoded = 0, bytes_sum = 0;
  bool all_ok = true;
  std::uint64_t b = 0;
  for (; b < blocks && decoded + r->block_values(b) <= kMaxDecodedValues; ++b) {
    bytes_sum += r->block_bytes(b);
    if (bytes_sum > file_size) fail("blocks larger than the file");
    const std::uint32_t n = r->block_values(b);
    decoded += n;
    const TableError e = r->decode_block(b, values);
    a.blocks.push_back(e.status);
    const TableError eb = r->decode_block_bytes(b, bytes);
    const TableError e2 = r->decode_block_packed2(b, packed2);
    if (e) {
      require_error(e, "decode_block");
      all_ok = false;
      if (r->max_value() < 256 && !eb) fail("decode_block_bytes succeeds where decode_block fails");
      if (r->max_value() < 4 && !e2) fail("decode_block_packed2 succeeds where decode_block fails");
      continue;
    }
    if (values.size() != n) fail("block " + std::to_string(b) + " decoded to the wrong number of values");
    for (std::uint16_t v : values)
      if (v > r->max_value()) fail("value above the header's maximum");
    a.values.insert(a.values.end(), values.begin(), values.end());
    if (r->max_value() < 256) {
      if (eb) fail("decode_block_bytes fails where decode_block succeeds: " + eb.message);
      if (!std::equal(values.begin(), values.end(), bytes.begin(), bytes.end()))
        fail("decode_block_bytes differs from decode_block");
    } else {
      require_error(eb, "decode_block_bytes");
    }
    if (r->max_value() < 4) {
      if (e2) fail("decode_block_packed2 fails where decode_block succeeds: " + e2.message);
      if (packed2.size() != (n + 3) / 4) fail("decode_block_packed2 gave the wrong length");
      for (std::uint32_t i = 0; i < n; ++i)
        if (dtb::packed2_value(packed2.data(), i) != values[i]) fail("decode_block_packed2 differs from decode_block");
    } else {
      require_error(e2, "decode_block_packed2");
    }
    // value_at agrees with the block at its first and last position.
    for (const std::uint64_t i : {std::uint64_t{0}, std::uint64_t{n - 1}}) {
      std::uint16_t v = 0;
      if (n == 0) break;
      if (TableError ev = r->value_at(b * per_block + i, &v)) fail("value_at fails on a block that decodes: " + ev.message);
      if (v != values[i]) fail("value_at differs from decode_block");
    }
  }
  if (b == blocks) {  // every block was decoded: verify_all must agree
    const TableError ev = r->verify_all();
    if (all_ok && ev) fail("verify_all fails though every block decodes: " + ev.message);
    if (!all_ok) require_error(ev, "verify_all");
  }
  std::uint16_t v = 0;
  require_error(r->value_at(positions, &v), "value_at past the end");
  if (r->decode_block(blocks, values).status != TableStatus::InvalidArgument) fail("a block past the end decodes");
  return a;
}

int memfd = -1;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int mode = data[0] % 3;
  std::vector<std::uint8_t> file;
  if (mode == 2) {
    file = build_file(data + 1, size - 1);
  } else {
    file.assign(data + 1, data + size);
    if (mode == 1) fix_checksums(file);
  }

  TableError e1;
  const auto in_memory = TableReader::open_bytes(file, "fuzz.wdl", &e1);
  const Answers a1 = read_all(in_memory.get(), e1, file.size());

  if (memfd < 0) memfd = memfd_create("fuzz_table", 0);
  if (memfd < 0 || ftruncate(memfd, 0) != 0 ||
      pwrite(memfd, file.data(), file.size(), 0) != static_cast<ssize_t>(file.size()))
    fail("cannot write the memfd");
  TableError e2;
  const auto mapped = TableReader::open("/proc/self/fd/" + std::to_string(memfd), &e2);
  const Answers a2 = read_all(mapped.get(), e2, file.size());
  if (a1.open != a2.open || a1.blocks != a2.blocks || a1.values != a2.values)
    fail("the file and the bytes in memory read differently");
  return 0;
}
