#include "compress/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace dtb {
namespace {

TableError errno_error(int err, const std::string& call, const std::string& what) {
  const TableStatus status = (err == ENOSPC || err == EDQUOT) ? TableStatus::DiskFull : TableStatus::IoError;
  std::string message = call + " " + what + ": " + std::strerror(err);
  if (status == TableStatus::DiskFull) message = "disk full: " + message;
  return {status, message};
}

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

}  // namespace

TableError write_all(int fd, std::span<const std::uint8_t> data, const std::string& what) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return errno_error(errno, "write", what);
    }
    if (n == 0) return errno_error(ENOSPC, "write", what);  // no progress: treat as a full device
    done += static_cast<std::size_t>(n);
  }
  return {};
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_ && !temporary_.empty()) ::unlink(temporary_.c_str());
}

TableError AtomicFileWriter::open() {
  std::string pattern = path_ + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  fd_ = ::mkstemp(name.data());  // unique name: concurrent writers never collide
  if (fd_ < 0) return errno_error(errno, "create temporary file for", path_);
  temporary_ = name.data();
  if (::fchmod(fd_, 0644) != 0) return errno_error(errno, "fchmod", temporary_);
  return {};
}

TableError AtomicFileWriter::append(std::span<const std::uint8_t> data) {
  if (fd_ < 0) return {TableStatus::InvalidArgument, "append to " + path_ + " before open or after commit"};
  return write_all(fd_, data, temporary_);
}

TableError AtomicFileWriter::commit() {
  if (fd_ < 0) return {TableStatus::InvalidArgument, "commit of " + path_ + " before open or twice"};
  // fsync before rename: otherwise a crash could leave `path` naming a file
  // whose data never reached the disk. Delayed allocation may also report a
  // full disk only here.
  if (::fsync(fd_) != 0) return errno_error(errno, "fsync", temporary_);
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return errno_error(errno, "close", temporary_);
  if (::rename(temporary_.c_str(), path_.c_str()) != 0) return errno_error(errno, "rename to " + path_, temporary_);
  committed_ = true;

  // Make the rename itself durable. Failure here cannot un-write the file,
  // and some file systems refuse fsync on directories: not an error.
  const int dir = ::open(directory_of(path_).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return {};
}

TableError write_file_atomically(const std::string& path, std::span<const std::span<const std::uint8_t>> parts) {
  AtomicFileWriter file(path);
  if (TableError e = file.open()) return e;
  for (const auto& part : parts)
    if (TableError e = file.append(part)) return e;
  return file.commit();
}

}  // namespace dtb
