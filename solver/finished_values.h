// The values of finished materials, where the moves that leave a unit lead.
//
// A capture leads to fewer pieces and a promotion to more kings: materials
// finished before the unit (build order). The solver asks for their values
// through this interface; two implementations:
//  - FinishedTables (finished_tables.h): reads the table files just written,
//    through the probe library's reader and bounded block cache. What
//    `dtb gen` uses: memory stays bounded however many tables are finished.
//  - WdlStore (tests/gen/wdl_store.h): every finished table unpacked in
//    memory. For the tests and the solver's benchmark, on small sets.
#pragma once

#include <optional>
#include <string>

#include "rules/position.h"
#include "rules/value.h"

namespace dtb::gen {

class FinishedValues {
 public:
  virtual ~FinishedValues() = default;
  /// Value for the side to move of a position of a finished material, either
  /// side to move; a side with no piece left has lost (RULES 7.2). Thread-safe.
  virtual Wdl value(const Position& p) const = 0;
  /// Why some value() could not be read (it then answered a draw), if so.
  virtual std::optional<std::string> error() const { return std::nullopt; }
};

}  // namespace dtb::gen
