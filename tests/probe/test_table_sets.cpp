// How a handle finds its tables: a set split over directories answers like
// the merged one, two different files of one name are refused, a piece limit
// hides the larger tables, and the cache-only probe never reads a file.
#include <catch2/catch.hpp>
#include <filesystem>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "probe_test_support.h"
#include "tests/support/temp_dir.h"

namespace dtb::test {
namespace {

namespace fs = std::filesystem;

struct Handle {
  dtb_tables* tables = nullptr;
  explicit Handle(const std::string& dirs, int max_pieces = 0) {
    dtb_error e{};
    INFO(dirs);
    REQUIRE(dtb_open_limited(dirs.c_str(), 8u << 20, max_pieces, &tables, &e) == DTB_OK);
  }
  ~Handle() { dtb_close(tables); }
};

void link_into(const fs::path& file, const std::string& dir) {
  fs::create_symlink(fs::absolute(file), fs::path(dir) / file.filename());
}

// Every 97th position of every material of the set, White to move.
std::vector<dtb_position> sample_positions(const std::string& dir) {
  std::vector<dtb_position> out;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".wdl") continue;
    const std::string material = entry.path().stem().string();
    std::uint64_t size = 0;
    REQUIRE(dtb_material_size(material.c_str(), &size, nullptr) == DTB_OK);
    for (std::uint64_t i = 0; i < size; i += 97 * 31) {
      dtb_position p;
      REQUIRE(dtb_material_positions(material.c_str(), DTB_WHITE, i, &p, 1, nullptr) == DTB_OK);
      out.push_back(p);
    }
  }
  return out;
}

}  // namespace

TEST_CASE("a table set split over two directories answers like the merged one", "[table-sets]") {
  const std::string merged = mtc_tables_dir();
  const TempDir a, b;
  bool to_a = true;
  for (const auto& entry : fs::directory_iterator(merged)) {  // every kind of file, alternating
    link_into(entry.path(), to_a ? a.path() : b.path());
    to_a = !to_a;
  }
  Handle one(merged), split(a.path() + ":" + b.path());
  CHECK(dtb_max_pieces(split.tables) == dtb_max_pieces(one.tables));
  for (const dtb_position& p : sample_positions(merged)) {
    dtb_wdl w1 = DTB_DRAW, w2 = DTB_DRAW;
    int m1 = 0, m2 = 0;
    CHECK(dtb_probe_wdl(split.tables, &p, &w2, nullptr) == dtb_probe_wdl(one.tables, &p, &w1, nullptr));
    CHECK(w1 == w2);
    CHECK(dtb_probe_mtc(split.tables, &p, &w2, &m2, nullptr) == dtb_probe_mtc(one.tables, &p, &w1, &m1, nullptr));
    CHECK(m1 == m2);
    CHECK(dtb_probe_rules(split.tables, &p, 30, -1, &w2, nullptr) == dtb_probe_rules(one.tables, &p, 30, -1, &w1, nullptr));
    CHECK(w1 == w2);
  }
}

TEST_CASE("two directories with different files of one name are refused, naming both", "[table-sets]") {
  const TempDir a, b;
  fs::copy_file(fs::path(mtc_tables_dir()) / "KvK.wdl", fs::path(a.path()) / "KvK.wdl");
  fs::copy_file(fs::path(mtc_tables_dir()) / "KKvK.wdl", fs::path(b.path()) / "KvK.wdl");  // another table
  dtb_tables* tables = nullptr;
  dtb_error e{};
  CHECK(dtb_open((a.path() + ":" + b.path()).c_str(), 1u << 20, &tables, &e) == DTB_INVALID_ARGUMENT);
  CHECK(tables == nullptr);
  CHECK(std::string(e.message).find(a.path() + "/KvK.wdl") != std::string::npos);
  CHECK(std::string(e.message).find(b.path() + "/KvK.wdl") != std::string::npos);
  // The same file twice (one directory named twice, or an identical copy) is one table.
  fs::remove(fs::path(b.path()) / "KvK.wdl");
  fs::copy_file(fs::path(a.path()) / "KvK.wdl", fs::path(b.path()) / "KvK.wdl");
  Handle twice(a.path() + ":" + b.path() + ":" + a.path());
  CHECK(dtb_max_pieces(twice.tables) == 2);
}

TEST_CASE("a piece limit hides the larger tables", "[table-sets]") {
  Handle limited(mtc_tables_dir(), 3);
  CHECK(dtb_max_pieces(limited.tables) == 3);
  const dtb_position four = c_fen("W:WK1,K2:BK49,K50");
  const dtb_position three = c_fen("W:WK1,K2:BK50");
  dtb_wdl w;
  CHECK(dtb_probe_wdl(limited.tables, &four, &w, nullptr) == DTB_TOO_MANY_PIECES);
  CHECK(dtb_probe_wdl(limited.tables, &three, &w, nullptr) == DTB_OK);
  dtb_tables* tables = nullptr;
  CHECK(dtb_open_limited(mtc_tables_dir().c_str(), 1u << 20, -1, &tables, nullptr) == DTB_INVALID_ARGUMENT);
}

TEST_CASE("the cache-only probe answers from the cache and never reads a table", "[table-sets]") {
  Handle h(mtc_tables_dir());
  const dtb_position p = c_fen("W:WK46,28:B3");
  dtb_wdl cached = DTB_DRAW, loaded = DTB_DRAW;
  dtb_error e{};
  CHECK(dtb_probe_wdl_cached(h.tables, &p, &cached, &e) == DTB_NOT_CACHED);
  CHECK(std::string(e.material) == "KMvM");
  CHECK(std::string(dtb_status_string(DTB_NOT_CACHED)) == "not cached");
  REQUIRE(dtb_probe_wdl(h.tables, &p, &loaded, nullptr) == DTB_OK);
  REQUIRE(dtb_probe_wdl_cached(h.tables, &p, &cached, nullptr) == DTB_OK);
  CHECK(cached == loaded);
  // A capture position is resolved from cached successors alone, or not at all.
  const dtb_position capture = c_fen("W:W32,K40:B27,K3,K50");
  CHECK(dtb_probe_wdl_cached(h.tables, &capture, &cached, nullptr) == DTB_NOT_CACHED);
  REQUIRE(dtb_probe_wdl(h.tables, &capture, &loaded, nullptr) == DTB_OK);
  REQUIRE(dtb_probe_wdl_cached(h.tables, &capture, &cached, nullptr) == DTB_OK);
  CHECK(cached == loaded);
}

}  // namespace dtb::test
