#include "compress/parallel_blocks.h"

#include <algorithm>
#include <atomic>
#include <mutex>
#include <new>
#include <stdexcept>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

namespace dtb {

TableError for_each_block(std::size_t blocks, int threads, const std::function<BlockJob()>& make_job,
                          const std::string& context) {
  std::atomic<std::size_t> next{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  TableError first_error;
  auto record = [&](TableError e) {
    std::lock_guard lock(error_mutex);
    if (!first_error) first_error = std::move(e);
    failed = true;
  };
  // An exception must not leave a helper thread (that would terminate the
  // process): it becomes the error of the block that raised it.
  auto work = [&] {
    std::size_t b = 0;
    try {
      const BlockJob job = make_job();
      while (!failed.load(std::memory_order_relaxed) && (b = next++) < blocks)
        if (TableError e = job(b)) record(std::move(e));
    } catch (const std::bad_alloc&) {
      record({TableStatus::OutOfMemory, context + ": out of memory at block " + std::to_string(b)});
    } catch (const std::exception& e) {
      record({TableStatus::IoError, context + ": block " + std::to_string(b) + ": " + e.what()});
    }
  };
  // No more helpers than blocks to share; none at all for a single block.
  const std::size_t wanted = threads > 1 ? static_cast<std::size_t>(threads - 1) : 0;
  const std::size_t helpers = std::min(wanted, blocks > 0 ? blocks - 1 : 0);
  std::vector<std::thread> pool;
  try {
    for (std::size_t t = 0; t < helpers; ++t) pool.emplace_back(work);
  } catch (const std::system_error&) {
    // No thread to spare: the threads started so far and this one do the work.
  }
  work();
  for (std::thread& t : pool) t.join();
  return first_error;
}

}  // namespace dtb
