#include "probe/tablebase.h"

#include <new>
#include <vector>

#include "index/colour.h"
#include "probe/capture_check.h"

namespace dtb::probe {
namespace {

dtb_status fail(ProbeError* error, dtb_status status, const Table* t, std::int64_t block,
                std::string message) {
  if (error) {
    error->status = status;
    error->material = t ? t->material.name() : "";
    error->block = block;
    error->message = std::move(message);
  }
  return status;
}

// Cache key of page `page_number` (counted from the table's first page) of a
// table: the table id in the top 16 bits. A table has fewer than 2^62
// positions (PositionIndex), hence fewer than 2^48 pages of 2^14 positions.
std::uint64_t page_key(const Table& t, std::uint64_t page_number) {
  return (t.id << 48) | page_number;
}

}  // namespace

Tablebase::Tablebase(std::unique_ptr<TableDirectory> directory, std::size_t cache_bytes)
    : directory_(std::move(directory)), cache_(cache_bytes) {}

dtb_status Tablebase::open(const std::string& dirs, std::size_t cache_bytes, int max_pieces,
                           std::unique_ptr<Tablebase>& out, ProbeError* error) {
  std::unique_ptr<TableDirectory> directory;
  std::string message;
  if (const dtb_status s = TableDirectory::scan(dirs, max_pieces, directory, message); s != DTB_OK)
    return fail(error, s, nullptr, -1, message);
  return make(std::move(directory), cache_bytes, out, error);
}

dtb_status Tablebase::open_expecting(const std::string& dir, std::size_t cache_bytes, int max_pieces,
                                     std::unique_ptr<Tablebase>& out, ProbeError* error) {
  std::unique_ptr<TableDirectory> directory;
  std::string message;
  if (const dtb_status s = TableDirectory::expect(dir, max_pieces, directory, message); s != DTB_OK)
    return fail(error, s, nullptr, -1, message);
  return make(std::move(directory), cache_bytes, out, error);
}

dtb_status Tablebase::make(std::unique_ptr<TableDirectory> directory, std::size_t cache_bytes,
                           std::unique_ptr<Tablebase>& out, ProbeError* error) {
  try {
    out.reset(new Tablebase(std::move(directory), cache_bytes));
  } catch (const std::bad_alloc&) {
    return fail(error, DTB_OUT_OF_MEMORY, nullptr, -1,
                "cannot allocate a cache of " + std::to_string(cache_bytes) + " bytes");
  }
  return DTB_OK;
}

namespace {

// A position past the tables: the material it would need, for the caller.
dtb_status too_many_pieces(ProbeError* error, const Position& p, std::string message) {
  fail(error, DTB_TOO_MANY_PIECES, nullptr, -1, std::move(message));
  if (error) error->material = table_material(p).name();
  return DTB_TOO_MANY_PIECES;
}

dtb_status not_cached(ProbeError* error, const Material& m) {
  fail(error, DTB_NOT_CACHED, nullptr, -1, "a value of " + m.name() + " is not in the cache");
  if (error) error->material = m.name();
  return DTB_NOT_CACHED;
}

}  // namespace

dtb_status Tablebase::check_size(const Position& p, ProbeError* error) const {
  const int pieces = popcount(p.occupied());
  if (pieces <= max_pieces()) return DTB_OK;
  return too_many_pieces(error, p, std::to_string(pieces) + " pieces, the largest table in " + directory_->path() +
                                       " has " + std::to_string(max_pieces()));
}

dtb_status Tablebase::check_reach(const Position& p, ProbeError* error) const {
  const int pieces = popcount(p.occupied());
  if (pieces <= max_pieces() || (pieces <= max_pieces() + kCaptureReach && must_capture(p))) return DTB_OK;
  return too_many_pieces(error, p,
                         std::to_string(pieces) + " pieces, the largest table in " + directory_->path() + " has " +
                             std::to_string(max_pieces()) +
                             (must_capture(p) ? "" : " (and the side to move has no capture)"));
}

dtb_status Tablebase::wdl(const Position& p, Wdl& out, ProbeError* error, Lookup lookup) {
  if (const dtb_status s = check_reach(p, error); s != DTB_OK) return s;
  return resolve(p, out, error, lookup);
}

dtb_status Tablebase::wdl_after(const Position& p, const Move& m, Wdl& out, ProbeError* error) {
  const Position child = make_move(p, m);
  if (child.pieces(child.side) == 0) {  // the last opposing piece was taken
    out = Wdl::Win;
    return DTB_OK;
  }
  Wdl v;
  const dtb_status s = wdl(child, v, error);
  if (s == DTB_OK) out = negate(v);
  return s;
}

dtb_status Tablebase::resolve(const Position& p, Wdl& out, ProbeError* error, Lookup lookup) {
  if (p.pieces(p.side) == 0) {  // FMJD 7.2: no piece left is a loss
    out = Wdl::Loss;
    return DTB_OK;
  }
  if (!must_capture(p)) return quiet_wdl(p, out, error, lookup);
  if (popcount(p.pieces(opposite(p.side))) == 1) {  // any capture takes the last piece: a win
    out = Wdl::Win;
    return DTB_OK;
  }

  MoveList captures;  // all legal moves are captures here
  generate_moves(p, captures);
  // A win found after a failed successor is still a correct answer, so an
  // error is only reported if no capture wins.
  Wdl best = Wdl::Loss;
  dtb_status first_error = DTB_OK;
  for (const Move& m : captures) {
    const Position child = make_move(p, m);
    Wdl v = Wdl::Win;
    if (child.pieces(child.side) != 0) {
      Wdl child_value;
      const dtb_status s = resolve(child, child_value, first_error == DTB_OK ? error : nullptr, lookup);
      if (s != DTB_OK) {
        if (first_error == DTB_OK) first_error = s;
        continue;
      }
      v = negate(child_value);
    }
    if (v == Wdl::Win) {
      out = Wdl::Win;
      return DTB_OK;
    }
    if (v > best) best = v;
  }
  if (first_error != DTB_OK) return first_error;
  out = best;
  return DTB_OK;
}

dtb_status Tablebase::quiet_wdl(const Position& p, Wdl& out, ProbeError* error, Lookup lookup) {
  // Reached from a capture past the tables (check_reach): no table to read.
  if (popcount(p.occupied()) > max_pieces()) return check_size(p, error);
  const Position w = p.side == Color::White ? p : colour_reversed(p);
  const Table* t = lookup == Lookup::Load ? &directory_->table(material_of(w)) : directory_->opened(material_of(w));
  if (!t) return not_cached(error, material_of(w));
  if (t->status != DTB_OK) return fail(error, t->status, t, -1, t->error);
  return read(*t, t->index->rank(w), out, error, lookup);
}

dtb_status Tablebase::read(const Table& t, std::uint64_t index, Wdl& out, ProbeError* error, Lookup lookup) {
  const std::uint64_t block =
      t.block_shift >= 0 ? index >> t.block_shift : index / t.positions_per_block;
  const std::uint64_t in_block = index - block * t.positions_per_block;
  const auto page = static_cast<std::uint32_t>(in_block >> BlockCache::kPagePositionsLog2);
  const auto offset = static_cast<std::uint32_t>(in_block & (BlockCache::kPagePositions - 1));
  int value = cache_.lookup(page_key(t, block * t.pages_per_block + page), offset);
  if (value < 0) {
    if (lookup == Lookup::CacheOnly) return not_cached(error, t.material);
    if (const dtb_status s = decode_into_cache(t, block, page, offset, value, error); s != DTB_OK)
      return s;
  }
  if (value > static_cast<int>(Wdl::Win))
    return fail(error, DTB_CORRUPTED_TABLE, &t, static_cast<std::int64_t>(block),
                t.path + ": block " + std::to_string(block) + " holds the value " +
                    std::to_string(value) + " at a position that needs a win/draw/loss");
  out = static_cast<Wdl>(value);
  return DTB_OK;
}

dtb_status Tablebase::decode_into_cache(const Table& t, std::uint64_t block, std::uint32_t page,
                                        std::uint32_t offset, int& value, ProbeError* error) {
  // One scratch buffer per thread: a miss costs a decode, not an allocation.
  thread_local std::vector<std::uint8_t> packed;
  blocks_decoded_.fetch_add(1, std::memory_order_relaxed);
  try {
    const TableError err = t.reader->decode_block_packed2(block, packed);
    if (err) {
      const dtb_status s = err.status == TableStatus::OutOfMemory ? DTB_OUT_OF_MEMORY
                           : err.status == TableStatus::IoError   ? DTB_IO_ERROR
                                                                  : DTB_CORRUPTED_TABLE;
      return fail(error, s, &t, static_cast<std::int64_t>(block),
                  err.message.empty() ? t.path + ": block " + std::to_string(block) + " is damaged"
                                      : err.message);
    }
    // Whole pages only: the cache copies kPageBytes per page.
    packed.resize(std::size_t{t.pages_per_block} * BlockCache::kPageBytes, 0);
  } catch (const std::bad_alloc&) {
    return fail(error, DTB_OUT_OF_MEMORY, &t, static_cast<std::int64_t>(block),
                "out of memory decoding block " + std::to_string(block) + " of " + t.path);
  }
  for (std::uint32_t p = 0; p < t.pages_per_block; ++p)
    cache_.insert(page_key(t, block * t.pages_per_block + p),
                  packed.data() + std::size_t{p} * BlockCache::kPageBytes);
  value = BlockCache::unpack(packed.data() + std::size_t{page} * BlockCache::kPageBytes, offset);
  return DTB_OK;
}

}  // namespace dtb::probe
