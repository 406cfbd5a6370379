// The probe proper: the value of a position from a directory of WDL tables.
//
// Tables store White to move only, and store nothing meaningful for
// positions where the side to move must capture (the generator marks them
// "don't care" and the writer fills them with whatever compresses best).
// So a probe:
//   1. if the side to move has a capture: searches the captures (the move
//      generator applies the majority rule) and takes
//      value = max over captures of negate(value(successor)),
//      where a successor whose side to move has no piece left is a win for
//      the capturer. Successors are probed the same way; the recursion ends
//      because every capture removes pieces.
//   2. otherwise ("quiet"): one table read, of the position itself with White
//      to move, or of its colour reversal (reversed material) with Black to move.
// A quiet position without legal moves needs no special case: the table
// holds its loss.
//
// Thread safety: every member may be called from many threads at once.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "dtb/dtb.h"
#include "probe/block_cache.h"
#include "probe/table_directory.h"
#include "rules/movegen.h"
#include "rules/value.h"

namespace dtb::probe {

/// Why a probe failed (filled only on failure, only if asked for).
struct ProbeError {
  dtb_status status = DTB_OK;
  std::string material;     // material of the table involved, if any
  std::int64_t block = -1;  // damaged block, if any
  std::string message;
};

class Tablebase {
 public:
  /// Open a table set (one directory, or several as "a:b": TableDirectory)
  /// with a cache of about `cache_bytes`, probing tables of at most
  /// `max_pieces` pieces (0: all there are).
  static dtb_status open(const std::string& dirs, std::size_t cache_bytes, int max_pieces,
                         std::unique_ptr<Tablebase>& out, ProbeError* error);

  /// The same for a directory that a build is filling: tables of up to
  /// `max_pieces` pieces are opened when first asked for (TableDirectory::expect).
  static dtb_status open_expecting(const std::string& dir, std::size_t cache_bytes, int max_pieces,
                                   std::unique_ptr<Tablebase>& out, ProbeError* error);

  int max_pieces() const { return directory_->max_pieces(); }
  /// Where the set's files are: the other kinds of table are found there too.
  const TableLocator& locator() const { return directory_->locator(); }

  /// How a probe may get a value: `Load` reads and decodes what the cache
  /// lacks (opening the table on first use); `CacheOnly` answers from the
  /// cache alone and gives DTB_NOT_CACHED where it would have to read, the
  /// probe a search makes at interior nodes.
  enum class Lookup { Load, CacheOnly };

  /// How far past the largest table a position is answered when its side to
  /// move must capture. Captures are compulsory, so a search meets such
  /// positions everywhere: every capture takes at least one piece, so with
  /// one piece more than the tables every successor is in them, and with two
  /// more every successor is either in them or must capture again (else
  /// DTB_TOO_MANY_PIECES). The bound keeps the capture search small.
  static constexpr int kCaptureReach = 2;

  /// DTB_TOO_MANY_PIECES if `p` has more pieces than the largest table (the
  /// probes that read a table at `p` itself: .dtw, .rule).
  dtb_status check_size(const Position& p, ProbeError* error) const;

  /// The same, except that a position whose side to move must capture may
  /// have up to kCaptureReach pieces more (the probes that resolve captures
  /// through their successors: WDL, MTC, the article 6.2 value, moves).
  dtb_status check_reach(const Position& p, ProbeError* error) const;

  /// Value of a valid position for its side to move. DTB_TOO_MANY_PIECES if
  /// it has more pieces than the largest table and is not resolved by its
  /// captures (check_reach).
  dtb_status wdl(const Position& p, Wdl& out, ProbeError* error, Lookup lookup = Lookup::Load);

  /// Value of the position after move `m` of `p`, for the side that made it.
  dtb_status wdl_after(const Position& p, const Move& m, Wdl& out, ProbeError* error);

  /// The cache of decoded blocks, shared with the readers of the handle's
  /// other tables (LimitTableFiles): one budget for all that it keeps.
  BlockCache& cache() { return cache_; }

  /// How many blocks probes have decoded from the files (cache misses).
  std::uint64_t blocks_decoded() const { return blocks_decoded_.load(std::memory_order_relaxed); }
  /// Release the file pages those decodes mapped (TableDirectory::
  /// drop_resident_pages): for a caller that bounds its RSS, every so many
  /// blocks_decoded(). Safe during probes.
  void drop_mapped_pages() { directory_->drop_resident_pages(); }

 private:
  Tablebase(std::unique_ptr<TableDirectory> directory, std::size_t cache_bytes);
  static dtb_status make(std::unique_ptr<TableDirectory> directory, std::size_t cache_bytes,
                         std::unique_ptr<Tablebase>& out, ProbeError* error);

  dtb_status resolve(const Position& p, Wdl& out, ProbeError* error, Lookup lookup);
  dtb_status quiet_wdl(const Position& p, Wdl& out, ProbeError* error, Lookup lookup);
  dtb_status read(const Table& t, std::uint64_t index, Wdl& out, ProbeError* error, Lookup lookup);
  dtb_status decode_into_cache(const Table& t, std::uint64_t block, std::uint32_t page,
                               std::uint32_t offset, int& value, ProbeError* error);

  std::unique_ptr<TableDirectory> directory_;
  BlockCache cache_;
  std::atomic<std::uint64_t> blocks_decoded_{0};
};

}  // namespace dtb::probe
