// Running one job per block on several threads, for the table writer.
//
// Writing a 5-piece table is mostly per-block work (fill the don't-care
// positions, pack, compress) that needs nothing from other blocks, so the
// writer spreads it over threads. Plain std::thread, not OpenMP: the probe
// library links compress/ and must not pull in an OpenMP runtime.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "compress/table_file.h"

namespace dtb {

/// The job of one thread: called for each block it takes, in increasing order.
using BlockJob = std::function<TableError(std::size_t block)>;

/// Runs a job for every block in [0, blocks) on up to `threads` threads (the
/// calling thread is one of them). make_job() is called once per thread so
/// each gets its own state (a zstd context, scratch buffers). Blocks are
/// handed out one at a time from a shared counter; after the first error no
/// new block starts, and that error is returned. Which thread does a block
/// must not change the result: each block's output goes to its own slot.
/// An exception thrown by a job (out of memory, ...) becomes the returned
/// error, its message starting with `context` (e.g. "cannot write PATH").
TableError for_each_block(std::size_t blocks, int threads, const std::function<BlockJob()>& make_job,
                          const std::string& context);

}  // namespace dtb
