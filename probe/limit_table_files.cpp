#include "probe/limit_table_files.h"

#include <array>
#include <atomic>
#include <new>
#include <vector>

namespace dtb::probe {
namespace {

dtb_status fail(ProbeError* error, dtb_status status, const std::string& material, std::int64_t block,
                std::string message) {
  if (error) *error = ProbeError{status, material, block, std::move(message)};
  return status;
}

dtb_status status_of(const TableError& e) {
  switch (e.status) {
    case TableStatus::Missing: return DTB_TABLE_MISSING;
    case TableStatus::IoError: return DTB_IO_ERROR;
    case TableStatus::OutOfMemory: return DTB_OUT_OF_MEMORY;
    default: return DTB_CORRUPTED_TABLE;
  }
}

// Serials start at 1 so that 0 never names a file: a thread's empty block
// slot matches nothing.
std::atomic<std::uint64_t> next_serial{1};

// A few decoded blocks per thread, direct-mapped by (file, block). One block
// would do for a scan of one file in index order, but a caller that
// alternates between files (dtb_probe_mtc beside dtb_probe_dtw, or a best
// move reading the MTC of each successor: other materials after captures,
// other blocks after king moves) would decode a block on every probe.
struct DecodedBlock {
  std::uint64_t serial = 0;
  std::uint64_t block = 0;
  std::vector<std::uint16_t> values;
};
constexpr std::size_t kSlots = 16;
thread_local std::array<DecodedBlock, kSlots> decoded_blocks;

DecodedBlock& slot_of(std::uint64_t serial, std::uint64_t block) {
  // Consecutive blocks of a file take consecutive slots; files start apart.
  return decoded_blocks[(block + serial * 5) % kSlots];
}

}  // namespace

const LimitTableFiles::OpenTable* LimitTableFiles::table(const Material& m, ProbeError* error) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = open_.find(m); it != open_.end()) return it->second.get();
  const std::string path = dir_ + "/" + m.name() + table_extension(kind_);
  TableError e;
  auto reader = TableReader::open(path, &e);
  if (!reader) {
    fail(error, status_of(e), m.name(), -1, e.message);
    return nullptr;
  }
  if (reader->kind() != kind_ || !(reader->material() == m)) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), -1,
         path + ": not a " + table_extension(kind_) + " table of " + m.name());
    return nullptr;
  }
  auto entry = std::make_unique<OpenTable>();
  entry->index = std::make_unique<PositionIndex>(m);
  if (reader->positions() != entry->index->size()) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), -1, path + ": wrong number of positions");
    return nullptr;
  }
  entry->reader = std::move(reader);
  entry->serial = next_serial.fetch_add(1, std::memory_order_relaxed);
  return open_.emplace(m, std::move(entry)).first->second.get();
}

dtb_status LimitTableFiles::value(const Position& w, std::uint16_t& out, ProbeError* error) {
  const Material m = material_of(w);
  ProbeError open_error;
  const OpenTable* t = table(m, &open_error);
  if (!t) {
    if (error) *error = open_error;
    return open_error.status;
  }
  const std::uint64_t index = t->index->rank(w);
  const std::uint64_t per_block = t->reader->positions_per_block();
  const std::uint64_t block = index / per_block;
  DecodedBlock& slot = slot_of(t->serial, block);
  if (slot.serial != t->serial || slot.block != block) {
    slot.serial = 0;  // a failed decode leaves no stale block behind
    try {
      if (const TableError e = t->reader->decode_block(block, slot.values))
        return fail(error, status_of(e), m.name(), static_cast<std::int64_t>(block),
                    e.message.empty() ? t->reader->material().name() + ": block " + std::to_string(block) +
                                            " is damaged"
                                      : e.message);
    } catch (const std::bad_alloc&) {
      return fail(error, DTB_OUT_OF_MEMORY, m.name(), static_cast<std::int64_t>(block),
                  "out of memory decoding block " + std::to_string(block) + " of " + m.name() +
                      table_extension(kind_));
    }
    slot.serial = t->serial;
    slot.block = block;
  }
  out = slot.values[index % per_block];
  return DTB_OK;
}

}  // namespace dtb::probe
