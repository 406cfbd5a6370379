// Writing a whole file atomically: readers see either the old file or the
// complete new one, never a prefix, even if the process dies or the disk
// fills up half-way (the table files are trusted once their header checks).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "compress/table_file.h"

namespace dtb {

/// A file written piece by piece and published atomically: appends go to a
/// temporary file beside `path` (same directory, so rename() is atomic);
/// commit() fsyncs it, renames it over `path` and fsyncs the directory.
/// Destroyed without a successful commit(), it removes the temporary file:
/// `path` never names a prefix. For files too large to hold in memory at
/// once (a table received over MPI in chunks).
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(std::string path) : path_(std::move(path)) {}
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;
  ~AtomicFileWriter();

  /// Create the temporary file (before any append).
  TableError open();
  TableError append(std::span<const std::uint8_t> data);
  TableError commit();

 private:
  std::string path_;
  std::string temporary_;
  int fd_ = -1;
  bool committed_ = false;
};

/// Write `parts` one after the other to a temporary file beside `path`
/// (same directory, so rename() is atomic), fsync it, rename it over `path`,
/// fsync the directory. On any failure the temporary file is removed and the
/// error names the path, the failing call and errno; ENOSPC and EDQUOT are
/// DiskFull.
TableError write_file_atomically(const std::string& path, std::span<const std::span<const std::uint8_t>> parts);

/// Write all of `data` to the open descriptor `fd` (looping over short writes
/// and EINTR). `what` names the file in the error message.
TableError write_all(int fd, std::span<const std::uint8_t> data, const std::string& what);

}  // namespace dtb
