// The messages of a distributed build, over MPI point-to-point calls.
//
// Only the calling thread of each process talks MPI (MPI_THREAD_FUNNELED):
// the OpenMP threads of a solve never do. Waiting is polling with a short
// sleep rather than a blocking receive, because Open MPI's blocking receive
// spins a core, and on a small machine that core belongs to the solvers.
//
// Table files travel whole: a header message ("name<TAB>bytes"), then the
// bytes in chunks of at most kChunkBytes (an MPI count is an int). MPI keeps
// the order of messages between two processes, so the chunks follow their
// header. Files are written atomically (compress/atomic_file.h) under their
// plain name only: a header naming anything but a table file of the build
// is refused.
#pragma once

#include <cstdint>
#include <string>

namespace dtb::cluster {

enum Tag : int {
  kReady = 1,   // worker -> 0: idle (sent once; DONE says it again)
  kAssign,      // 0 -> worker: "unit<TAB>cache bytes"
  kFileHeader,  // either way: "name<TAB>bytes"; the chunks follow
  kFileChunk,
  kDone,        // worker -> 0: "unit<TAB>solve seconds<TAB>write seconds"
  kFailed,      // worker -> 0: why
  kStop,        // 0 -> worker: no more units
};

inline constexpr std::uint64_t kChunkBytes = std::uint64_t{64} << 20;

struct Message {
  int source = -1;
  int tag = 0;
  std::string text;  // empty for kFileChunk: receive_file() reads those
};

/// The next message from `source` (MPI_ANY_SOURCE: anyone), except file chunks.
Message receive_message(int source);
void send_text(int destination, int tag, const std::string& text);

/// Send the file at `path` to `destination` under `name`. Returns the bytes
/// sent, or -1 with `error` set if the file cannot be read.
std::int64_t send_file(int destination, const std::string& path, const std::string& name, std::string& error);

/// Receive the file announced by `header` from `source` into `dir`. Returns
/// the bytes received, or -1 with `error` set (a bad name, a write error; the
/// chunks are consumed all the same, so the stream stays in step).
std::int64_t receive_file(int source, const std::string& header, const std::string& dir, std::string& error);

/// Whether `name` is a file a build writes: a material's .wdl, .mtc or .stats.
bool is_table_file_name(const std::string& name);

}  // namespace dtb::cluster
