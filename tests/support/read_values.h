// Every value of a table file, in index order (don't-care positions: whatever
// the writer stored there): for the tests and the test tools (stretch_mtc,
// change_one_value) that rewrite a table with values changed.
#pragma once

#include <cstdint>
#include <vector>

#include "compress/table_file.h"

namespace dtb::test {

/// The values of every block of `reader`, or the first block's error.
inline TableError read_all_values(const TableReader& reader, std::vector<std::uint16_t>& values) {
  values.clear();
  std::vector<std::uint16_t> block;
  for (std::uint64_t b = 0; b < reader.block_count(); ++b) {
    if (TableError e = reader.decode_block(b, block)) return e;
    values.insert(values.end(), block.begin(), block.end());
  }
  return {};
}

}  // namespace dtb::test
