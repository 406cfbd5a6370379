// Material signatures: canonical names, parsing and rejection of bad names.
#include <catch2/catch.hpp>

#include "index/material.h"
#include "rules/notation.h"
#include "index_test_helpers.h"

using namespace dtb;

TEST_CASE("material names follow the canonical form") {
  CHECK(Material{2, 1, 1, 0}.name() == "KKMvK");
  CHECK(Material{0, 1, 0, 1}.name() == "MvM");
  CHECK(Material{1, 2, 2, 0}.name() == "KMMvKK");
  CHECK(Material{1, 2, 2, 0}.reversed().name() == "KKvKMM");
}

TEST_CASE("every material up to 7 pieces survives name -> parse") {
  for (int n = 2; n <= 7; ++n)
    for (const Material& m : test::materials_with(n)) {
      const auto parsed = parse_material(m.name());
      REQUIRE(parsed);
      CHECK(*parsed == m);
    }
}

TEST_CASE("malformed material names are rejected with a reason") {
  for (const char* bad : {"", "v", "KvK v", "MKvK", "KvMK", "Kv", "vK", "KvKvK", "kvk", "KxK", "K v K",
                          "KvK ", "KKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKKvK",
                          "MMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMMvK"}) {
    INFO("input '" << bad << "'");
    std::string error;
    CHECK_FALSE(parse_material(bad, &error));
    CHECK_FALSE(error.empty());
  }
  std::string error;
  parse_material("MKvK", &error);
  CHECK_THAT(error, Catch::Contains("before"));
  parse_material("KvX", &error);
  CHECK_THAT(error, Catch::Contains("'X'"));
  parse_material("Kv", &error);
  CHECK_THAT(error, Catch::Contains("Black has no pieces"));
}

TEST_CASE("material_of counts kings and men of each colour") {
  const auto pos = parse_fen("W:W31,32,K45:B1,K3,K4");
  REQUIRE(pos);
  CHECK(material_of(*pos) == Material{1, 2, 2, 1});
  CHECK(material_of(colour_reversed(*pos)) == Material{2, 1, 1, 2});
}
