// The messages of a distributed build, over MPI point-to-point calls.
//
// Only the calling thread of each process talks MPI (MPI_THREAD_FUNNELED):
// the OpenMP threads of a solve never do. Waiting is polling with a short
// sleep rather than a blocking receive, because Open MPI's blocking receive
// spins a core, and on a small machine that core belongs to the solvers.
//
// Table files stream: a header message ("name<TAB>bytes"), the bytes in
// chunks of at most kChunkBytes read from the file one at a time (an MPI
// count is an int; neither side ever holds more than a chunk of a file, which
// at 7 pieces is 1 GiB and at 8 pieces 19 GiB), then an end message,
// "ok<TAB>XXH3 of the bytes" or "error<TAB>why" (the file could not be read
// to its end after the header went out). MPI keeps the order of messages
// between two processes, so chunks and end follow their header. The receiver
// appends each chunk to a temporary file and publishes it under its name
// (compress/atomic_file.h) only if the end says ok, the size is the one
// announced and the XXH3 of what arrived matches: a half-sent or damaged
// table never looks finished. A header naming anything but a table file of
// the build is refused.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace dtb::cluster {

enum Tag : int {
  kReady = 1,   // worker -> 0: idle (sent once; DONE says it again)
  kAssign,      // 0 -> worker: "unit", a whole unit (kings only: one level)
  kFileHeader,  // either way: "name<TAB>bytes"; the chunks follow
  kFileChunk,
  kDone,        // worker -> 0: "unit<TAB>solve seconds<TAB>write seconds"
  kFailed,      // worker -> 0: why
  kStop,        // 0 -> worker: no more units
  kFileEnd,     // after a file's chunks: "ok<TAB>xxh3 hex" or "error<TAB>why"
  kOpen,        // 0 -> worker, first: the block cache's bytes for finished tables
  kAssignPart,  // 0 -> worker: a part of a level (cluster/slice_task.h, binary)
  kPartDone,    // worker -> 0: its values (binary)
  kAssignCheck, // 0 -> worker: a part another worker solved, to check (slice_task.h, binary)
  kCheckDone,   // worker -> 0: "ok<TAB>seconds" or "failed<TAB>seconds<TAB>why"
};

inline constexpr std::uint64_t kChunkBytes = std::uint64_t{64} << 20;

struct Message {
  int source = -1;
  int tag = 0;
  std::string text;  // empty for kFileChunk: receive_file() reads those
};

/// The next message from `source` (MPI_ANY_SOURCE: anyone), except a file's
/// chunks and end (receive_file() reads those).
Message receive_message(int source);
/// The same without waiting: nullopt if no such message has arrived yet.
std::optional<Message> try_receive_message(int source);
/// Receive and drop every message from `source`, a file's chunks and end
/// included, until one tagged `tag` (dropped too). What a worker that has
/// failed does until the job ends: a sender blocked on a large message to it
/// (a file's chunk to a worker whose disk is full) would otherwise wait for
/// good, and never read the failure.
void discard_until(int source, int tag);
/// How long a waiting receiver sleeps between looks: small against any
/// part's solve, and a sleeping rank costs no CPU (Open MPI's blocking
/// receive would spin a core).
inline constexpr auto kPollInterval = std::chrono::milliseconds(2);
void send_text(int destination, int tag, const std::string& text);
void send_data(int destination, int tag, std::span<const std::uint8_t> data);

/// Send the file at `path` to `destination` under `name`, `chunk_bytes` at a
/// time. Returns the bytes sent, or -1 with `error` set if the file cannot be
/// read (once the header is out, the end message tells the receiver too).
std::int64_t send_file(int destination, const std::string& path, const std::string& name, std::string& error,
                       std::uint64_t chunk_bytes = kChunkBytes);

/// Receive the file announced by `header` from `source` into `dir`. Returns
/// the bytes received, or -1 with `error` set (a bad name, a write error, a
/// sender that could not read its file, a size or checksum mismatch: nothing
/// is left under the name; the chunks are consumed all the same, so the
/// stream stays in step).
std::int64_t receive_file(int source, const std::string& header, const std::string& dir, std::string& error);

/// Whether `name` is a file a build writes: a material's .wdl, .mtc, .stats or .mtc-stats.
bool is_table_file_name(const std::string& name);

}  // namespace dtb::cluster
