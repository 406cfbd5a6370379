#include "support/scratch_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace dtb::gen {
namespace {

std::string failure(const std::string& what, const std::string& path, int err) {
  const bool full = err == ENOSPC || err == EDQUOT;
  return what + " " + path + ": " + std::strerror(err) + (full ? " (the disk is full)" : "");
}

}  // namespace

std::unique_ptr<ScratchFile> ScratchFile::open(const std::string& path, std::uint64_t bytes, std::string& error) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = failure("cannot open scratch file", path, errno);
    return nullptr;
  }
  struct stat st {};
  int err = ::fstat(fd, &st) == 0 ? 0 : errno;
  // A file of another size is from another solve: start it afresh.
  if (err == 0 && static_cast<std::uint64_t>(st.st_size) != bytes && ::ftruncate(fd, 0) != 0) err = errno;
  if (err == 0 && bytes > 0) err = ::posix_fallocate(fd, 0, static_cast<off_t>(bytes));  // returns the error
  void* data = nullptr;
  if (err == 0 && bytes > 0) {
    data = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
    if (data == MAP_FAILED) err = errno;
  }
  if (err != 0) {
    error = failure("cannot reserve " + std::to_string(bytes) + " bytes for scratch file", path, err);
    ::close(fd);
    return nullptr;
  }
  return std::unique_ptr<ScratchFile>(new ScratchFile(path, fd, static_cast<std::uint8_t*>(data), bytes));
}

ScratchFile::~ScratchFile() {
  if (data_) ::munmap(data_, size_);
  if (fd_ >= 0) ::close(fd_);
}

void ScratchFile::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) throw std::runtime_error(failure("cannot read scratch file", path_, n < 0 ? errno : EIO));
    done += static_cast<std::size_t>(n);
  }
}

void ScratchFile::drop_resident_pages() const noexcept {
  if (data_) ::madvise(data_, size_, MADV_DONTNEED);
}

bool ScratchFile::sync(std::string& error) const {
  if (::fsync(fd_) == 0) return true;
  error = failure("cannot sync scratch file", path_, errno);
  return false;
}

}  // namespace dtb::gen
