// The MTC counts recorded at build time (gen/mtc_sidecar.h) are the counts
// `dtb rules --article 6.2` gets by decoding the tables, and a sidecar that
// is damaged, stale or missing is recounted instead of trusted.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "gen/mtc_report.h"
#include "gen/mtc_sidecar.h"
#include "gen/table_builder.h"
#include "solver/table_loading.h"
#include "tests/gen/test_tables.h"

using namespace dtb;
namespace fs = std::filesystem;

namespace {

// Every field of two reports, table by table.
void expect_same_reports(const std::vector<gen::MtcTableReport>& a, const std::vector<gen::MtcTableReport>& b) {
  REQUIRE(a.size() == b.size());
  for (std::size_t k = 0; k < a.size(); ++k) {
    INFO(a[k].material.name());
    CHECK(a[k].material == b[k].material);
    CHECK(a[k].positions == b[k].positions);
    CHECK(a[k].win == b[k].win);
    CHECK(a[k].draw == b[k].draw);
    CHECK(a[k].loss == b[k].loss);
    CHECK(a[k].win_mtc == b[k].win_mtc);
    CHECK(a[k].loss_mtc == b[k].loss_mtc);
    CHECK(a[k].longest_win == b[k].longest_win);
    CHECK(a[k].longest_loss == b[k].longest_loss);
    CHECK(a[k].longest_win_index == b[k].longest_win_index);
    CHECK(a[k].longest_loss_index == b[k].longest_loss_index);
    CHECK(a[k].exact == b[k].exact);
  }
}

std::vector<gen::MtcTableReport> report(const std::string& dir, bool recount) {
  std::vector<gen::MtcTableReport> out;
  std::string error;
  INFO(error);
  REQUIRE(gen::mtc_report(dir, false, recount, out, error));
  return out;
}

const std::string& mtc_tables_up_to_3() {
  static const std::string dir = gen::testing::make_mtc_tables_up_to_3("mtc-sidecar");
  return dir;
}

}  // namespace

TEST_CASE("a build with MTC records every table's MTC counts, equal to a recount") {
  const std::string& dir = mtc_tables_up_to_3();
  const auto recounted = report(dir, true);
  REQUIRE(recounted.size() == 16);
  for (const gen::MtcTableReport& t : recounted) {
    INFO(t.material.name());
    const auto recorded = gen::read_mtc_sidecar(dir, t.material);
    REQUIRE(recorded);
    CHECK(recorded->win_mtc == t.win_mtc);
  }
  const auto from_sidecars = report(dir, false);
  expect_same_reports(from_sidecars, recounted);
  // Some tables must have wins and losses of more than one ply, or the
  // comparison above proves little.
  int longest = 0;
  for (const gen::MtcTableReport& t : recounted) longest = std::max(longest, t.longest_win);
  CHECK(longest > 1);
}

TEST_CASE("an MTC sidecar that is damaged, stale or missing is recounted, not trusted") {
  const std::string source = mtc_tables_up_to_3();
  const std::string dir = gen::testing::make_temp_dir("mtc-sidecar-damage");
  for (const auto& e : fs::directory_iterator(source)) fs::copy_file(e.path(), dir + "/" + e.path().filename().string());
  const auto expected = report(source, true);

  const Material kkvk = parse_material("KKvK").value();
  const Material kmvk = parse_material("KMvK").value();
  const Material kvm = parse_material("KvM").value();
  // The index of the longest win changed (to one the counts cannot rule
  // out): the line's own checksum no longer matches.
  const std::string damaged = gen::mtc_sidecar_path(dir, kkvk);
  std::string text;
  std::getline(std::ifstream(damaged), text);
  std::size_t digit = 0;
  for (int field = 0; field < 8; ++field) digit = text.find(' ', digit) + 1;  // the 9th: longest win's index
  text[digit] = text[digit] == '1' ? '2' : '1';
  std::ofstream(damaged, std::ios::trunc) << text << '\n';
  CHECK_FALSE(gen::read_mtc_sidecar(dir, kkvk));
  // Another material's line under this one's name.
  fs::copy_file(gen::mtc_sidecar_path(dir, kvm), gen::mtc_sidecar_path(dir, kmvk), fs::copy_options::overwrite_existing);
  CHECK_FALSE(gen::read_mtc_sidecar(dir, kmvk));
  // Missing.
  fs::remove(gen::mtc_sidecar_path(dir, kvm));
  CHECK_FALSE(gen::read_mtc_sidecar(dir, kvm));
  expect_same_reports(report(dir, false), expected);

  // Stale: the .mtc file is not the one the counts came from.
  const Material kvk = parse_material("KvK").value();
  REQUIRE(gen::read_mtc_sidecar(dir, kvk));
  std::ofstream(gen::mtc_table_path(dir, kvk), std::ios::binary | std::ios::app) << '\0';
  CHECK_FALSE(gen::read_mtc_sidecar(dir, kvk));
}
