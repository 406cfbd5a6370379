// The counts of one table (White to move): positions, captures, the
// win/draw/loss split over all positions and over the quiet ones, and the
// file's size. The solver counts them as it writes a table (unit_values.h);
// `dtb stats` reads them back (gen/table_stats.h).
#pragma once

#include <cstdint>

#include "index/material.h"

namespace dtb::gen {

struct MaterialStats {
  Material material;
  std::uint64_t positions = 0, captures = 0;
  std::uint64_t win = 0, draw = 0, loss = 0;
  std::uint64_t quiet_win = 0, quiet_draw = 0, quiet_loss = 0;
  std::uint64_t bytes = 0;
  int longest_win_dtw = -1;  // largest dtw among the wins, when a .dtw table exists (drawrules/); -1 otherwise
  double bits_per_position() const {
    return positions ? 8.0 * static_cast<double>(bytes) / static_cast<double>(positions) : 0.0;
  }
};

}  // namespace dtb::gen
