// stretch_mtc FILE MATERIAL PLIES: rewrite the `.mtc` table FILE of MATERIAL
// with every conversion PLIES plies longer (draws stay 0). A valid table,
// checksums and all, that makes the tables converting into MATERIAL need
// `.r62` tables at 2-3 pieces, where no real table does (article 6.2 only
// bites at 6 pieces): what the shell tests of `dtb gen --article62` build on.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/material.h"
#include "tests/support/read_values.h"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "stretch_mtc: %s\n", message.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) return fail("usage: stretch_mtc FILE MATERIAL PLIES");
  const std::string path = argv[1];
  const auto material = dtb::parse_material(argv[2]);
  int plies = 0;
  const std::string_view text = argv[3];
  if (!material) return fail(std::string("not a material: ") + argv[2]);
  if (std::from_chars(text.data(), text.data() + text.size(), plies).ec != std::errc{} || plies < 0)
    return fail("not a count of plies: " + std::string(text));
  dtb::TableError error;
  const auto reader = dtb::TableReader::open(path, &error);
  if (!reader) return fail(path + ": " + error.message);
  std::vector<std::uint16_t> values;
  if (const dtb::TableError e = dtb::test::read_all_values(*reader, values)) return fail(path + ": " + e.message);
  for (std::uint16_t& v : values)
    if (v > 0) v = static_cast<std::uint16_t>(v + plies);
  if (const dtb::TableError e = dtb::write_table(path, dtb::TableContents{*material, dtb::TableKind::Mtc, values, {}}))
    return fail(path + ": " + e.message);
  return 0;
}
