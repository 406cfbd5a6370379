#include "compress/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace dtb {

std::unique_ptr<MappedFile> MappedFile::open(const std::string& path, TableError* error) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) {
    const int err = errno;
    *error = {err == ENOENT ? TableStatus::Missing : TableStatus::IoError,
              (err == ENOENT ? "table file missing: " : "cannot open ") + path + ": " + std::strerror(err)};
    return nullptr;
  }
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int err = errno;
    ::close(fd);
    *error = {TableStatus::IoError, "fstat " + path + ": " + std::strerror(err)};
    return nullptr;
  }
  if (!S_ISREG(st.st_mode)) {  // a directory opens fine but is no table
    ::close(fd);
    *error = {TableStatus::IoError, path + " is not a regular file"};
    return nullptr;
  }
  const auto size = static_cast<std::size_t>(st.st_size);
  if (size == 0) {  // mmap refuses length 0; an empty file is still a (truncated) file
    ::close(fd);
    return std::unique_ptr<MappedFile>(new MappedFile(nullptr, 0));
  }
  void* p = ::mmap(nullptr, size, PROT_READ, MAP_SHARED, fd, 0);
  const int err = errno;
  ::close(fd);  // the mapping keeps the file alive
  if (p == MAP_FAILED) {
    *error = {err == ENOMEM ? TableStatus::OutOfMemory : TableStatus::IoError,
              "mmap " + path + ": " + std::strerror(err)};
    return nullptr;
  }
  return std::unique_ptr<MappedFile>(new MappedFile(static_cast<const std::uint8_t*>(p), size));
}

void MappedFile::drop_resident_pages() const noexcept {
  if (data_) ::madvise(const_cast<std::uint8_t*>(data_), size_, MADV_DONTNEED);  // best effort
}

MappedFile::~MappedFile() {
  if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
}

}  // namespace dtb
