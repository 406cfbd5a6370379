// Random mutations of a valid table file (100,000 of them): the reader
// either rejects the file or the damaged blocks with an error, or returns
// exactly the original values. It never crashes and never answers wrongly.
#include <catch2/catch.hpp>

#include <random>

#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"
#include "tests/compress/table_test_support.h"

using namespace dtb;

namespace {

std::vector<std::uint8_t> mutate(std::vector<std::uint8_t> bytes, std::mt19937_64& rng) {
  const int edits = 1 + static_cast<int>(rng() % 4);
  for (int k = 0; k < edits; ++k) {
    const std::size_t at = bytes.empty() ? 0 : rng() % bytes.size();
    switch (rng() % 6) {
      case 0: if (!bytes.empty()) bytes[at] ^= static_cast<std::uint8_t>(1u << (rng() % 8)); break;
      case 1: if (!bytes.empty()) bytes[at] = static_cast<std::uint8_t>(rng()); break;
      case 2: bytes.resize(at); break;
      case 3: bytes.insert(bytes.begin() + static_cast<std::ptrdiff_t>(at), static_cast<std::uint8_t>(rng())); break;
      case 4: if (!bytes.empty()) bytes.erase(bytes.begin() + static_cast<std::ptrdiff_t>(at)); break;
      case 5: {  // overwrite a little-endian field with an extreme value
        const std::uint8_t fill = rng() % 2 ? 0xff : 0x00;
        for (std::size_t i = at; i < std::min(bytes.size(), at + 1 + rng() % 8); ++i) bytes[i] = fill;
        break;
      }
    }
  }
  return bytes;
}

}  // namespace

TEST_CASE("100,000 random mutations never crash the reader or change a value", "[fuzz]") {
  testing::TempDir dir;
  const auto values = testing::tablebase_like(600, 30, 0, 8).values;
  const std::string original_path = dir.file("orig.wdl");
  WriteOptions options;
  options.positions_per_block = 100;
  options.compact_block_table = GENERATE(false, true);  // format version 1 and 2
  INFO((options.compact_block_table ? "compact" : "wide") << " block table");
  REQUIRE_FALSE(write_table(original_path, {Material{1, 0, 1, 1}, TableKind::Wdl, values, {}}, options));
  const auto original = testing::read_bytes(original_path);

  std::mt19937_64 rng(20261129);
  int opened = 0, blocks_rejected = 0;
  std::vector<std::uint16_t> block;
  for (int round = 0; round < 100000; ++round) {
    // In memory: the same checks as a file, without 100,000 file writes.
    TableError e;
    const auto r = TableReader::open_bytes(mutate(original, rng), "mutant.wdl", &e);
    if (!r) {
      REQUIRE(e.status != TableStatus::Ok);
      continue;
    }
    ++opened;
    // Opened: the header and the block table are intact, so the shape is the original's.
    REQUIRE(r->positions() == values.size());
    REQUIRE(r->block_count() == 6);
    for (std::uint64_t b = 0; b < r->block_count(); ++b) {
      if (const TableError d = r->decode_block(b, block)) {
        REQUIRE(d.status == TableStatus::ChecksumMismatch);
        ++blocks_rejected;
        continue;
      }
      INFO("round " << round << " block " << b);
      REQUIRE(std::equal(block.begin(), block.end(), values.begin() + static_cast<std::ptrdiff_t>(b * 100)));
    }
  }
  // The mutations must reach the blocks, or the test proves little.
  CHECK(opened > 1000);
  CHECK(blocks_rejected > 1000);
}
