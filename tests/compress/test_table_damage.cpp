// Damaged table files: every flipped byte and every truncation is caught,
// with the error that names what is wrong; nothing crashes and no damaged
// block ever yields values.
#include <catch2/catch.hpp>

#include <xxhash.h>

#include <random>

#include "compress/file_layout.h"
#include "compress/little_endian.h"
#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"
#include "tests/compress/table_test_support.h"

using namespace dtb;

namespace {

const Material kMaterial{1, 1, 1, 0};
constexpr std::size_t kHeaderBytes = 64;

struct Original {
  std::vector<std::uint16_t> values;
  std::vector<std::uint8_t> bytes;
  std::uint32_t per_block;
  std::uint64_t blocks;
  std::size_t entry_bytes;  // 16 in a version-1 file, 6 in a version-2 (compact) one
};

// `compact`: the block table of format version 2 (FORMAT.md), else version 1.
Original make_table(const testing::TempDir& dir, std::size_t n, std::uint32_t per_block, std::uint32_t dictionary,
                    bool compact) {
  Original o;
  o.values = testing::tablebase_like(n, 40, 0, n).values;
  o.per_block = per_block;
  o.blocks = (n + per_block - 1) / per_block;
  o.entry_bytes = compact ? 6 : 16;
  WriteOptions options;
  options.positions_per_block = per_block;
  options.dictionary_bytes = dictionary;
  options.compact_block_table = compact;
  const std::string path = dir.file("orig.wdl");
  REQUIRE_FALSE(write_table(path, {kMaterial, TableKind::Wdl, o.values, {}}, options));
  o.bytes = testing::read_bytes(path);
  return o;
}

// Where the byte at `offset` lives, and therefore which error its damage must give.
enum class Region { Magic, Version, Header, Table, Block };

Region region_of(std::size_t offset, const Original& o, std::size_t dictionary_bytes) {
  if (offset < 8) return Region::Magic;
  if (offset < 10) return Region::Version;
  if (offset < kHeaderBytes) return Region::Header;
  if (offset < kHeaderBytes + o.blocks * o.entry_bytes + dictionary_bytes) return Region::Table;
  return Region::Block;
}

// Opens the damaged bytes (in memory: the thousands of variants would
// otherwise be as many file writes; TableReader::open runs the same checks
// on a mapped file) and checks the outcome for a byte at `offset` changed.
void check_damaged(std::vector<std::uint8_t> bytes, const Original& o, std::size_t offset,
                   std::size_t dictionary_bytes) {
  INFO("byte " << offset << " of " << o.bytes.size());
  const std::string path = "damaged.wdl";
  // A version changed to the other one this build reads fails the header checksum instead.
  const int version = bytes[8] | (bytes[9] << 8);
  TableError e;
  const auto r = TableReader::open_bytes(std::move(bytes), path, &e);
  switch (region_of(offset, o, dictionary_bytes)) {
    case Region::Magic: REQUIRE(e.status == TableStatus::BadMagic); return;
    case Region::Version:
      REQUIRE(e.status == (version == 1 || version == 2 ? TableStatus::BadHeader : TableStatus::BadVersion));
      return;
    case Region::Header: REQUIRE(e.status == TableStatus::BadHeader); return;
    case Region::Table: REQUIRE(e.status == TableStatus::ChecksumMismatch); return;
    case Region::Block: break;
  }
  INFO(e.message);
  REQUIRE(r);
  // Exactly one block is damaged: it is rejected by name, the others decode exactly.
  int rejected = 0;
  std::vector<std::uint16_t> block;
  for (std::uint64_t b = 0; b < r->block_count(); ++b) {
    const TableError d = r->decode_block(b, block);
    if (d) {
      ++rejected;
      CHECK(d.status == TableStatus::ChecksumMismatch);
      CHECK(d.message.find(path) != std::string::npos);
      CHECK(d.message.find("block " + std::to_string(b)) != std::string::npos);
    } else {
      REQUIRE(std::equal(block.begin(), block.end(), o.values.begin() + static_cast<std::ptrdiff_t>(b * o.per_block)));
    }
  }
  REQUIRE(rejected == 1);
  REQUIRE(r->verify_all().status == TableStatus::ChecksumMismatch);
}

}  // namespace

TEST_CASE("flipping any byte of a small table is detected", "[damage]") {
  testing::TempDir dir;
  const bool compact = GENERATE(false, true);
  INFO((compact ? "compact" : "wide") << " block table");
  const Original o = make_table(dir, 700, 128, 0, compact);
  REQUIRE(o.blocks == 6);
  for (std::size_t i = 0; i < o.bytes.size(); ++i) {
    for (std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xff}}) {
      auto bytes = o.bytes;
      bytes[i] ^= mask;
      check_damaged(std::move(bytes), o, i, 0);
    }
  }
}

TEST_CASE("flipping a sample of bytes of a larger table with a dictionary is detected", "[damage]") {
  testing::TempDir dir;
  const bool compact = GENERATE(false, true);
  INFO((compact ? "compact" : "wide") << " block table");
  const Original o = make_table(dir, 300000, 4096, 4096, compact);
  TableError e;
  const auto intact = TableReader::open(dir.file("orig.wdl"), &e);
  REQUIRE(intact);
  // Locate the dictionary through the file size: header + table + dictionary + blocks.
  const std::size_t dictionary_bytes = o.bytes[40] | (o.bytes[41] << 8) | (o.bytes[42] << 16);
  REQUIRE(dictionary_bytes > 0);
  std::mt19937_64 rng(42);
  for (int k = 0; k < 400; ++k) {
    const std::size_t i = k < 64 ? static_cast<std::size_t>(k) : rng() % o.bytes.size();
    auto bytes = o.bytes;
    bytes[i] ^= static_cast<std::uint8_t>(1 + rng() % 255);
    check_damaged(std::move(bytes), o, i, dictionary_bytes);
  }
}

TEST_CASE("every truncation is reported as Truncated", "[damage]") {
  testing::TempDir dir;
  const bool compact = GENERATE(false, true);
  INFO((compact ? "compact" : "wide") << " block table");
  const Original o = make_table(dir, 700, 128, 0, compact);
  const std::string path = dir.file("short.wdl");
  for (std::size_t len = 0; len < o.bytes.size(); ++len) {
    INFO("length " << len);
    testing::write_bytes(path, std::vector<std::uint8_t>(o.bytes.begin(), o.bytes.begin() + static_cast<std::ptrdiff_t>(len)));
    TableError e;
    CHECK_FALSE(TableReader::open(path, &e));
    REQUIRE(e.status == TableStatus::Truncated);
    CHECK(e.message.find(path) != std::string::npos);
  }
}

TEST_CASE("other bad files: missing, a directory, trailing bytes, not a table", "[damage]") {
  testing::TempDir dir;
  const Original o = make_table(dir, 700, 128, 0, false);
  TableError e;
  CHECK_FALSE(TableReader::open(dir.file("KvK.wdl"), &e));
  CHECK(e.status == TableStatus::Missing);
  CHECK(e.message.find("KvK.wdl") != std::string::npos);

  CHECK_FALSE(TableReader::open(dir.path(), &e));
  CHECK(e.status == TableStatus::IoError);

  // A damaged block through the real file path (memory map) as well.
  auto damaged = o.bytes;
  damaged.back() ^= 1;
  testing::write_bytes(dir.file("damaged.wdl"), damaged);
  const auto mapped = TableReader::open(dir.file("damaged.wdl"), &e);
  REQUIRE(mapped);
  const TableError last = mapped->verify_all();
  CHECK(last.status == TableStatus::ChecksumMismatch);
  CHECK(last.message.find(dir.file("damaged.wdl") + ": block 5 of 6") != std::string::npos);

  auto longer = o.bytes;
  longer.push_back(0);
  testing::write_bytes(dir.file("long.wdl"), longer);
  CHECK_FALSE(TableReader::open(dir.file("long.wdl"), &e));
  CHECK(e.status == TableStatus::BadHeader);

  testing::write_bytes(dir.file("text.wdl"), {'h', 'e', 'l', 'l', 'o'});
  CHECK_FALSE(TableReader::open(dir.file("text.wdl"), &e));
  CHECK(e.status == TableStatus::BadMagic);

  // A block moved to another block's slot fails its check (checksums are seeded by block number).
  const auto r = TableReader::open(dir.file("orig.wdl"), &e);
  REQUIRE(r);
  std::vector<std::uint16_t> block;
  CHECK(r->decode_block(r->block_count(), block).status == TableStatus::InvalidArgument);
}

// Found by fuzz/fuzz_table_reader.cpp: the block count was checked as
// (positions + per_block - 1) / per_block, which wraps for a count near
// 2^64, so a header of 2^64 - 1 positions in 0 blocks of 2 was accepted.
TEST_CASE("a header whose position count wraps the block count is refused", "[damage]") {
  std::vector<std::uint8_t> file(sizeof(layout::RawHeader), 0);
  auto& h = *reinterpret_cast<layout::RawHeader*>(file.data());
  std::copy(std::begin(layout::kMagic), std::end(layout::kMagic), h.magic);
  le::store<std::uint16_t>(h.format_version, layout::kFormatVersion);
  h.kind = static_cast<std::uint8_t>(TableKind::Wdl);
  h.packing = static_cast<std::uint8_t>(Packing::Bits8);
  h.material[0] = h.material[2] = 1;
  le::store<std::uint16_t>(h.index_scheme_version, kIndexSchemeVersion);
  le::store<std::uint16_t>(h.max_value, 2);
  le::store<std::uint32_t>(h.positions_per_block, 2);
  le::store<std::uint64_t>(h.positions, ~std::uint64_t{0});
  le::store<std::uint64_t>(h.block_count, 0);
  le::store<std::uint64_t>(h.table_checksum, XXH3_64bits(nullptr, 0));
  le::store<std::uint64_t>(h.header_checksum, XXH3_64bits(file.data(), layout::kHeaderChecksummedBytes));
  TableError e;
  CHECK_FALSE(TableReader::open_bytes(file, "wrap.wdl", &e));
  CHECK(e.status == TableStatus::BadHeader);
  CHECK(e.message.find("0 blocks cannot hold 18446744073709551615 positions") != std::string::npos);

  // The largest count that fits: 2^63 blocks of 2 would be right, and only
  // the file's size then refuses it.
  le::store<std::uint64_t>(h.block_count, std::uint64_t{1} << 63);
  le::store<std::uint64_t>(h.header_checksum, XXH3_64bits(file.data(), layout::kHeaderChecksummedBytes));
  CHECK_FALSE(TableReader::open_bytes(file, "huge.wdl", &e));
  CHECK(e.status == TableStatus::Truncated);
}
