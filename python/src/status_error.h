// A failed C API call on its way to Python. The C++ code throws StatusError;
// the translator that register_status_errors() installs turns it into the
// matching exception class of dtb/errors.py. The classes live in Python so
// that they carry attributes (status, material, block, index), docstrings and
// a hierarchy (MissingTableError, CorruptedTableError, ...) a user can catch.
#pragma once

#include <cstdint>
#include <exception>
#include <string>

#include <pybind11/pybind11.h>

#include "dtb/dtb.h"

namespace dtb::python {

struct StatusError : std::exception {
  dtb_status status = DTB_OK;
  std::string message;
  std::string material;     // table involved, or ""
  std::int64_t block = -1;  // damaged block, or -1
  std::string subject;      // what was refused for DTB_INVALID_ARGUMENT: "fen", "move" or ""
  std::int64_t index = -1;  // position of a batch that failed, or -1

  const char* what() const noexcept override { return message.c_str(); }
};

/// The StatusError of a failed call (`status` != DTB_OK). `error` may be
/// empty (calls without a dtb_error): the status's name is then the message.
StatusError status_error(dtb_status status, const dtb_error& error, const char* subject = "");

[[noreturn]] inline void throw_status(dtb_status status, const dtb_error& error, const char* subject = "") {
  throw status_error(status, error, subject);
}

/// Throw if `status` is not DTB_OK.
inline void check(dtb_status status, const dtb_error& error, const char* subject = "") {
  if (status != DTB_OK) throw_status(status, error, subject);
}

/// Install the StatusError -> dtb.errors translator.
void register_status_errors();

}  // namespace dtb::python
