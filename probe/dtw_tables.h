// Distance to win from the `.dtw` tables that `dtb gen --dtw` writes (encoding
// in compress/value_encoding.h): plies to the end of the game with perfect play,
// winner shortest, loser longest. What dtb_probe_dtw answers and what `dtb
// probe` and `dtb serve` show beside the WDL value (serve/probe_report.h), per
// position and per move. Unlike the WDL tables, .dtw tables hold capture
// positions: no search.
//
// The files are read by LimitTableFiles, in the handle's block cache.
//
// Thread safety: every member may be called from many threads at once.
#pragma once

#include <string>

#include "dtb/dtb.h"
#include "compress/value_encoding.h"
#include "probe/limit_table_files.h"
#include "rules/movegen.h"

namespace dtb::probe {

class DtwTables {
 public:
  DtwTables(BlockCache& cache, const TableLocator& locator) : files_(cache, locator, TableKind::Dtw) {}

  /// dtw of a valid position for its side to move; a side without pieces
  /// has lost in 0 (FMJD 7.2: the game is over). DTB_TABLE_MISSING if its
  /// material's .dtw file is absent.
  dtb_status dtw(const Position& p, Outcome& out, ProbeError* error);

  /// The same for the side that plays `m` (legal in `p`): the result it
  /// keeps and the plies from `p` to the end, 1 + the dtw after the move (a
  /// draw: Outcome{}).
  dtb_status dtw_after(const Position& p, const Move& m, Outcome& out, ProbeError* error);

 private:
  LimitTableFiles files_;
};

}  // namespace dtb::probe
