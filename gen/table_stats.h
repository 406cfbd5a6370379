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

namespace dtb::gen {

struct MaterialStats {
  Material material;
  std::uint64_t positions = 0, captures = 0;
  std::uint64_t win = 0, draw = 0, loss = 0;
  std::uint64_t quiet_win = 0, quiet_draw = 0, quiet_loss = 0;
  std::uint64_t bytes = 0;
  int longest_win = -1;  // largest dtw among the wins, when a .dtw table exists (limits/); -1 otherwise
  double bits_per_position() const {
    return positions ? 8.0 * static_cast<double>(bytes) / static_cast<double>(positions) : 0.0;
  }
};

/// Stats of every table in `dir`, in build order: from the counts recorded
/// when each table was built (stats_sidecar.h), or, for a table without
/// trustworthy ones or for all if `recount`, by decoding the table (capture
/// positions resolved through the directory's smaller tables). False with a
/// message if a table is missing a dependency, damaged, or unreadable.
bool collect_stats(const std::string& dir, bool show_progress, bool recount, std::vector<MaterialStats>& out,
                   std::string& error);

/// Count one material's values (WDL | kCaptureFlag, wdl_store.h).
MaterialStats count_values(const Material& m, std::span<const std::uint8_t> values);

std::string stats_as_json(const std::vector<MaterialStats>& stats);
std::string stats_as_text(const std::vector<MaterialStats>& stats);

}  // namespace dtb::gen
