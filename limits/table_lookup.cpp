#include "limits/table_lookup.h"

#include <algorithm>

#include "index/colour.h"
#include "index/draw_rule_class.h"
#include "limits/table_set.h"

namespace dtb {

std::optional<std::uint16_t> LimitsTables::value(const Position& p, TableKind kind, TableError* error) {
  const Position w = white_to_move_form(p);
  if (w.white == 0 || w.black == 0) return std::nullopt;
  const Material m = material_of(w);
  OpenTable& t = open_[{m, kind}];
  if (!t.reader) {
    TableError e;
    t.reader = TableReader::open(table_path(dir_, m, kind), &e);
    if (!t.reader) {
      if (e.status != TableStatus::Missing && error) *error = e;
      open_.erase({m, kind});
      return std::nullopt;
    }
    t.index = std::make_unique<PositionIndex>(m);
    if (t.reader->positions() != t.index->size() || t.reader->kind() != kind) {
      if (error) *error = {TableStatus::BadHeader, table_path(dir_, m, kind) + ": not the expected table"};
      open_.erase({m, kind});
      return std::nullopt;
    }
  }
  const std::uint64_t i = t.index->rank(w), per_block = t.reader->positions_per_block();
  if (t.block != i / per_block) {
    if (TableError e = t.reader->decode_block(i / per_block, t.values)) {
      if (error) *error = e;
      t.block = ~std::uint64_t{0};
      return std::nullopt;
    }
    t.block = i / per_block;
  }
  return t.values[i % per_block];
}

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

std::optional<Outcome> LimitsTables::dtw(const Position& p, TableError* error) {
  const auto v = value(p, TableKind::Dtw, error);
  if (!v) return std::nullopt;
  return decode_dtw(*v);
}

std::optional<Wdl> LimitsTables::rule_value(const Position& p, int plies_in_class, TableError* error) {
  const Position w = white_to_move_form(p);
  if (w.white == 0 || w.black == 0) return std::nullopt;
  const int limit = limit_plies(rule_class(material_of(w)));
  if (limit == 0) return std::nullopt;
  if (plies_in_class < 0 || plies_in_class > limit) {
    if (error)
      *error = {TableStatus::InvalidArgument, "plies in class " + std::to_string(plies_in_class) +
                                                  " is outside 0.." + std::to_string(limit)};
    return std::nullopt;
  }
  const auto v = value(p, TableKind::Rule, error);
  if (!v) return std::nullopt;
  return rule_value_with_budget(decode_rule(*v), limit - plies_in_class);
}

}  // namespace dtb
