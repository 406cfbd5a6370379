// Reading and rewriting the stored values of a table file, for the tests
// that plant a wrong or changed value on purpose. Shared by every part.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/material.h"
#include "tests/support/read_values.h"

namespace dtb::test {

/// Every value of a table file, in index order (don't-care positions:
/// whatever the writer stored there).
inline std::vector<std::uint16_t> read_raw_values(const std::string& path) {
  TableError error;
  const auto reader = TableReader::open(path, &error);
  REQUIRE(reader);
  std::vector<std::uint16_t> values;
  REQUIRE_FALSE(read_all_values(*reader, values));
  return values;
}

/// Rewrite a table file of kind `kind` with its values changed by `change`
/// (no don't-care positions: every value is stored as given).
template <class Change>
void rewrite_values(const std::string& path, const Material& m, TableKind kind, Change change) {
  std::vector<std::uint16_t> values = read_raw_values(path);
  change(values);
  REQUIRE_FALSE(write_table(path, TableContents{m, kind, values, {}}));
}

}  // namespace dtb::test
