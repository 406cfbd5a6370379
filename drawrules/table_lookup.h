// Reading a whole .dtw file for a report (`dtb stats`: the longest win of each
// material), block after block, without a cache.
//
// Consumers that probe positions (`dtb probe`, `dtb serve`, engines, the
// Python package) read .dtw and .rule values through the probe library
// (probe/dtw_tables.h, probe/rule_tables.h: one reader, the handle's one
// cache, its statuses), never here. drawrules/ reads tables only for its own
// generator, verifier and reports, whole (TableSet) or as here: a scan of
// every block once, which through the probe would be a probe per position
// filling a handle's cache with a table read once.
#pragma once

#include <optional>
#include <string>

#include "compress/table_file.h"
#include "index/material.h"

namespace dtb {

/// The largest dtw among the wins of `<dir>/<name>.dtw` (White to move), -1
/// if it holds no win; nullopt if the file does not exist or is damaged
/// (then `error` says why).
std::optional<int> longest_win_in_file(const std::string& dir, const Material& m, TableError* error);

}  // namespace dtb
