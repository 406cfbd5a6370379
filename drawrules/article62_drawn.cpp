#include "drawrules/article62_drawn.h"

#include <filesystem>
#include <memory>

#include "compress/table_file.h"
#include "solver/table_loading.h"
#include "index/position_index.h"
#include "rules/article62.h"
#include "rules/movegen.h"

namespace dtb::gen {

bool find_drawn_by_article62(const std::string& dir, const Material& m, int plies_since_conversion,
                          std::size_t limit, DrawnScan& out, std::string& error) {
  out = DrawnScan{};
  if (plies_since_conversion < 0 || plies_since_conversion > kMaxPliesSinceConversion) {
    error = "the count must be 0.." + std::to_string(kMaxPliesSinceConversion) + " plies";
    return false;
  }
  out.from_r62 = std::filesystem::exists(r62_table_path(dir, m));
  const std::string plies_path = out.from_r62 ? r62_table_path(dir, m) : mtc_table_path(dir, m);
  std::unique_ptr<TableReader> wdl, plies;
  TableError e = open_checked_table(wdl_table_path(dir, m), m, wdl);
  if (!e) e = open_checked_table(plies_path, m, plies, out.from_r62 ? TableKind::Article62 : TableKind::Mtc);
  if (e) {
    error = e.message;
    return false;
  }
  const PositionIndex index(m);
  const int left = kArticle62Plies - plies_since_conversion;  // plies the count still allows
  std::vector<std::uint16_t> stored, values;
  std::uint64_t wdl_block = ~std::uint64_t{0};
  for (std::uint64_t b = 0; b < plies->block_count(); ++b) {
    if ((e = plies->decode_block(b, stored))) break;
    const std::uint64_t first = b * plies->positions_per_block();
    for (std::size_t k = 0; k < stored.size(); ++k) {
      if (stored[k] <= left) continue;
      const std::uint64_t i = first + k;
      // The .wdl has its own block size: decode the block holding i when it changes.
      if (i / wdl->positions_per_block() != wdl_block) {
        wdl_block = i / wdl->positions_per_block();
        if ((e = wdl->decode_block(wdl_block, values))) break;
      }
      const auto value = static_cast<Wdl>(values[i % wdl->positions_per_block()]);
      if (value == Wdl::Draw) continue;
      const Position p = index.unrank(i);
      if (has_capture(p)) continue;  // stored values there mean nothing (and a capture converts at once)
      ++(value == Wdl::Win ? out.wins : out.losses);
      if (out.listed.size() < limit) out.listed.push_back({i, p, value, stored[k]});
    }
    if (e) break;
  }
  if (e) {
    error = e.message;
    return false;
  }
  return true;
}

}  // namespace dtb::gen
