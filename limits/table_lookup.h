// Reading single values of .dtw and .rule files from a directory, for tools
// that probe a few positions (`dtb probe`): each file is opened on first use
// and the last decoded block of each is kept. Not thread-safe: one instance
// per thread. (Bulk work loads whole tables into a TableSet instead.)
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/position_index.h"
#include "limits/value_encoding.h"
#include "rules/position.h"

namespace dtb {

/// The largest dtw among the wins of `<dir>/<name>.dtw` (White to move), -1
/// if it holds no win; nullopt if the file does not exist or is damaged
/// (then `error` says why).
std::optional<int> longest_win_in_file(const std::string& dir, const Material& m, TableError* error);

class LimitsTables {
 public:
  explicit LimitsTables(std::string dir) : dir_(std::move(dir)) {}

  /// dtw of a position (either side to move). nullopt if the file does not
  /// exist; an error (damaged file) is reported through `error`.
  std::optional<Outcome> dtw(const Position& p, TableError* error = nullptr);
  /// The rule value with `plies_in_class` plies played in the position's class.
  /// nullopt if the position is in no class, the file does not exist, or the
  /// count is outside 0..limit (then `error` says so).
  std::optional<Wdl> rule_value(const Position& p, int plies_in_class, TableError* error = nullptr);

 private:
  struct OpenTable {
    std::unique_ptr<TableReader> reader;
    std::unique_ptr<PositionIndex> index;
    std::uint64_t block = ~std::uint64_t{0};
    std::vector<std::uint16_t> values;
  };
  std::optional<std::uint16_t> value(const Position& p, TableKind kind, TableError* error);

  std::string dir_;
  std::map<std::pair<Material, TableKind>, OpenTable> open_;
};

}  // namespace dtb
