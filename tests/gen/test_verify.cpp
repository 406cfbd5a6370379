// dtb verify's library entry point: it passes on good tables, matches the
// committed checksums, and fails on a single changed value or a damaged file.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "compress/table_file.h"
#include "gen/table_loading.h"
#include "gen/verifier.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "tests/gen/test_tables.h"

using namespace dtb;
namespace fs = std::filesystem;

namespace {

// A copy of the 2- and 3-piece tables (small, so verify runs in a moment).
std::string copy_small_tables(const std::string& tag) {
  const std::string dir = gen::testing::make_temp_dir(tag);
  for (const auto& e : fs::directory_iterator(gen::testing::test_tables_dir())) {
    const auto m = parse_material(e.path().stem().string());
    if (e.path().extension() == ".wdl" && m && m->pieces() <= 3) fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  }
  return dir;
}

bool verify(const std::string& dir, std::string& failure, const std::string& checksums = "") {
  gen::VerifyOptions options;
  options.dir = dir;
  options.checksums_file = checksums;
  gen::VerifyReport report;
  return gen::verify_tables(options, report, failure);
}

}  // namespace

TEST_CASE("verify passes on the 2-4 piece tables and they match tables/CHECKSUMS") {
  const char* source = std::getenv("DTB_SOURCE_DIR");
  REQUIRE(source);
  std::string failure;
  const bool ok = verify(gen::testing::test_tables_dir(), failure, std::string(source) + "/tables/CHECKSUMS");
  INFO(failure);
  CHECK(ok);
}

TEST_CASE("verify fails when a single stored value is changed") {
  const std::string dir = copy_small_tables("changed");
  const Material m = *parse_material("KMvK");
  const std::string path = gen::wdl_table_path(dir, m);
  TableError error;
  auto reader = TableReader::open(path, &error);
  REQUIRE(reader);
  std::vector<std::uint16_t> values;
  for (std::uint64_t b = 0; b < reader->block_count(); ++b) {
    std::vector<std::uint16_t> block;
    REQUIRE(!reader->decode_block(b, block));
    values.insert(values.end(), block.begin(), block.end());
  }
  reader.reset();
  // Change the value of one position that need not capture (the stored
  // value of a capture position is "don't care").
  const PositionIndex index(m);
  std::uint64_t victim = 0;
  while (has_capture(index.unrank(victim))) ++victim;
  values[victim] = static_cast<std::uint16_t>((values[victim] + 1) % 3);
  std::vector<std::uint8_t> dont_care(values.size());
  for (std::uint64_t i = 0; i < values.size(); ++i) dont_care[i] = has_capture(index.unrank(i));
  const TableError written = write_table(path, TableContents{m, TableKind::Wdl, values, dont_care});
  INFO(written.message);
  REQUIRE(!written);

  std::string failure;
  CHECK_FALSE(verify(dir, failure));
  INFO(failure);
  CHECK(failure.find("KMvK") != std::string::npos);
  CHECK(failure.find("W:") != std::string::npos);  // the position, as a FEN
}

TEST_CASE("verify fails on a damaged file and on a wrong checksum list") {
  const std::string dir = copy_small_tables("damaged");
  std::string failure;
  REQUIRE(verify(dir, failure));

  // A checksum list that disagrees about one file.
  {
    std::ofstream list(dir + "/CHECKSUMS");
    list << "0000000000000000  KvK.wdl\n";
  }
  CHECK_FALSE(verify(dir, failure, dir + "/CHECKSUMS"));
  CHECK(failure.find("KvK.wdl") != std::string::npos);

  // One flipped byte near the end of a file (in its last block).
  const std::string path = dir + "/KMvM.wdl";
  const auto size = fs::file_size(path);
  {
    std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
    f.seekg(static_cast<std::streamoff>(size - 3));
    char c = 0;
    f.get(c);
    f.seekp(static_cast<std::streamoff>(size - 3));
    f.put(static_cast<char>(c ^ 0x5a));
  }
  CHECK_FALSE(verify(dir, failure));
  INFO(failure);
  CHECK(failure.find("KMvM") != std::string::npos);
}
