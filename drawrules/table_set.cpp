#include "drawrules/table_set.h"

#include <stdexcept>

namespace dtb {

void TableSet::put(const Material& m, std::vector<std::uint16_t> values) {
  index(m);
  tables_[m] = std::move(values);
}

const std::vector<std::uint16_t>& TableSet::values(const Material& m) const {
  const auto it = tables_.find(m);
  if (it == tables_.end()) throw std::out_of_range("no table held for " + m.name());
  return it->second;
}

const PositionIndex& TableSet::index(const Material& m) {
  auto it = indexes_.find(m);
  if (it == indexes_.end()) it = indexes_.emplace(m, PositionIndex(m)).first;
  return it->second;
}

const PositionIndex& TableSet::index(const Material& m) const {
  const auto it = indexes_.find(m);
  if (it == indexes_.end()) throw std::out_of_range("no index held for " + m.name());
  return it->second;
}

std::optional<std::uint16_t> TableSet::lookup(const Position& p) const {
  const Position w = white_to_move_form(p);
  if (w.white == 0 || w.black == 0) return std::nullopt;
  const Material m = material_of(w);
  const auto it = tables_.find(m);
  if (it == tables_.end()) return std::nullopt;
  return it->second[indexes_.find(m)->second.rank(w)];
}

std::vector<Material> TableSet::materials() const {
  std::vector<Material> out;
  for (const auto& [m, v] : tables_) out.push_back(m);
  return out;
}

std::string table_path(const std::string& dir, const Material& m, TableKind kind) {
  return dir + "/" + m.name() + table_extension(kind);
}

TableError TableSet::write_all(const std::string& dir) const {
  for (const auto& [m, v] : tables_) {
    const TableContents contents{m, kind_, std::span<const std::uint16_t>(v), {}};
    if (TableError e = write_table(table_path(dir, m, kind_), contents)) return e;
  }
  return {};
}

TableError TableSet::load(const std::string& path) {
  TableError error;
  const std::unique_ptr<TableReader> reader = TableReader::open(path, &error);
  if (!reader) return error;
  if (reader->kind() != kind_)
    return {TableStatus::InvalidArgument, path + ": not a " + table_extension(kind_) + " table"};
  std::vector<std::uint16_t> all, block;
  all.reserve(reader->positions());
  for (std::uint64_t b = 0; b < reader->block_count(); ++b) {
    if (TableError e = reader->decode_block(b, block)) return e;
    all.insert(all.end(), block.begin(), block.end());
  }
  const Material m = reader->material();
  if (all.size() != index(m).size())
    return {TableStatus::BadHeader, path + ": position count does not match the index of " + m.name()};
  put(m, std::move(all));
  return {};
}

TableError TableSet::load_materials(const std::string& dir, const std::vector<Material>& materials,
                                    bool required) {
  for (const Material& m : materials) {
    TableError e = load(table_path(dir, m, kind_));
    if (e && (required || e.status != TableStatus::Missing)) return e;
  }
  return {};
}

}  // namespace dtb
