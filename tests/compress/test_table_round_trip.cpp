// write_table then TableReader gives back every value that matters, for
// every packing, block size edge case, kind and decode path.
#include <catch2/catch.hpp>

#include <random>

#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"
#include "tests/compress/table_test_support.h"

using namespace dtb;

namespace {

const Material kMaterial{2, 1, 1, 0};  // KKMvK

std::vector<std::uint16_t> read_all(const TableReader& r) {
  std::vector<std::uint16_t> all, block;
  for (std::uint64_t b = 0; b < r.block_count(); ++b) {
    const TableError e = r.decode_block(b, block);
    INFO(e.message);
    REQUIRE_FALSE(e);
    REQUIRE(block.size() == r.block_values(b));
    all.insert(all.end(), block.begin(), block.end());
  }
  return all;
}

std::unique_ptr<TableReader> open_ok(const std::string& path) {
  TableError e;
  auto r = TableReader::open(path, &e);
  INFO(e.message);
  REQUIRE(r);
  REQUIRE_FALSE(e);
  return r;
}

}  // namespace

TEST_CASE("WDL tables round-trip for every packing and awkward sizes", "[table]") {
  testing::TempDir dir;
  const std::uint32_t per_block = 1000;
  const Packing packings[] = {Packing::Bits2, Packing::Base3, Packing::Bits8, Packing::Runs, Packing::Bits16};
  for (Packing p : packings) {
    for (std::size_t n : {0u, 1u, 999u, 1000u, 1001u, 3007u}) {
      for (bool structured : {false, true}) {
        INFO(packing_name(p) << " n=" << n << (structured ? " tablebase-like" : " random"));
        const auto values = structured ? testing::tablebase_like(n, 97, 0, n).values : testing::random_values(n, 2, n);
        const std::string path = dir.file("KKMvK.wdl");
        WriteOptions options;
        options.packing = p;
        options.positions_per_block = per_block;
        const TableError w = write_table(path, {kMaterial, TableKind::Wdl, values, {}}, options);
        INFO(w.message);
        REQUIRE_FALSE(w);
        const auto r = open_ok(path);
        CHECK(r->material() == kMaterial);
        CHECK(r->kind() == TableKind::Wdl);
        CHECK(r->packing() == p);
        CHECK(r->positions() == n);
        CHECK(r->positions_per_block() == per_block);
        CHECK(r->block_count() == (n + per_block - 1) / per_block);
        CHECK(r->verify_all().status == TableStatus::Ok);
        CHECK(read_all(*r) == values);
      }
    }
  }
}

TEST_CASE("the byte and two-bit decode paths agree with decode_block", "[table]") {
  testing::TempDir dir;
  const auto values = testing::tablebase_like(5000, 50, 0, 9).values;
  for (Packing p : {Packing::Bits2, Packing::Base3, Packing::Bits8, Packing::Runs}) {
    INFO(packing_name(p));
    WriteOptions options;
    options.packing = p;
    options.positions_per_block = 1024;
    REQUIRE_FALSE(write_table(dir.file("t.wdl"), {kMaterial, TableKind::Wdl, values, {}}, options));
    const auto r = open_ok(dir.file("t.wdl"));
    std::vector<std::uint8_t> bytes, packed;
    for (std::uint64_t b = 0; b < r->block_count(); ++b) {
      REQUIRE_FALSE(r->decode_block_bytes(b, bytes));
      REQUIRE_FALSE(r->decode_block_packed2(b, packed));
      REQUIRE(bytes.size() == r->block_values(b));
      for (std::uint32_t i = 0; i < bytes.size(); ++i) {
        REQUIRE(bytes[i] == values[b * 1024 + i]);
        REQUIRE(packed2_value(packed.data(), i) == values[b * 1024 + i]);
      }
    }
  }
}

TEST_CASE("don't-care positions may hold anything; the others are exact", "[table]") {
  testing::TempDir dir;
  const auto t = testing::tablebase_like(20000, 300, 30, 5);
  REQUIRE(std::count(t.dont_care.begin(), t.dont_care.end(), 1) > 4000);
  const std::string path = dir.file("KKMvK.wdl");
  REQUIRE_FALSE(write_table(path, {kMaterial, TableKind::Wdl, t.values, t.dont_care}));
  const auto r = open_ok(path);
  const auto stored = read_all(*r);
  REQUIRE(stored.size() == t.values.size());
  for (std::size_t i = 0; i < stored.size(); ++i)
    if (!t.dont_care[i]) REQUIRE(stored[i] == t.values[i]);

  SECTION("the don't-care fill makes the file smaller than storing the random values") {
    REQUIRE_FALSE(write_table(dir.file("raw.wdl"), {kMaterial, TableKind::Wdl, t.values, {}}));
    CHECK(r->file_bytes() < open_ok(dir.file("raw.wdl"))->file_bytes());
  }
  SECTION("a WDL value above 2 is accepted only where nobody reads it") {
    auto values = t.values;
    const auto dc = std::find(t.dont_care.begin(), t.dont_care.end(), 1) - t.dont_care.begin();
    values[dc] = 3;
    CHECK_FALSE(write_table(path, {kMaterial, TableKind::Wdl, values, t.dont_care}));
    const auto cared = std::find(t.dont_care.begin(), t.dont_care.end(), 0) - t.dont_care.begin();
    values[cared] = 3;
    CHECK(write_table(path, {kMaterial, TableKind::Wdl, values, t.dont_care}).status == TableStatus::InvalidArgument);
  }
}

TEST_CASE("wide values (DTW, rule budgets) round-trip with their packing", "[table]") {
  testing::TempDir dir;
  for (std::uint16_t top : {std::uint16_t{200}, std::uint16_t{1000}, std::uint16_t{65535}}) {
    INFO("max " << top);
    auto values = testing::random_values(4321, top, top);
    values[17] = top;
    REQUIRE_FALSE(write_table(dir.file("KKMvK.dtw"), {kMaterial, TableKind::Dtw, values, {}}));
    const auto r = open_ok(dir.file("KKMvK.dtw"));
    CHECK(r->kind() == TableKind::Dtw);
    CHECK(r->max_value() == top);
    CHECK(r->packing() == (top < 256 ? Packing::Bits8 : Packing::Bits16));
    CHECK(read_all(*r) == values);
    std::vector<std::uint8_t> bytes;
    CHECK((r->decode_block_bytes(0, bytes).status == TableStatus::Ok) == (top < 256));
    CHECK(r->decode_block_packed2(0, bytes).status == TableStatus::InvalidArgument);
  }
}

TEST_CASE("output is byte-for-byte deterministic", "[table]") {
  testing::TempDir dir;
  const auto t = testing::tablebase_like(50000, 700, 25, 11);
  for (std::uint32_t dictionary : {0u, 4096u}) {
    WriteOptions options;
    options.dictionary_bytes = dictionary;
    options.positions_per_block = 2048;
    REQUIRE_FALSE(write_table(dir.file("a.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
    REQUIRE_FALSE(write_table(dir.file("b.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
    CHECK(testing::read_bytes(dir.file("a.wdl")) == testing::read_bytes(dir.file("b.wdl")));
    // Blocks are filled, packed and compressed on several threads: the same bytes.
    for (int threads : {2, 3, 8}) {
      options.threads = threads;
      REQUIRE_FALSE(write_table(dir.file("c.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
      CHECK(testing::read_bytes(dir.file("a.wdl")) == testing::read_bytes(dir.file("c.wdl")));
    }
  }
}

TEST_CASE("tables with an embedded dictionary round-trip", "[table]") {
  testing::TempDir dir;
  const auto values = testing::tablebase_like(200000, 900, 0, 3).values;
  WriteOptions options;
  options.dictionary_bytes = 8192;
  options.positions_per_block = 4096;
  REQUIRE_FALSE(write_table(dir.file("d.wdl"), {kMaterial, TableKind::Wdl, values, {}}, options));
  const auto r = open_ok(dir.file("d.wdl"));
  CHECK(read_all(*r) == values);
  std::uint16_t v = 9;
  REQUIRE_FALSE(r->value_at(123456, &v));
  CHECK(v == values[123456]);
  CHECK(r->value_at(values.size(), &v).status == TableStatus::InvalidArgument);
}

TEST_CASE("table_file_stats reports the size and density", "[table]") {
  testing::TempDir dir;
  const auto values = testing::tablebase_like(100000, 500, 0, 1).values;
  REQUIRE_FALSE(write_table(dir.file("s.wdl"), {kMaterial, TableKind::Wdl, values, {}}));
  TableFileStats stats;
  REQUIRE_FALSE(table_file_stats(dir.file("s.wdl"), &stats));
  CHECK(stats.positions == 100000);
  CHECK(stats.file_bytes == std::filesystem::file_size(dir.file("s.wdl")));
  CHECK(stats.bits_per_position() == Approx(8.0 * static_cast<double>(stats.file_bytes) / 100000));
  CHECK(table_file_stats(dir.file("none.wdl"), &stats).status == TableStatus::Missing);
}

TEST_CASE("write_table rejects contents it cannot store faithfully", "[table]") {
  testing::TempDir dir;
  const std::vector<std::uint16_t> values = {0, 1, 2, 1};
  const std::vector<std::uint8_t> short_dc = {0, 0};
  CHECK(write_table(dir.file("x.wdl"), {kMaterial, TableKind::Wdl, values, short_dc}).status ==
        TableStatus::InvalidArgument);
  WriteOptions base3;
  base3.packing = Packing::Base3;
  const std::vector<std::uint16_t> wide = {0, 3};
  CHECK(write_table(dir.file("x.rule"), {kMaterial, TableKind::Rule, wide, {}}, base3).status ==
        TableStatus::InvalidArgument);
  WriteOptions huge_blocks;
  huge_blocks.positions_per_block = 1u << 30;
  CHECK(write_table(dir.file("x.wdl"), {kMaterial, TableKind::Wdl, values, {}}, huge_blocks).status ==
        TableStatus::InvalidArgument);
  CHECK_FALSE(std::filesystem::exists(dir.file("x.wdl")));
  CHECK(table_extension(TableKind::Wdl) == std::string(".wdl"));
  CHECK(table_extension(TableKind::Dtw) == std::string(".dtw"));
  CHECK(table_extension(TableKind::Rule) == std::string(".rule"));
}

TEST_CASE("by default only large tables embed a dictionary", "[table]") {
  testing::TempDir dir;
  const auto large = testing::tablebase_like(4 * kAutoDictionaryMinPackedBytes, 1000, 20, 4);
  const auto small = testing::tablebase_like(100000, 1000, 20, 4);
  REQUIRE_FALSE(write_table(dir.file("large.wdl"), {kMaterial, TableKind::Wdl, large.values, large.dont_care}));
  REQUIRE_FALSE(write_table(dir.file("small.wdl"), {kMaterial, TableKind::Wdl, small.values, small.dont_care}));
  const auto l = open_ok(dir.file("large.wdl")), s = open_ok(dir.file("small.wdl"));
  CHECK(l->dictionary_bytes() > 0);
  CHECK(l->dictionary_bytes() <= kAutoDictionaryBytes);
  CHECK(s->dictionary_bytes() == 0);
  CHECK(l->positions_per_block() == kDefaultPositionsPerBlock);
  CHECK_FALSE(l->verify_all());
  const auto stored = read_all(*l);
  for (std::size_t i = 0; i < stored.size(); ++i)
    if (!large.dont_care[i]) REQUIRE(stored[i] == large.values[i]);
}

TEST_CASE("a table that compresses poorly gets smaller blocks", "[table]") {
  testing::TempDir dir;
  std::mt19937 rng(5);
  std::vector<std::uint16_t> noise(100000);
  for (auto& v : noise) v = static_cast<std::uint16_t>(rng() % 3);  // ~1.6 bits/value after zstd
  const std::vector<std::uint16_t> runs(100000, 1);                 // compresses to almost nothing
  WriteOptions options;
  options.positions_per_block = 16384;
  options.max_average_block_bytes = 600;
  REQUIRE_FALSE(write_table(dir.file("noise.wdl"), {kMaterial, TableKind::Wdl, noise, {}}, options));
  REQUIRE_FALSE(write_table(dir.file("runs.wdl"), {kMaterial, TableKind::Wdl, runs, {}}, options));
  const auto n = open_ok(dir.file("noise.wdl"));
  // 2048 positions of noise still take ~400 bytes, 4096 ~800: it stops at 2048.
  CHECK(n->positions_per_block() == kMinAdaptivePositionsPerBlock);
  CHECK(read_all(*n) == noise);
  const auto r = open_ok(dir.file("runs.wdl"));
  CHECK(r->positions_per_block() == 16384);
  CHECK(read_all(*r) == runs);
}

namespace {

// 1024 blocks of 4096 positions (the least a sample is taken for:
// 4 x kSizingSamples blocks) of noise (values 0..3, MTC-like), except that
// blocks whose number is 2 mod 4 hold a single value if `fool_the_sample`:
// those are the blocks the sample compresses.
std::vector<std::uint16_t> sizing_table(bool fool_the_sample) {
  constexpr std::uint32_t kBlock = 4096;
  static_assert(4 * kSizingSamples * kBlock == 1024 * 4096);
  std::mt19937 rng(17);
  std::vector<std::uint16_t> v(1024 * kBlock);
  for (std::size_t i = 0; i < v.size(); ++i)
    v[i] = fool_the_sample && (i / kBlock) % 4 == 2 ? 1 : static_cast<std::uint16_t>(rng() % 4);
  return v;
}

}  // namespace

TEST_CASE("sizing blocks by a sample starts where the halving would end, with the same bytes", "[table]") {
  testing::TempDir dir;
  const std::vector<std::uint16_t> values = sizing_table(false);
  WriteOptions options;
  options.positions_per_block = 4096;  // noise: ~1,000 bytes a block at 4096, ~500 at 2048
  options.max_average_block_bytes = 700;
  options.zstd_level = 9;
  options.threads = 2;
  const TableContents contents{kMaterial, TableKind::Mtc, values, {}};
  REQUIRE_FALSE(write_table(dir.file("loop.mtc"), contents, options));
  options.size_blocks_by_sample = true;
  REQUIRE_FALSE(write_table(dir.file("sample.mtc"), contents, options));
  options.threads = 1;
  REQUIRE_FALSE(write_table(dir.file("sample1.mtc"), contents, options));
  CHECK(open_ok(dir.file("loop.mtc"))->positions_per_block() == 2048);
  // The estimate was right, so the one pass at 2048 wrote what the loop wrote after two.
  CHECK(testing::read_bytes(dir.file("sample.mtc")) == testing::read_bytes(dir.file("loop.mtc")));
  CHECK(testing::read_bytes(dir.file("sample1.mtc")) == testing::read_bytes(dir.file("sample.mtc")));
}

TEST_CASE("a sample that underestimates the blocks costs a pass, never the bound", "[table]") {
  testing::TempDir dir;
  const std::vector<std::uint16_t> values = sizing_table(true);
  WriteOptions options;
  options.positions_per_block = 4096;
  options.max_average_block_bytes = 500;  // three noisy blocks in four: ~750 a block at 4096
  options.zstd_level = 9;
  options.size_blocks_by_sample = true;
  REQUIRE_FALSE(write_table(dir.file("t.mtc"), {kMaterial, TableKind::Mtc, values, {}}, options));
  const auto t = open_ok(dir.file("t.mtc"));
  CHECK(t->positions_per_block() == 2048);  // the sample saw only constant blocks and said 4096
  std::uint64_t bytes = 0;
  for (std::uint64_t b = 0; b < t->block_count(); ++b) bytes += t->block_bytes(b);
  CHECK(bytes <= 500 * t->block_count());
  CHECK(read_all(*t) == values);
}

namespace {

std::uint16_t format_version_of(const std::vector<std::uint8_t>& file) {
  return static_cast<std::uint16_t>(file.at(8) | (file.at(9) << 8));
}

}  // namespace

TEST_CASE("the compact block table (format 2) holds the same blocks in 10 fewer bytes each", "[table]") {
  testing::TempDir dir;
  // 300 blocks: several groups of 64 blocks (the reader sums sizes from the
  // start of a group), a short last block, and a dictionary between the block
  // table and the blocks.
  const auto t = testing::tablebase_like(300 * 512 - 77, 300, 30, 21);
  WriteOptions options;
  options.positions_per_block = 512;
  options.dictionary_bytes = 1024;
  REQUIRE_FALSE(write_table(dir.file("wide.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
  options.compact_block_table = true;
  REQUIRE_FALSE(write_table(dir.file("compact.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
  const auto wide_bytes = testing::read_bytes(dir.file("wide.wdl"));
  const auto compact_bytes = testing::read_bytes(dir.file("compact.wdl"));
  CHECK(format_version_of(wide_bytes) == 1);
  CHECK(format_version_of(compact_bytes) == 2);
  const auto wide = open_ok(dir.file("wide.wdl"));
  const auto compact = open_ok(dir.file("compact.wdl"));
  REQUIRE(compact->block_count() == 300);
  CHECK(compact_bytes.size() + 10 * 300 == wide_bytes.size());
  for (std::uint64_t b = 0; b < 300; ++b) REQUIRE(compact->block_bytes(b) == wide->block_bytes(b));
  CHECK(compact->block_bytes(300) == 0);
  CHECK(read_all(*compact) == read_all(*wide));
  CHECK_FALSE(compact->verify_all());
  // The blocks themselves are the same bytes: only the table before them differs.
  CHECK(std::equal(compact_bytes.end() - 2000, compact_bytes.end(), wide_bytes.end() - 2000));
}

TEST_CASE("a block too large for a 16-bit size keeps the wide block table", "[table]") {
  testing::TempDir dir;
  // 40,000 random 16-bit values do not compress: one frame of ~80 KB.
  const auto values = testing::random_values(40000, 65535, 9);
  WriteOptions options;
  options.positions_per_block = 40000;
  options.compact_block_table = true;
  REQUIRE_FALSE(write_table(dir.file("wide.dtw"), {kMaterial, TableKind::Dtw, values, {}}, options));
  const auto r = open_ok(dir.file("wide.dtw"));
  CHECK(r->block_bytes(0) > 65535);
  CHECK(format_version_of(testing::read_bytes(dir.file("wide.dtw"))) == 1);
  CHECK(read_all(*r) == values);
}

TEST_CASE("zstd's optimal parser gives other bytes, the same values, the same bytes on any thread count", "[table]") {
  testing::TempDir dir;
  const auto t = testing::tablebase_like(100000, 700, 40, 17);
  WriteOptions options;
  options.positions_per_block = 4096;
  options.zstd_level = 9;
  REQUIRE_FALSE(write_table(dir.file("level.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
  options.zstd_optimal_parsing = true;
  REQUIRE_FALSE(write_table(dir.file("optimal.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
  options.threads = 3;
  REQUIRE_FALSE(write_table(dir.file("optimal3.wdl"), {kMaterial, TableKind::Wdl, t.values, t.dont_care}, options));
  const auto optimal_bytes = testing::read_bytes(dir.file("optimal.wdl"));
  CHECK(optimal_bytes != testing::read_bytes(dir.file("level.wdl")));
  CHECK(optimal_bytes == testing::read_bytes(dir.file("optimal3.wdl")));
  const auto level = read_all(*open_ok(dir.file("level.wdl")));
  const auto optimal = read_all(*open_ok(dir.file("optimal.wdl")));
  CHECK(optimal == level);
  for (std::size_t i = 0; i < optimal.size(); ++i)
    if (!t.dont_care[i]) REQUIRE(optimal[i] == t.values[i]);
}
