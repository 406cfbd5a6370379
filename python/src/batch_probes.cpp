#include "batch_probes.h"

#include <cstdio>

#include "batch_probe.h"
#include "position_arrays.h"
#include "status_error.h"

namespace dtb::python {

namespace py = pybind11;

namespace {

// One value per position of `positions` (1-D), computed by
// `probe_one(handle, position, out, error)` on `threads` threads without the GIL.
template <class Out, class ProbeOne>
py::array_t<Out> run_batch(const Tables& t, const PositionArray& positions, int threads, ProbeOne probe_one) {
  if (positions.ndim() != 1) {
    dtb_error e{};
    std::snprintf(e.message, sizeof e.message, "positions must be a 1-D array, not %d-D",
                  static_cast<int>(positions.ndim()));
    throw_status(DTB_INVALID_ARGUMENT, e);
  }
  const std::shared_ptr<dtb_tables> handle = t.handle();  // alive until the batch ends, even if closed meanwhile
  const auto n = static_cast<std::size_t>(positions.shape(0));
  py::array_t<Out> out(static_cast<py::ssize_t>(n));
  const dtb_position* in = positions.data();
  Out* values = out.mutable_data();
  const int workers = batch_threads(n, threads);
  {
    py::gil_scoped_release nogil;
    probe_batch(in, n, values, workers, [&](const dtb_position& p, Out& value, dtb_error* e) {
      return probe_one(handle.get(), p, value, e);
    });
  }
  return out;
}

py::array_t<std::int8_t> probe_wdl_many(const Tables& t, const PositionArray& positions, int threads) {
  return run_batch<std::int8_t>(t, positions, threads,
                                [](dtb_tables* h, const dtb_position& p, std::int8_t& out, dtb_error* e) {
                                  dtb_wdl v = DTB_DRAW;
                                  const dtb_status s = dtb_probe_wdl(h, &p, &v, e);
                                  out = static_cast<std::int8_t>(signed_wdl(v));
                                  return s;
                                });
}

py::array_t<std::int8_t> probe_rule_many(const Tables& t, const PositionArray& positions, int plies_in_class,
                                         int threads) {
  return run_batch<std::int8_t>(t, positions, threads,
                                [=](dtb_tables* h, const dtb_position& p, std::int8_t& out, dtb_error* e) {
                                  dtb_wdl v = DTB_DRAW;
                                  const dtb_status s = dtb_probe_rule(h, &p, plies_in_class, &v, e);
                                  out = static_cast<std::int8_t>(signed_wdl(v));
                                  return s;
                                });
}

py::array_t<std::int8_t> probe_rules_many(const Tables& t, const PositionArray& positions, int plies_since_conversion,
                                          int plies_in_class, int threads) {
  return run_batch<std::int8_t>(t, positions, threads,
                                [=](dtb_tables* h, const dtb_position& p, std::int8_t& out, dtb_error* e) {
                                  dtb_wdl v = DTB_DRAW;
                                  const dtb_status s =
                                      dtb_probe_rules(h, &p, plies_since_conversion, plies_in_class, &v, e);
                                  out = static_cast<std::int8_t>(signed_wdl(v));
                                  return s;
                                });
}

// dtb_probe_dtw, dtb_probe_mtc or dtb_probe_rule_budget over an array:
// records (wdl, plies), a draw's plies -1 (DTB_UNKNOWN: an int32 array has no
// None, which the single probes give).
template <dtb_status (*Probe)(dtb_tables*, const dtb_position*, dtb_wdl*, int*, dtb_error*)>
py::array_t<Distance> probe_distance_many(const Tables& t, const PositionArray& positions, int threads) {
  return run_batch<Distance>(t, positions, threads,
                             [](dtb_tables* h, const dtb_position& p, Distance& out, dtb_error* e) {
                               dtb_wdl v = DTB_DRAW;
                               int plies = 0;
                               const dtb_status s = Probe(h, &p, &v, &plies, e);
                               out = Distance{static_cast<std::int8_t>(signed_wdl(v)), plies};
                               return s;
                             });
}

}  // namespace

void bind_batch_probes(py::class_<Tables>& tables) {
  tables
      .def("probe_wdl_many", &probe_wdl_many, py::arg("positions"), py::arg("threads"),
           "int8 array of WDL (-1, 0, 1) for an array of POSITION_DTYPE.")
      .def("probe_dtw_many", &probe_distance_many<dtb_probe_dtw>, py::arg("positions"), py::arg("threads"),
           "DISTANCE_DTYPE array of (wdl, plies) from the .dtw tables.")
      .def("probe_rule_many", &probe_rule_many, py::arg("positions"), py::arg("plies_in_class"),
           py::arg("threads"), "int8 array of the 6.3/6.4 rule values after plies_in_class plies.")
      .def("probe_mtc_many", &probe_distance_many<dtb_probe_mtc>, py::arg("positions"), py::arg("threads"),
           "DISTANCE_DTYPE array of (wdl, plies to the next conversion) from the .mtc tables.")
      .def("probe_rules_many", &probe_rules_many, py::arg("positions"), py::arg("plies_since_conversion"),
           py::arg("plies_in_class"), py::arg("threads"), "int8 array of dtb_probe_rules values.")
      .def("probe_rule_budget_many", &probe_distance_many<dtb_probe_rule_budget>, py::arg("positions"),
           py::arg("threads"), "DISTANCE_DTYPE array of the .rule budgets (result, plies).");
}

}  // namespace dtb::python
