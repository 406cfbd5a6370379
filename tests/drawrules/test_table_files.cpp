// .dtw and .rule files: written through compress/ and read back whole
// (TableSet::load), for the 2-3 piece materials; a damaged file is reported,
// never trusted. Reading them one value at a time is the probe library's
// business: tests/serve/test_limit_values.cpp checks it against the builders.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <random>

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "verify/table_verifier.h"

using namespace dtb;

TEST_CASE("dtw and rule tables survive a round trip through files") {
  const TableSet dtw = build_dtw_up_to(3);
  const TableSet rules = build_rules(dtw, {}, 3);
  const std::string dir = (std::filesystem::temp_directory_path() /
                           ("dtb-limits-" + std::to_string(std::random_device{}()))).string();
  std::filesystem::create_directories(dir);
  REQUIRE(!dtw.write_all(dir));
  REQUIRE(!rules.write_all(dir));

  TableSet dtw_back(TableKind::Dtw), rules_back(TableKind::Rule);
  REQUIRE(!dtw_back.load_materials(dir, dtw.materials(), true));
  REQUIRE(!rules_back.load_materials(dir, rules.materials(), true));
  for (const Material& m : dtw.materials()) CHECK(dtw_back.values(m) == dtw.values(m));
  for (const Material& m : rules.materials()) CHECK(rules_back.values(m) == rules.values(m));

  // A flipped byte in the middle of a file must be caught by its checksum.
  const std::string victim = table_path(dir, *parse_material("KMvK"), TableKind::Dtw);
  {
    std::fstream f(victim, std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(victim) / 2));
    char byte = 0;
    f.read(&byte, 1);
    f.seekp(static_cast<std::streamoff>(std::filesystem::file_size(victim) / 2));
    byte = static_cast<char>(byte ^ 0x5A);
    f.write(&byte, 1);
  }
  TableSet damaged(TableKind::Dtw);
  CHECK(damaged.load(victim));
  std::filesystem::remove_all(dir);
}

TEST_CASE("the verifier catches a single wrong dtw or rule value") {
  TableSet dtw = build_dtw_up_to(3);
  TableSet rules = build_rules(dtw, {}, 3);
  const Material m = *parse_material("KMvK");
  CHECK(verify_dtw(dtw, m).ok());
  CHECK(verify_rules(rules, dtw, m).ok());
  // A win one ply longer than it is: its own check fails.
  std::vector<std::uint16_t> values = dtw.values(m);
  const auto win = std::find_if(values.begin(), values.end(),
                                [](std::uint16_t v) { return decode_dtw(v).value == Wdl::Win; });
  REQUIRE(win != values.end());
  *win = static_cast<std::uint16_t>(*win + 2);
  dtw.put(m, values);
  CHECK(verify_dtw(dtw, m).mismatches >= 1);
  // A rule budget turned into "never decided".
  std::vector<std::uint16_t> budgets = rules.values(m);
  const auto decided = std::find_if(budgets.begin(), budgets.end(), [](std::uint16_t v) { return v != 0; });
  REQUIRE(decided != budgets.end());
  *decided = 0;
  rules.put(m, budgets);
  const VerifyResult r = verify_rules(rules, build_dtw_up_to(3), m);
  CHECK(r.mismatches >= 1);
  CHECK(r.message.find("KMvK") != std::string::npos);
}
