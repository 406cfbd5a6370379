// The file stream of cluster/mpi_link under mpirun -np 2: rank 1 sends,
// rank 0 receives into a directory and checks what it published. A file of
// several chunks (and one of none) arrives byte for byte; a damaged, short,
// unreadable or badly named file is refused with a message and leaves
// nothing under any name; after each refusal the stream is still in step
// (the next message is the one sent next).
//
// Usage: mpirun -np 2 test_mpi_link DIR
#include <mpi.h>
#include <xxhash.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "cluster/mpi_link.h"

namespace {

using namespace dtb::cluster;
namespace fs = std::filesystem;

constexpr std::uint64_t kTestChunk = 4096;

std::vector<char> contents(std::size_t bytes, unsigned seed) {
  std::mt19937 random(seed);
  std::vector<char> out(bytes);
  for (char& c : out) c = static_cast<char>(random());
  return out;
}

std::string hex(const void* data, std::size_t size) {
  char text[17];
  std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(XXH3_64bits(data, size)));
  return text;
}

int failures = 0;
void check(bool ok, const std::string& what) {
  if (!ok) {
    std::fprintf(stderr, "test_mpi_link: FAILED: %s\n", what.c_str());
    ++failures;
  }
}

// Rank 1: the files and the broken streams, each followed by a marker.
void sender(const fs::path& dir) {
  std::string error;
  for (const auto& [name, bytes] : {std::pair{"KKvK.wdl", 3 * kTestChunk + 123}, std::pair{"KvK.stats", 0ul}}) {
    const std::vector<char> data = contents(bytes, static_cast<unsigned>(bytes));
    std::ofstream(dir / name, std::ios::binary).write(data.data(), static_cast<std::streamsize>(data.size()));
    if (send_file(0, (dir / name).string(), name, error, kTestChunk) != static_cast<std::int64_t>(bytes))
      std::fprintf(stderr, "test_mpi_link: rank 1: %s\n", error.c_str());
    send_text(0, kDone, std::string("after ") + name);
  }
  const std::vector<char> ten = contents(10, 10);
  const auto broken = [&](const std::string& header, const std::string& end) {
    send_text(0, kFileHeader, header);
    MPI_Send(ten.data(), 10, MPI_BYTE, 0, kFileChunk, MPI_COMM_WORLD);
    send_text(0, kFileEnd, end);
    send_text(0, kDone, "after " + header);
  };
  broken("KMvK.mtc\t10", "ok\t" + hex(ten.data(), 9));           // damaged on the way
  broken("KMvK.mtc\t20", "ok\t" + hex(ten.data(), 10));          // shorter than announced
  broken("KMvK.mtc\t10", "error\tcannot read KMvK.mtc to its end");  // the sender's read failed
  broken("../KMvK.wdl\t10", "ok\t" + hex(ten.data(), 10));       // not a table name
  error.clear();
  check(send_file(0, (dir / "absent.wdl").string(), "KMvK.wdl", error) == -1 && !error.empty(),
        "a missing file is refused before anything is sent");
}

void receiver(const fs::path& dir) {
  std::string error;
  for (const auto& [name, bytes] : {std::pair{"KKvK.wdl", 3 * kTestChunk + 123}, std::pair{"KvK.stats", 0ul}}) {
    const Message header = receive_message(1);
    check(header.tag == kFileHeader, std::string("a header for ") + name);
    check(receive_file(1, header.text, dir.string(), error) == static_cast<std::int64_t>(bytes),
          std::string("received ") + name + ": " + error);
    std::ifstream in(dir / name, std::ios::binary);
    const std::vector<char> got((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    check(got == contents(bytes, static_cast<unsigned>(bytes)), std::string("the bytes of ") + name);
    check(receive_message(1).text == std::string("after ") + name, std::string("in step after ") + name);
  }
  const std::pair<const char*, const char*> refusals[] = {
      {"KMvK.mtc\t10", "damaged"}, {"KMvK.mtc\t20", "announced"}, {"KMvK.mtc\t10", "could not send"},
      {"../KMvK.wdl\t10", "not a table file"}};
  for (const auto& [header_text, reason] : refusals) {
    const Message header = receive_message(1);
    error.clear();
    check(receive_file(1, header.text, dir.string(), error) == -1, std::string("refused: ") + header_text);
    check(error.find(reason) != std::string::npos, "message '" + error + "' says " + reason);
    check(receive_message(1).text == std::string("after ") + header_text, std::string("in step after ") + header_text);
  }
  std::size_t files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    ++files;
    const std::string name = entry.path().filename().string();
    check(name == "KKvK.wdl" || name == "KvK.stats", "nothing else published or left behind: " + name);
  }
  check(files == 2, "two files received");
  check(!fs::exists(dir.parent_path() / "KMvK.wdl"), "nothing written outside the directory");
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  if (argc != 2 || ranks != 2) {
    if (rank == 0) std::fprintf(stderr, "usage: mpirun -np 2 test_mpi_link DIR\n");
    MPI_Finalize();
    return 2;
  }
  const fs::path root = argv[1];
  const fs::path mine = root / ("rank-" + std::to_string(rank));
  fs::create_directories(mine);
  if (rank == 1)
    sender(mine);
  else
    receiver(mine);
  int all_failures = 0;
  MPI_Reduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && all_failures == 0) std::printf("test_mpi_link: streamed files arrive whole; broken streams refused\n");
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
