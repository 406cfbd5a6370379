// `dtb stats`: per material (White to move), how many positions, how many
// must capture, and the win/draw/loss split over all positions and over the
// quiet ones, with the file's size on disk. Values are the true ones: the
// capture positions ("don't care" on disk) are resolved by the loader.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"
#include "solver/material_stats.h"

namespace dtb::gen {

/// Stats of every table in `dir`, in build order: from the counts recorded
/// when each table was built (stats_sidecar.h), or, for a table without
/// trustworthy ones or for all if `recount`, by decoding the table (capture
/// positions resolved through the directory's smaller tables). False with a
/// message if a table is missing a dependency, damaged, or unreadable.
bool collect_stats(const std::string& dir, bool show_progress, bool recount, std::vector<MaterialStats>& out,
                   std::string& error);

/// Count one material's values (WDL | kCaptureFlag, solver/table_loading.h).
MaterialStats count_values(const Material& m, std::span<const std::uint8_t> values);

std::string stats_as_json(const std::vector<MaterialStats>& stats);
std::string stats_as_text(const std::vector<MaterialStats>& stats);

}  // namespace dtb::gen
