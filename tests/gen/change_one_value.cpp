// change_one_value FILE MATERIAL [FROM]: rewrite the `.mtc` or `.r62` table FILE of
// MATERIAL with one value changed, the kind of damage a checksum cannot see
// (the file is rewritten whole, its checksums made anew), so that only
// `dtb verify`'s re-derivation from successors can catch it. Prints the
// position's index and FEN.
//
// The position changed is the first one from index FROM (default 0) that
// need not capture (a capture position's stored value may be don't-care)
// and whose value is a decision that stays plausible after the change:
//   - `.mtc`: a win or loss decided after 2 or more plies, stored 2 plies
//     longer (the parity, and so the side that wins, is kept);
//   - `.r62`: a result forced in 2 to 50 plies, stored one ply sooner.
// The rewrite uses a fast zstd level and no dictionary: the reader takes any
// level, and a 6-piece table is rewritten in seconds, not a minute.
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/movegen.h"
#include "rules/notation.h"
#include "tests/support/read_values.h"

namespace {

int fail(const std::string& message) {
  std::fprintf(stderr, "change_one_value: %s\n", message.c_str());
  return 1;
}

// The stored value `v` changed as the header says, or -1 where `v` is not one to change.
int changed(dtb::TableKind kind, std::uint16_t v) {
  if (kind == dtb::TableKind::Mtc) return v >= 2 ? v + 2 : -1;
  return v >= 2 && v <= 50 ? v - 1 : -1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) return fail("usage: change_one_value FILE MATERIAL [FROM]");
  const std::string path = argv[1];
  const auto material = dtb::parse_material(argv[2]);
  if (!material) return fail(std::string("not a material: ") + argv[2]);
  std::uint64_t from = 0;
  if (argc == 4) {
    const std::string_view text = argv[3];
    if (std::from_chars(text.data(), text.data() + text.size(), from).ec != std::errc{})
      return fail("not an index: " + std::string(text));
  }
  dtb::TableError error;
  const auto reader = dtb::TableReader::open(path, &error);
  if (!reader) return fail(path + ": " + error.message);
  const dtb::TableKind kind = reader->kind();
  if (kind != dtb::TableKind::Mtc && kind != dtb::TableKind::Article62)
    return fail(path + ": not a .mtc or .r62 table");
  std::vector<std::uint16_t> values;
  if (const dtb::TableError e = dtb::test::read_all_values(*reader, values)) return fail(path + ": " + e.message);
  const dtb::PositionIndex index(*material);
  if (values.size() != index.size()) return fail(path + ": does not hold " + material->name());
  for (std::uint64_t i = from; i < values.size(); ++i) {
    const int to = changed(kind, values[i]);
    if (to < 0) continue;
    const dtb::Position p = index.unrank(i);
    if (dtb::has_capture(p)) continue;
    values[i] = static_cast<std::uint16_t>(to);
    dtb::WriteOptions options;
    options.zstd_level = 1;
    options.dictionary_bytes = 0;
    options.threads = 2;
    if (const dtb::TableError e = dtb::write_table(path, dtb::TableContents{*material, kind, values, {}}, options))
      return fail(path + ": " + e.message);
    std::printf("%llu %s\n", static_cast<unsigned long long>(i), dtb::to_fen(p).c_str());
    return 0;
  }
  return fail(path + ": no position from " + std::to_string(from) +
              " on that need not capture holds a value to change");
}
