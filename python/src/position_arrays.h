// Positions as numpy arrays: the record type dtb.POSITION_DTYPE is the C
// struct dtb_position itself (white, black, kings, side_to_move), so a batch
// probe reads the array's memory directly, with no conversion.
#pragma once

#include <cstdint>

#include <pybind11/numpy.h>
#include <pybind11/stl.h>
#include <pybind11/pybind11.h>

#include "dtb/dtb.h"

namespace dtb::python {

using PositionArray = pybind11::array_t<dtb_position, pybind11::array::c_style>;

/// A result with its distance in plies (dtb_probe_dtw, dtb_probe_rule_budget):
/// the record type dtb.DISTANCE_DTYPE of the batch probes.
struct Distance {
  std::int8_t wdl;     // -1, 0, 1 for the side to move
  std::int32_t plies;  // -1 for a draw (DTB_UNKNOWN)
};

/// Registers both record types and the array functions (parse_fens,
/// material_size, material_positions). Call before anything uses the types.
void bind_position_arrays(pybind11::module_& m);

}  // namespace dtb::python
