// The file stream of cluster/mpi_link under mpirun -np 2: rank 1 sends,
// rank 0 receives into a directory and checks what it published. A file of
// several chunks (and one of none) arrives byte for byte; a damaged, short,
// unreadable or badly named file is refused with a message and leaves
// nothing under any name; after each refusal the stream is still in step
// (the next message is the one sent next). Also the wire form of a part of a
// level (cluster/slice_task.h): a task and a result come back equal from
// their bytes, and every truncation of them is refused; a part's checksum
// follows its values, where they stand.
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
#include "cluster/slice_task.h"

namespace {

using namespace dtb::cluster;
namespace gen = dtb::gen;
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

bool same(const SliceValues& a, const SliceValues& b) {
  return a.table == b.table && a.slice == b.slice && a.positions == b.positions && a.wdl == b.wdl && a.mtc == b.mtc;
}

// Slice values through UnitValues and back, then tasks and results through bytes.
void check_slice_messages() {
  const dtb::Material unit = *dtb::parse_material("KMvMM");
  gen::UnitValues values(5 * 37);
  gen::MtcValues mtc(5 * 37);
  {
    gen::UnitValues::Appender out(values);
    for (std::uint64_t i = 37; i < 74; ++i) {
      out.set(i, static_cast<dtb::Wdl>(i % 3), i % 5 == 0);
      mtc.set(i, static_cast<int>(i));
    }
  }
  const SliceValues slice = read_slice(values, &mtc, 1, 1, 37);
  gen::UnitValues copy(5 * 37);
  gen::MtcValues copy_mtc(5 * 37);
  check(write_slice(slice, copy, &copy_mtc, 37), "a slice fits the table it came from");
  for (std::uint64_t i = 37; i < 74; ++i)
    check(copy.value(i) == values.value(i) && copy.capture(i) == values.capture(i) && copy_mtc.get(i) == mtc.get(i),
          "slice values back in place");
  check(!write_slice(slice, copy, nullptr, 36), "a slice of another size is refused");
  gen::UnitValues fresh(5 * 37);
  check(write_slice(read_slice(values, nullptr, 0, 4, 37), fresh, nullptr, 37), "the last slice fits");
  check(!write_slice(SliceValues{0, 5, 37, slice.wdl, {}}, copy, nullptr, 37), "a slice past the table is refused");

  const SliceTask task{unit, 3, {{1, 4}, {2}}, {slice, read_slice(values, nullptr, 0, 2, 37)}, {slice}};
  const SliceResult result{unit, 3, 17, 1.5, {slice}, {0x0123456789abcdef, 0xfedcba9876543210}};
  std::string error;
  const std::vector<std::uint8_t> task_bytes = encode(task), result_bytes = encode(result);
  const auto task_back = decode_task(task_bytes, error);
  const auto result_back = decode_result(result_bytes, error);
  check(task_back && task_back->unit == unit && task_back->level == 3 && task_back->slices == task.slices &&
            task_back->inputs.size() == 2 && same(task_back->inputs[0], task.inputs[0]) &&
            same(task_back->inputs[1], task.inputs[1]) && task_back->claimed.size() == 1 &&
            same(task_back->claimed[0], slice),
        "a task comes back from its bytes");
  check(result_back && result_back->unit == unit && result_back->rounds == 17 && result_back->seconds == 1.5 &&
            result_back->values.size() == 1 && same(result_back->values[0], slice) &&
            result_back->checksum == result.checksum,
        "a result comes back from its bytes");
  std::size_t accepted = 0;
  for (std::size_t n = 0; n < task_bytes.size(); ++n)
    accepted += decode_task(std::span(task_bytes.data(), n), error).has_value();
  for (std::size_t n = 0; n < result_bytes.size(); ++n)
    accepted += decode_result(std::span(result_bytes.data(), n), error).has_value();
  check(accepted == 0, "every truncated message is refused");
  check(!decode_task(result_bytes, error) || !decode_result(task_bytes, error), "a result is not a task");
}

// A part's checksum (slice_task.h) is over its values where they stand: the
// same values at another slice, one value changed, or one MTC changed, each
// give another checksum; values outside the part do not matter.
void check_part_checksums() {
  const auto fill = [](gen::UnitValues& values, gen::MtcValues& mtc, std::uint64_t first, std::uint64_t n) {
    gen::UnitValues::Appender out(values);
    for (std::uint64_t i = first; i < first + n; ++i) {
      out.set(i, static_cast<dtb::Wdl>((i - first) % 3), (i - first) % 7 == 0);
      mtc.set(i, static_cast<int>((i - first) % 50));
    }
  };
  gen::UnitValues values(6 * 37), moved(6 * 37);
  gen::MtcValues mtc(6 * 37), moved_mtc(6 * 37);
  fill(values, mtc, 37, 37);  // slice 1
  fill(moved, moved_mtc, 74, 37);  // the same values at slice 2
  const auto sum = [](const gen::UnitValues& v, const gen::MtcValues& m, std::uint32_t slice) {
    return part_checksum({&v}, {&m}, {{slice}}, {37});
  };
  const PartChecksum original = sum(values, mtc, 1);
  check(original == sum(values, mtc, 1), "a part's checksum is the same twice");
  check(!(original == sum(moved, moved_mtc, 2)), "the same values at another slice have another checksum");
  check(part_checksum({&values}, {}, {{1}}, {37}).mtc == 0, "no MTC, no MTC checksum");
  gen::UnitValues outside(6 * 37);
  gen::MtcValues outside_mtc(6 * 37);
  fill(outside, outside_mtc, 37, 37);
  fill(outside, outside_mtc, 111, 37);  // slice 3, not in the part
  check(sum(outside, outside_mtc, 1) == original, "values outside the part do not count");
  gen::UnitValues changed(6 * 37);
  gen::MtcValues changed_mtc(6 * 37);
  fill(changed, changed_mtc, 37, 37);
  {
    gen::UnitValues::Appender out(changed);
    out.set(36, dtb::Wdl::Win, false);  // slice 0: outside, leaves the checksum alone
  }
  changed_mtc.set(40, 49);
  const PartChecksum other_mtc = sum(changed, changed_mtc, 1);
  check(other_mtc.values == original.values && other_mtc.mtc != original.mtc, "one MTC changed: its checksum moves");
  {
    gen::UnitValues::Appender out(changed);
    out.set(40, dtb::Wdl::Win, false);  // was a loss (0): now a win
  }
  check(sum(changed, changed_mtc, 1).values != original.values, "one value changed: the values' checksum moves");
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
  if (rank == 1) {
    sender(mine);
  } else {
    check_slice_messages();
    check_part_checksums();
    receiver(mine);
  }
  int all_failures = 0;
  MPI_Reduce(&failures, &all_failures, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0 && all_failures == 0)
    std::printf("test_mpi_link: streamed files arrive whole; broken streams refused; part messages round-trip\n");
  MPI_Finalize();
  return all_failures == 0 ? 0 : 1;
}
