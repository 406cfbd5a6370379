// The table-free position functions of the C API as Python functions over
// the raw position type (dtb_position, bound as _dtb.RawPosition), and the
// tuple form in which moves cross into Python.
#pragma once

#include <pybind11/pybind11.h>

#include "dtb/dtb.h"

namespace dtb::python {

/// A move as Python receives it: (from, to, captured bitboard, FMJD text).
pybind11::tuple move_tuple(const dtb_position& before, const dtb_move& move);

/// dtb_move from the (from, to, captured) that Python holds.
dtb_move move_from_parts(int from, int to, std::uint64_t captured);

void bind_position_functions(pybind11::module_& m);

}  // namespace dtb::python
