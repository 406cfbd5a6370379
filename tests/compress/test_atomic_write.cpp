// Writing is atomic and a full disk is an error (DiskFull), never a
// half-written table.
#include <catch2/catch.hpp>

#include <fcntl.h>
#include <sys/mount.h>
#include <unistd.h>

#include "compress/atomic_file.h"
#include "compress/table_file.h"
#include "tests/compress/synthetic_values.h"
#include "tests/compress/table_test_support.h"

using namespace dtb;

TEST_CASE("writing to a full device reports DiskFull", "[atomic]") {
  const int fd = ::open("/dev/full", O_WRONLY | O_CLOEXEC);
  if (fd < 0) {
    WARN("no /dev/full here: skipped");
    return;
  }
  const std::vector<std::uint8_t> data(100000, 7);
  const TableError e = write_all(fd, data, "/dev/full");
  ::close(fd);
  CHECK(e.status == TableStatus::DiskFull);
  CHECK(e.message.find("/dev/full") != std::string::npos);
}

TEST_CASE("a missing directory is an I/O error naming the path", "[atomic]") {
  const std::vector<std::uint16_t> values = {1, 2, 0};
  const TableError e = write_table("/nonexistent-dtb-dir/KvK.wdl", {Material{1, 0, 1, 0}, TableKind::Wdl, values, {}});
  CHECK(e.status == TableStatus::IoError);
  CHECK(e.message.find("/nonexistent-dtb-dir/KvK.wdl") != std::string::npos);
}

TEST_CASE("rewriting a table replaces it whole and leaves no temporary file", "[atomic]") {
  testing::TempDir dir;
  const std::string path = dir.file("KvK.wdl");
  const auto a = testing::random_values(5000, 2, 1), b = testing::random_values(7000, 2, 2);
  REQUIRE_FALSE(write_table(path, {Material{1, 0, 1, 0}, TableKind::Wdl, a, {}}));
  REQUIRE_FALSE(write_table(path, {Material{1, 0, 1, 0}, TableKind::Wdl, b, {}}));
  TableError e;
  const auto r = TableReader::open(path, &e);
  REQUIRE(r);
  CHECK(r->positions() == 7000);
  CHECK(std::distance(std::filesystem::directory_iterator(dir.path()), std::filesystem::directory_iterator()) == 1);
}

// End to end on a really full file system: a 64 KiB tmpfs (needs root; skipped otherwise).
TEST_CASE("a full file system gives DiskFull and keeps the previous table", "[atomic]") {
  testing::TempDir dir;
  const std::string mount_point = dir.file("small-fs");
  std::filesystem::create_directory(mount_point);
  if (::mount("tmpfs", mount_point.c_str(), "tmpfs", 0, "size=64k") != 0) {
    WARN("cannot mount a small tmpfs (not root?): end-to-end disk-full test skipped");
    return;
  }
  struct Unmount {
    std::string at;
    ~Unmount() { ::umount(at.c_str()); }
  } unmount{mount_point};

  const std::string path = mount_point + "/KKvK.wdl";
  const std::vector<std::uint16_t> small = {1, 1, 2};
  REQUIRE_FALSE(write_table(path, {Material{2, 0, 1, 0}, TableKind::Wdl, small, {}}));
  // Random values do not compress: ~250 KB after packing, four times the space.
  const auto big = testing::random_values(1000000, 2, 3);
  const TableError e = write_table(path, {Material{2, 0, 1, 0}, TableKind::Wdl, big, {}});
  CHECK(e.status == TableStatus::DiskFull);
  CHECK(e.message.find(path) != std::string::npos);
  // The old table is intact and alone: the temporary file was removed.
  TableError open_error;
  const auto r = TableReader::open(path, &open_error);
  REQUIRE(r);
  CHECK(r->positions() == 3);
  CHECK(std::distance(std::filesystem::directory_iterator(mount_point), std::filesystem::directory_iterator()) == 1);
}
