// The counts of a table recorded when it is built: `<dir>/<Material>.stats`
// beside `<Material>.wdl`, so that `dtb stats` answers at once for any set
// instead of decoding every table and resolving its capture positions
// (2 min 49 s for the 2-5 piece set, hours for 6 pieces).
//
// One text line: "draughts-tb-stats 1 <material> <positions> <captures> <win>
// <draw> <loss> <quiet_win> <quiet_draw> <quiet_loss> <table XXH3> <line XXH3>".
// The table's XXH3 ties the counts to the exact file they were counted from
// (a rebuilt or replaced table makes them stale); the last field checks the
// line itself. A sidecar that is missing, damaged or stale is not trusted:
// `dtb stats` recounts that table (and `--recount` recounts all).
#pragma once

#include <optional>
#include <string>

#include "gen/table_stats.h"
#include "index/material.h"

namespace dtb::gen {

std::string stats_sidecar_path(const std::string& dir, const Material& m);

/// Record the counts of the table of s.material in `dir` (which must exist).
/// False with a message if the table cannot be read or the file written.
bool write_stats_sidecar(const std::string& dir, const MaterialStats& s, std::string& error);

/// The recorded counts of m's table, if the sidecar is present, intact and
/// matches the table file as it is now (bytes filled from the file's size).
std::optional<MaterialStats> read_stats_sidecar(const std::string& dir, const Material& m);

}  // namespace dtb::gen
