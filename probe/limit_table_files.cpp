#include "probe/limit_table_files.h"

#include <algorithm>
#include <new>
#include <optional>
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

// The cache key of a table's first page: the wide mark, the kind (bits
// 56-62), the material at 4 bits a count (bits 40-55), and the page number
// below: 2^40 pages of 2^11 values, far more than any table that can be
// built. Made of what the table is, so no two tables of a handle share one.
// nullopt for a table that would not fit.
std::optional<std::uint64_t> first_page_key(TableKind kind, const Material& m, std::uint64_t pages) {
  constexpr int kPageBits = 40;
  for (const int count : {m.white_kings, m.white_men, m.black_kings, m.black_men})
    if (count > 15) return std::nullopt;
  if (pages >> kPageBits) return std::nullopt;
  const std::uint64_t material = (std::uint64_t{m.white_kings} << 12) | (std::uint64_t{m.white_men} << 8) |
                                 (std::uint64_t{m.black_kings} << 4) | m.black_men;
  return BlockCache::kWideKeyBit | ((static_cast<std::uint64_t>(kind) & 0x7F) << 56) | (material << kPageBits);
}

}  // namespace

const LimitTableFiles::OpenTable* LimitTableFiles::table(const Material& m, ProbeError* error) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = open_.find(m); it != open_.end()) return it->second.get();
  const std::string path = locator_.path_of(m.name() + table_extension(kind_));
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
  if (reader->positions() != entry->index->size() || reader->positions_per_block() == 0) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), -1, path + ": wrong number of positions");
    return nullptr;
  }
  entry->pages_per_block =
      (reader->positions_per_block() + BlockCache::kWidePagePositions - 1) / BlockCache::kWidePagePositions;
  const auto key = first_page_key(kind_, m, reader->block_count() * entry->pages_per_block);
  if (!key) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), -1, path + ": too many positions for the probe's cache");
    return nullptr;
  }
  entry->key = *key;
  entry->reader = std::move(reader);
  return open_.emplace(m, std::move(entry)).first->second.get();
}

void LimitTableFiles::drop_mapped_pages() {
  std::lock_guard<std::mutex> lock(mutex_);  // (the map may grow meanwhile)
  for (const auto& [m, t] : open_) t->reader->drop_resident_pages();
}

dtb_status LimitTableFiles::max_value(const Material& m, std::uint16_t& out, ProbeError* error) {
  ProbeError open_error;
  const OpenTable* t = table(m, &open_error);
  if (!t) {
    if (error) *error = open_error;
    return open_error.status;
  }
  out = t->reader->max_value();
  return DTB_OK;
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
  const std::uint64_t block = index / per_block, in_block = index % per_block;
  const std::uint64_t page = block * t->pages_per_block + in_block / BlockCache::kWidePagePositions;
  const auto offset = static_cast<std::uint32_t>(in_block % BlockCache::kWidePagePositions);
  if (const int cached = cache_.lookup_wide(t->key | page, offset); cached >= 0) {
    out = static_cast<std::uint16_t>(cached);
    return DTB_OK;
  }
  return decode_into_cache(*t, block, in_block, out, error);
}

dtb_status LimitTableFiles::decode_into_cache(const OpenTable& t, std::uint64_t block, std::uint64_t in_block,
                                              std::uint16_t& out, ProbeError* error) {
  // One scratch buffer per thread: a miss costs a decode, not an allocation.
  thread_local std::vector<std::uint16_t> values;
  const std::string name = t.reader->material().name();
  const auto block_number = static_cast<std::int64_t>(block);
  // A damaged block goes nowhere: the next probe of it decodes it again and
  // fails again, as a damaged WDL block does.
  try {
    if (const TableError e = t.reader->decode_block(block, values))
      return fail(error, status_of(e), name, block_number,
                  e.message.empty() ? name + ": block " + std::to_string(block) + " is damaged" : e.message);
  } catch (const std::bad_alloc&) {
    return fail(error, DTB_OUT_OF_MEMORY, name, block_number,
                "out of memory decoding block " + std::to_string(block) + " of " + name + table_extension(kind_));
  }
  blocks_decoded_.fetch_add(1, std::memory_order_relaxed);
  constexpr std::size_t kWide = BlockCache::kWidePagePositions;
  for (std::size_t first = 0, page = 0; first < values.size(); first += kWide, ++page)
    cache_.insert_wide(t.key | (block * t.pages_per_block + page), values.data() + first,
                       std::min(kWide, values.size() - first));
  out = values[in_block];
  return DTB_OK;
}

}  // namespace dtb::probe
