#include "position_arrays.h"

#include <string>
#include <vector>

#include "status_error.h"

namespace dtb::python {

namespace py = pybind11;

namespace {

PositionArray parse_fens(const std::vector<std::string>& fens) {
  PositionArray out(static_cast<py::ssize_t>(fens.size()));
  dtb_position* positions = out.mutable_data();
  std::size_t failed = fens.size();
  dtb_error e{};
  {
    py::gil_scoped_release nogil;
    for (std::size_t i = 0; i < fens.size() && failed == fens.size(); ++i)
      if (dtb_position_from_fen(fens[i].c_str(), &positions[i], &e) != DTB_OK) failed = i;
  }
  if (failed < fens.size()) {
    StatusError error = status_error(DTB_INVALID_ARGUMENT, e, "fen");
    error.index = static_cast<std::int64_t>(failed);
    error.message = "position " + std::to_string(failed) + ": " + error.message;
    throw error;
  }
  return out;
}

std::uint64_t material_size(const std::string& material) {
  std::uint64_t size = 0;
  dtb_error e{};
  check(dtb_material_size(material.c_str(), &size, &e), e);
  return size;
}

// Positions start..stop-1 (Python slice bounds, already clamped to the size).
PositionArray material_positions(const std::string& material, int side, std::uint64_t start, std::uint64_t stop) {
  PositionArray out(static_cast<py::ssize_t>(stop > start ? stop - start : 0));
  dtb_error e{};
  dtb_status s;
  {
    py::gil_scoped_release nogil;
    s = dtb_material_positions(material.c_str(), side == DTB_BLACK ? DTB_BLACK : DTB_WHITE, start,
                               out.mutable_data(), static_cast<std::size_t>(out.size()), &e);
  }
  check(s, e);
  return out;
}

}  // namespace

void bind_position_arrays(py::module_& m) {
  PYBIND11_NUMPY_DTYPE(dtb_position, white, black, kings, side_to_move);
  PYBIND11_NUMPY_DTYPE(Distance, wdl, plies);
  m.attr("POSITION_DTYPE") = py::dtype::of<dtb_position>();
  m.attr("DISTANCE_DTYPE") = py::dtype::of<Distance>();
  m.def("parse_fens", &parse_fens, py::arg("fens"),
        "An array of positions from FEN strings (InvalidFenError naming the first bad one).");
  m.def("material_size", &material_size, py::arg("material"), "Positions of a material with one side to move.");
  m.def("material_positions", &material_positions, py::arg("material"), py::arg("side"), py::arg("start"),
        py::arg("stop"), "Positions start..stop-1 of a material with `side` (0 white, 1 black) to move.");
}

}  // namespace dtb::python
