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

// Closes the descriptor and removes the temporary file unless committed.
struct TemporaryFile {
  std::string path;
  int fd = -1;
  bool committed = false;
  ~TemporaryFile() {
    if (fd >= 0) ::close(fd);
    if (!committed && !path.empty()) ::unlink(path.c_str());
  }
};

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

TableError write_file_atomically(const std::string& path, std::span<const std::span<const std::uint8_t>> parts) {
  TemporaryFile tmp;
  std::string pattern = path + ".tmp-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  tmp.fd = ::mkstemp(name.data());  // unique name: concurrent writers never collide
  if (tmp.fd < 0) return errno_error(errno, "create temporary file for", path);
  tmp.path = name.data();
  if (::fchmod(tmp.fd, 0644) != 0) return errno_error(errno, "fchmod", tmp.path);

  for (const auto& part : parts)
    if (TableError e = write_all(tmp.fd, part, tmp.path)) return e;
  // fsync before rename: otherwise a crash could leave `path` naming a file
  // whose data never reached the disk. Delayed allocation may also report a
  // full disk only here.
  if (::fsync(tmp.fd) != 0) return errno_error(errno, "fsync", tmp.path);
  const int fd = tmp.fd;
  tmp.fd = -1;
  if (::close(fd) != 0) return errno_error(errno, "close", tmp.path);
  if (::rename(tmp.path.c_str(), path.c_str()) != 0) return errno_error(errno, "rename to " + path, tmp.path);
  tmp.committed = true;

  // Make the rename itself durable. Failure here cannot un-write the file,
  // and some file systems refuse fsync on directories: not an error.
  const int dir = ::open(directory_of(path).c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dir >= 0) {
    ::fsync(dir);
    ::close(dir);
  }
  return {};
}

}  // namespace dtb
