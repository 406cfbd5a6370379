// The batch probes of dtb.Tablebase (probe_wdl_many, ...) as methods of
// _dtb.Tables: numpy arrays in, numpy arrays out, the work in batch_probe.h.
#pragma once

#include <pybind11/pybind11.h>

#include "tables.h"

namespace dtb::python {

void bind_batch_probes(pybind11::class_<Tables>& tables);

}  // namespace dtb::python
