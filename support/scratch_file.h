// ScratchFile: a large byte array kept in a file instead of in memory, for
// data the generator writes once and reads back only at the end (the MTC
// values of a unit: a byte a position, 4.2 GB for the largest 6-piece unit,
// where the memory bound is 6 GiB; solver/mtc_values.h).
//
// The file is mapped shared: the solver writes through the mapping as it
// would into memory, and drop_resident_pages() then gives the pages back to
// the process's RSS budget. The data is not lost: it stays in the kernel's
// page cache (which writes it to the file and may evict it) and in the file.
// Reading back goes by pread() into the caller's buffer, so reading a whole
// table (the writer) never maps it all at once.
//
// The disk space is reserved when the file is opened (posix_fallocate): a
// full disk is then an error with a message, not a SIGBUS at the first
// write into a page that has no block. The file survives the object (an
// interrupted solve resumes from it, level_checkpoint.h); its owner removes
// it when done.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

namespace dtb::gen {

class ScratchFile {
 public:
  /// Open `path` (created if missing) as `bytes` bytes, disk space reserved,
  /// mapped for reading and writing. An existing file keeps its contents
  /// (a solve resuming from a checkpoint checks them). nullptr with a
  /// message naming the file (a full disk says so) on failure.
  static std::unique_ptr<ScratchFile> open(const std::string& path, std::uint64_t bytes, std::string& error);
  ~ScratchFile();
  ScratchFile(const ScratchFile&) = delete;
  ScratchFile& operator=(const ScratchFile&) = delete;

  std::uint8_t* data() const { return data_; }
  std::uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

  /// Bytes [offset, offset + out.size()) by pread: nothing stays mapped.
  /// Throws std::runtime_error (naming the file) if the read fails.
  void read(std::uint64_t offset, std::span<std::uint8_t> out) const;

  /// Unmap every page touched so far from the process (its RSS); the data
  /// stays in the page cache and the file. Safe while other threads read or
  /// write: their next access maps the page again.
  void drop_resident_pages() const noexcept;

  /// Make everything written so far durable (fsync), before a checkpoint
  /// that counts on it is written. False with a message on failure.
  bool sync(std::string& error) const;

 private:
  ScratchFile(std::string path, int fd, std::uint8_t* data, std::uint64_t size)
      : path_(std::move(path)), fd_(fd), data_(data), size_(size) {}

  std::string path_;
  int fd_ = -1;
  std::uint8_t* data_ = nullptr;
  std::uint64_t size_ = 0;
};

}  // namespace dtb::gen
