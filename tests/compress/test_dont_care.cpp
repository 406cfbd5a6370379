// The don't-care fill keeps every value that matters and repeats the
// previous stored value elsewhere.
#include <catch2/catch.hpp>

#include "compress/dont_care_fill.h"

using namespace dtb;

TEST_CASE("don't-care positions repeat the previous stored value", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 0, 1, 1, 0, 2, 2, 0};
  const std::vector<std::uint8_t> dc = {1, 0, 1, 1, 0, 1, 0, 1};
  CHECK(fill_dont_care(values, dc) == std::vector<std::uint16_t>{0, 0, 0, 0, 0, 0, 2, 2});
}

TEST_CASE("without don't-care marks the values are unchanged", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 0, 1};
  CHECK(fill_dont_care(values, {}) == values);
}

TEST_CASE("a table made only of don't-care positions stores zeros", "[dont_care]") {
  const std::vector<std::uint16_t> values = {2, 1, 2};
  const std::vector<std::uint8_t> dc = {1, 1, 1};
  CHECK(fill_dont_care(values, dc) == std::vector<std::uint16_t>{0, 0, 0});
}
