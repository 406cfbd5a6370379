// A read-only memory map of a whole file (RAII: unmapped on destruction).
//
// Table readers map their file once and decode blocks straight out of the
// page cache: no read() per probe, no copy, and the kernel shares the pages
// between processes. Caveat: if another process truncates the file while it
// is mapped, touching the lost pages raises SIGBUS; table files are written
// by rename() (compress/atomic_file.h), which never truncates a mapped file.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "compress/table_file.h"

namespace dtb {

class MappedFile {
 public:
  /// Map `path`. Missing file -> Missing; not a regular file, or any failing
  /// call -> IoError (naming the call and errno). An empty file maps to an
  /// empty span.
  static std::unique_ptr<MappedFile> open(const std::string& path, TableError* error);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

  /// Unmap the pages of the file this process has touched so far (they no
  /// longer count in its resident set); the next read of a page maps it
  /// again from the page cache, with the same bytes. Safe while other threads
  /// read the mapping: for a read-only file mapping this only drops page
  /// table entries. For a process that must bound its RSS (the generator):
  /// each page a read faults in stays resident until the mapping goes, and
  /// the kernel maps up to 64 KB around it.
  void drop_resident_pages() const noexcept;

 private:
  MappedFile(const std::uint8_t* data, std::size_t size) : data_(data), size_(size) {}
  const std::uint8_t* data_;
  std::size_t size_;
};

}  // namespace dtb
