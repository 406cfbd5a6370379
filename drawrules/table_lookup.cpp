#include "drawrules/table_lookup.h"

#include <algorithm>
#include <vector>

#include "drawrules/table_set.h"
#include "compress/value_encoding.h"

namespace dtb {

std::optional<int> longest_win_in_file(const std::string& dir, const Material& m, TableError* error) {
  TableError e;
  const auto reader = TableReader::open(table_path(dir, m, TableKind::Dtw), &e);
  if (reader && reader->kind() != TableKind::Dtw)
    e = {TableStatus::BadHeader, table_path(dir, m, TableKind::Dtw) + ": not a .dtw table"};
  int longest = -1;
  std::vector<std::uint16_t> block;
  for (std::uint64_t b = 0; !e && b < reader->block_count(); ++b) {
    e = reader->decode_block(b, block);
    for (const std::uint16_t v : block) {
      const Outcome o = decode_dtw(v);
      if (o.value == Wdl::Win) longest = std::max<int>(longest, o.plies);
    }
  }
  if (e) {
    if (error) *error = e;
    return std::nullopt;
  }
  return longest;
}

}  // namespace dtb
