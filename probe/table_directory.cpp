#include "probe/table_directory.h"

#include <algorithm>
#include <bit>
#include <filesystem>
#include <new>
#include <system_error>

#include "probe/block_cache.h"

namespace dtb::probe {
namespace {

// Table ids (slot + 1) stay below 2^15, so a WDL cache key (id << 48) never
// has BlockCache::kWideKeyBit, the mark of the 16-bit tables' pages.
constexpr int kSlotsPerCount = kMaxSupportedPieces + 1;
static_assert(kSlotsPerCount * kSlotsPerCount * kSlotsPerCount * kSlotsPerCount < (1 << 15));

dtb_status status_of(TableStatus s) {
  switch (s) {
    case TableStatus::Ok: return DTB_OK;
    case TableStatus::Missing: return DTB_TABLE_MISSING;
    case TableStatus::IoError: return DTB_IO_ERROR;
    case TableStatus::OutOfMemory: return DTB_OUT_OF_MEMORY;
    default: return DTB_CORRUPTED_TABLE;  // bad magic/version/header, truncated, checksum, decode
  }
}

}  // namespace

TableDirectory::TableDirectory(TableLocator locator, int max_pieces)
    : locator_(std::move(locator)), max_pieces_(max_pieces) {
  const std::size_t k = static_cast<std::size_t>(max_pieces_) + 1;
  slots_ = std::vector<std::atomic<const Table*>>(k * k * k * k);
  for (auto& s : slots_) s.store(nullptr, std::memory_order_relaxed);
}

dtb_status TableDirectory::scan(const std::string& dirs, int max_pieces, std::unique_ptr<TableDirectory>& out,
                                std::string& message) {
  TableLocator locator(dirs);
  if (const dtb_status s = locator.scan(message); s != DTB_OK) return s;
  const int largest = locator.max_wdl_pieces();
  out.reset(new TableDirectory(std::move(locator), max_pieces > 0 ? std::min(max_pieces, largest) : largest));
  return DTB_OK;
}

dtb_status TableDirectory::expect(const std::string& dir, int max_pieces, std::unique_ptr<TableDirectory>& out,
                                  std::string& message) {
  std::error_code ec;
  if (!std::filesystem::is_directory(dir, ec)) {
    message = "cannot read table directory '" + dir + "'" + (ec ? ": " + ec.message() : "");
    return DTB_IO_ERROR;
  }
  out.reset(new TableDirectory(TableLocator(dir), std::min(max_pieces, kMaxSupportedPieces)));
  return DTB_OK;
}

std::size_t TableDirectory::slot_of(const Material& m) const {
  const std::size_t k = static_cast<std::size_t>(max_pieces_) + 1;
  return ((m.white_kings * k + m.white_men) * k + m.black_kings) * k + m.black_men;
}

void TableDirectory::drop_resident_pages() {
  std::lock_guard<std::mutex> guard(open_mutex_);
  for (const auto& t : owned_)
    if (t->reader) t->reader->drop_resident_pages();
}

const Table* TableDirectory::opened(const Material& m) const {
  return slots_[slot_of(m)].load(std::memory_order_acquire);
}

const Table& TableDirectory::table(const Material& m) {
  std::atomic<const Table*>& slot = slots_[slot_of(m)];
  if (const Table* t = slot.load(std::memory_order_acquire)) return *t;
  std::lock_guard<std::mutex> guard(open_mutex_);
  if (const Table* t = slot.load(std::memory_order_relaxed)) return *t;  // opened meanwhile
  owned_.push_back(open_table(m, slot_of(m) + 1));
  slot.store(owned_.back().get(), std::memory_order_release);
  return *owned_.back();
}

std::unique_ptr<Table> TableDirectory::open_table(const Material& m, std::uint64_t id) const {
  auto t = std::make_unique<Table>();
  t->material = m;
  t->id = id;
  t->path = locator_.path_of(m.name() + table_extension(TableKind::Wdl));
  auto fail = [&](dtb_status s, std::string why) {
    t->status = s;
    t->error = std::move(why);
    t->reader.reset();
    return std::move(t);
  };
  try {
    TableError err;
    t->reader = TableReader::open(t->path, &err);
    if (!t->reader || err) {
      if (err.status == TableStatus::Missing)
        return fail(DTB_TABLE_MISSING, "no table for " + m.name() + " (" + t->path + ")");
      return fail(err ? status_of(err.status) : DTB_IO_ERROR,
                  err.message.empty() ? "cannot open " + t->path : err.message);
    }
    // The header was checked by the reader; check that it is the table we
    // asked for, so a renamed or foreign file cannot answer for another material.
    const TableReader& r = *t->reader;
    if (r.kind() != TableKind::Wdl)
      return fail(DTB_CORRUPTED_TABLE, t->path + ": not a WDL table");
    if (r.material() != m)
      return fail(DTB_CORRUPTED_TABLE,
                  t->path + ": holds material " + r.material().name() + ", not " + m.name());
    t->index.emplace(m);
    if (r.positions() != t->index->size())
      return fail(DTB_CORRUPTED_TABLE, t->path + ": holds " + std::to_string(r.positions()) +
                                           " positions, the index of " + m.name() + " has " +
                                           std::to_string(t->index->size()));
    if (r.max_value() > 3 || r.positions_per_block() == 0)
      return fail(DTB_CORRUPTED_TABLE, t->path + ": values or block size unfit for a WDL table");
    t->positions_per_block = r.positions_per_block();
    if (std::has_single_bit(t->positions_per_block))
      t->block_shift = std::countr_zero(t->positions_per_block);
    t->pages_per_block = static_cast<std::uint32_t>(
        (t->positions_per_block + BlockCache::kPagePositions - 1) / BlockCache::kPagePositions);
  } catch (const std::bad_alloc&) {
    return fail(DTB_OUT_OF_MEMORY, "out of memory opening " + t->path);
  } catch (const std::exception& e) {
    return fail(DTB_CORRUPTED_TABLE, t->path + ": " + e.what());
  }
  return t;
}

}  // namespace dtb::probe
