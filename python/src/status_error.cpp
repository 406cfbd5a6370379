#include "status_error.h"

namespace dtb::python {

namespace py = pybind11;

StatusError status_error(dtb_status status, const dtb_error& error, const char* subject) {
  StatusError e;
  e.status = status;
  e.message = error.message[0] ? error.message : dtb_status_string(status);
  e.material = error.material;
  e.block = error.block;
  e.subject = subject;
  return e;
}

void register_status_errors() {
  py::register_exception_translator([](std::exception_ptr thrown) {
    try {
      if (thrown) std::rethrow_exception(thrown);
    } catch (const StatusError& e) {
      try {
        // Imported on first use, not at module load: dtb/__init__.py imports
        // this module before dtb.errors is needed.
        const py::object make = py::module_::import("dtb.errors").attr("_from_c");
        const py::object exception =
            make(static_cast<int>(e.status), dtb_status_string(e.status), e.message, e.material,
                 e.block, e.subject, e.index);
        PyErr_SetObject(reinterpret_cast<PyObject*>(Py_TYPE(exception.ptr())), exception.ptr());
      } catch (py::error_already_set& failed) {
        failed.restore();  // the translation itself failed: report that error
      }
    }
  });
}

}  // namespace dtb::python
