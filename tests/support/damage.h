// Damaging a table file on purpose, for the tests that a damaged table is
// reported (file and block), never trusted. Shared by the tests of every part.
#pragma once

#include <filesystem>
#include <fstream>
#include <string>

namespace dtb::test {

/// Flip the bits of one byte of a file in the last quarter, where block data
/// lies in a table file (the header, block table and dictionary come first).
inline void damage_last_quarter(const std::string& path) {
  const auto at = static_cast<std::streamoff>(std::filesystem::file_size(path) * 3 / 4);
  std::fstream f(path, std::ios::in | std::ios::out | std::ios::binary);
  f.seekg(at);
  char c = 0;
  f.get(c);
  f.seekp(at);
  f.put(static_cast<char>(c ^ 0x5A));
}

}  // namespace dtb::test
