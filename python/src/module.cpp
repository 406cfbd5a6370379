// dtb._dtb: the extension module under the Python package `dtb`, a thin layer
// over the C probe API (probe/include/dtb/dtb.h). It speaks in raw positions,
// tuples and numpy arrays; dtb/*.py builds the documented, typed API on it.
#include <pybind11/pybind11.h>

#include "batch_probes.h"
#include "position_arrays.h"
#include "position_functions.h"
#include "status_error.h"
#include "tables.h"

PYBIND11_MODULE(_dtb, m) {
  m.doc() = "Low-level bindings of the draughts-tb C probe API; use the `dtb` package instead.";
  m.attr("API_VERSION") = DTB_API_VERSION;
  dtb::python::register_status_errors();
  dtb::python::bind_position_arrays(m);
  dtb::python::bind_position_functions(m);
  pybind11::class_<dtb::python::Tables> tables = dtb::python::bind_tables(m);
  dtb::python::bind_batch_probes(tables);
}
