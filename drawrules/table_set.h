// Tables held in memory while building: one vector of encoded uint16 values
// per material (White to move, in PositionIndex order), plus the index of
// each material. Lookups of a position with either side to move go through
// colour reversal, as on disk.
//
// Thread safety: put() is for one thread between parallel phases; every
// const member may be called from many threads at once.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/colour.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/position.h"

namespace dtb {

class TableSet {
 public:
  explicit TableSet(TableKind kind) : kind_(kind) {}

  TableKind kind() const { return kind_; }
  void put(const Material& m, std::vector<std::uint16_t> values);
  bool contains(const Material& m) const { return tables_.count(m) != 0; }
  const std::vector<std::uint16_t>& values(const Material& m) const;
  /// The index of a material (created on first use; not thread-safe then).
  const PositionIndex& index(const Material& m);
  const PositionIndex& index(const Material& m) const;

  /// The stored value of a position (either side to move). nullopt if its
  /// material is not held.
  std::optional<std::uint16_t> lookup(const Position& p) const;

  /// Materials held, in key order.
  std::vector<Material> materials() const;

  /// Write every table as `<dir>/<name><ext>` through compress/.
  TableError write_all(const std::string& dir) const;
  /// Load one table file (checks every block); TableError says why not.
  TableError load(const std::string& path);
  /// Load `<dir>/<name><ext>` for each material. A missing file is an error
  /// if `required`, skipped otherwise; any other failure is always an error.
  TableError load_materials(const std::string& dir, const std::vector<Material>& materials,
                            bool required);

 private:
  TableKind kind_;
  std::map<Material, std::vector<std::uint16_t>> tables_;
  std::map<Material, PositionIndex> indexes_;
};

/// Path of a material's table in a directory: "<dir>/KKMvK.dtw".
std::string table_path(const std::string& dir, const Material& m, TableKind kind);

}  // namespace dtb
