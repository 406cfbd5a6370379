// Filling a std::vector from the C API's move functions, which write into a
// caller's buffer and ask for a larger one when it is too small.
#pragma once

#include <cstddef>
#include <vector>

#include "dtb/dtb.h"

namespace dtb::python {

/// `call(moves, capacity, &count)` is dtb_legal_moves or dtb_probe_moves with
/// its other arguments bound. Returns its status; `out` holds the moves on success.
template <class Call>
dtb_status collect_moves(std::vector<dtb_move>& out, Call call) {
  std::size_t count = 0;
  out.resize(64);  // more than any 2-7 piece position has
  dtb_status s = call(out.data(), out.size(), &count);
  if (s == DTB_INVALID_ARGUMENT && count > out.size()) {  // the start position has more: once more
    out.resize(count);
    s = call(out.data(), out.size(), &count);
  }
  out.resize(s == DTB_OK ? count : 0);
  return s;
}

}  // namespace dtb::python
