// An open table directory as the extension holds it: the C handle in a
// shared_ptr, so that close() from one Python thread never frees it under a
// probe running in another (a batch holds its own reference while it runs
// without the GIL; the handle is closed when the last user lets go).
#pragma once

#include <memory>
#include <string>

#include <pybind11/pybind11.h>

#include "dtb/dtb.h"

namespace dtb::python {

class Tables {
 public:
  Tables(const std::string& directory, std::size_t cache_bytes);

  void close() { handle_.reset(); }
  bool closed() const { return !handle_; }
  int max_pieces() const;
  /// The handle for one call; StatusError (invalid argument) once closed.
  std::shared_ptr<dtb_tables> handle() const;

 private:
  std::shared_ptr<dtb_tables> handle_;
};

/// The C value (LOSS 0, DRAW 1, WIN 2) in the package's convention: -1, 0, 1
/// (the sign of the result for the side to move, as chess.syzygy's WDL).
inline int signed_wdl(dtb_wdl v) { return static_cast<int>(v) - 1; }

/// The class and its single-position probes; batch_probes.cpp adds the rest.
pybind11::class_<Tables> bind_tables(pybind11::module_& m);

}  // namespace dtb::python
