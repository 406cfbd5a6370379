// Perfect play from the tables: moves to conversion (MTC) and a best move,
// for dtb_probe_mtc and dtb_best_move.
//
// Why MTC and not WDL alone: in a won king ending most king moves keep the
// win, and a player that picks any of them can shuffle forever. MTC, the
// plies to the next conversion (a capture or a man move by either side; the
// end of the game counts as one) with the winner minimising and the loser
// maximising, falls by exactly one along every non-converting ply of perfect
// play, and conversions cannot be undone, so a winner that always picks the
// least MTC plays the win out.
//
// The `.mtc` files (`dtb gen --mtc`, compress/FORMAT.md) hold White to move
// only and store nothing meaningful for draws and capture positions, so:
//   - a draw has no MTC (nothing is read);
//   - a side to move without a piece or a legal move has lost: MTC 0;
//   - a side to move that must capture converts with any move: MTC 1;
//   - otherwise one read of white_to_move_form(p) in its material's .mtc.
// The files are read through LimitTableFiles, the probe library's reader of
// one-value-per-position tables (.dtw, .rule, .mtc), in `base`'s cache.
//
// Thread safety: every member may be called from many threads at once
// (Tablebase and LimitTableFiles are; the one state this class adds, what
// it has found of each material for article 6.2, is under a mutex).
#pragma once

#include <map>
#include <mutex>
#include <optional>
#include <string>

#include "dtb/dtb.h"
#include "probe/limit_table_files.h"
#include "probe/tablebase.h"
#include "rules/movegen.h"
#include "rules/value.h"

namespace dtb::probe {

class PerfectPlay {
 public:
  /// `base` (which must outlive this) gives the values, and its table set
  /// the `.mtc` and `.r62` files (opened on first use).
  explicit PerfectPlay(Tablebase& base);

  /// Blocks of `.mtc` and `.r62` files decoded so far, and the release of
  /// the file pages they mapped (as Tablebase's): for a caller that bounds
  /// its RSS.
  std::uint64_t blocks_decoded() const { return files_.blocks_decoded() + r62_files_.blocks_decoded(); }
  void drop_mapped_pages() {
    files_.drop_mapped_pages();
    r62_files_.drop_mapped_pages();
  }

  /// Value of a valid position for its side to move and, unless it is a draw,
  /// its MTC in plies. DTB_TABLE_MISSING (naming the file and `dtb gen --mtc`)
  /// if the position needs an absent .mtc file; DTB_CORRUPTED_TABLE if the
  /// file is damaged or holds a value no position can have.
  dtb_status mtc(const Position& p, Wdl& value, std::optional<int>& mtc, ProbeError* error);

  /// The move of perfect play (see dtb_best_move in dtb/dtb.h): in a win the
  /// value-keeping move of least cost, in a loss the move of greatest cost,
  /// where a move's cost is 1 if it converts and 1 + the MTC after it
  /// otherwise; in a draw a move that keeps the draw. Ties: the first in
  /// generate_moves order. `value` (if given) receives the position's value,
  /// which the move keeps. DTB_GAME_OVER if the side to move has no legal move.
  dtb_status best_move(const Position& p, Move& out, ProbeError* error, Wdl* value = nullptr);

  /// The move of perfect play under FMJD 6.2 with `plies_since_conversion`
  /// (0..49) plies counted: as best_move, with each move valued by article62()
  /// at the count it leads to (0 after a conversion) and a king move costing
  /// 1 + the plies the position reached needs under 6.2 (its `.r62` value,
  /// or its MTC where MTC decides). A win under 6.2 is then played out within
  /// the count, phase after phase; best_move's least-MTC move may instead
  /// convert into a position that 6.2 draws (`W:WK1,K10,K23,32:BK41,45`: 32-28).
  /// `value` (if given) receives the 6.2 value. Class materials (6.3/6.4) are
  /// the caller's business, as for article62().
  dtb_status best_move_article62(const Position& p, int plies_since_conversion, Move& out, ProbeError* error,
                              Wdl* value = nullptr);

  /// Value under FMJD 6.2 with `plies_since_conversion` (0..49) plies of
  /// king moves already played since the last capture or man move. Where the
  /// material has an `.r62` table (`dtb gen --article62`, gen/article62_builder.h)
  /// it decides: the theoretical value if its stored plies are at most
  /// 50 - c, else a draw. Elsewhere MTC decides: the theoretical value if the
  /// next conversion can be forced within the 50 plies left of the count
  /// (MTC <= 50 - c), else a draw, which is exact when every table the
  /// position can convert into keeps its theoretical values under 6.2 from a
  /// fresh count (article62_exact; gen/mtc_report.h; true of every 2-5 piece
  /// table). Class materials (6.3/6.4) are the caller's business: there the
  /// class count, never shorter, runs out first. A win or loss whose material
  /// is neither gives DTB_NOT_EXACT; a draw is exact everywhere.
  dtb_status article62(const Position& p, int plies_since_conversion, Wdl& out, ProbeError* error);
  /// article62() from a fresh count (no plies counted) for a position whose
  /// theoretical value the caller already has: the same answer without
  /// probing that value again, the costly part of article62() where the
  /// position must capture (its captures are searched and their positions
  /// probed). What the rule-aware solve asks of every conversion.
  dtb_status article62_fresh(const Position& p, Wdl theoretical, Wdl& out, ProbeError* error);

  /// Whether the MTC rule of article62() is exact for positions of m: every
  /// table m converts into (direct_dependencies, and m's own unit if m has
  /// men: a man move stays in it) is faithful (article62_faithful). If not,
  /// `unclean` names the first table found that is not. True as well for a
  /// material with its own `.r62` table, which article62() then reads instead.
  dtb_status article62_exact(const Material& m, bool& exact, std::string& unclean, ProbeError* error);
  /// Whether every position of m has, under 6.2 from a fresh count, its
  /// theoretical value: with an `.r62` table, its header's largest value is
  /// at most 50; without one, m is exact (above) and clean (no MTC above 50
  /// in its `.mtc` header). What the rule-aware solve of the tables that
  /// convert into m asks (gen/article62_builder.h).
  dtb_status article62_faithful(const Material& m, bool& faithful, ProbeError* error);
  /// Whether m's .mtc file holds no MTC above 50: every win and loss of m
  /// converts within the count (DTB_TABLE_MISSING without the file).
  dtb_status clean(const Material& m, bool& out, ProbeError* error);
  /// Whether a move of `p` is a conversion: a capture or a man move.
  static bool converts(const Position& p, const Move& m);

 private:
  // article62() once the position's theoretical value `out` (not a draw)
  // and its MTC `plies` (not 0) are known.
  dtb_status article62_decided(const Position& p, int plies_since_conversion, int plies, Wdl& out,
                               ProbeError* error);
  // The MTC of a position whose value `v` (not a draw) is already known.
  dtb_status decided_mtc(const Position& p, Wdl v, int& out, ProbeError* error);
  // Plies to the next conversion when `m` is played from `p`; `after_value`
  // is the value of the position after it for its side to move.
  dtb_status cost(const Position& p, const Move& m, Wdl after_value, int& out, ProbeError* error);

  // The legal moves of p for best_move and best_move_article62: DTB_GAME_OVER
  // without one, DTB_TOO_MANY_PIECES past the reach of the tables (Tablebase::check_reach).
  dtb_status moves_to_choose(const Position& p, MoveList& list, ProbeError* error);

  // The 6.2 value of a position past the largest table, whose side to move
  // must capture: the best capture, each successor valued from a fresh count.
  dtb_status article62_by_captures(const Position& p, Wdl& out, ProbeError* error);

  // Plies to the next conversion of q under 6.2 (`v` its decisive 6.2 value):
  // its .r62 value where it has one, else its MTC.
  dtb_status article62_plies(const Position& q, Wdl v, int& out, ProbeError* error);

  // What article62() needs to know of a material, decided once (article62_facts).
  struct Article62Facts {
    bool own_table = false;  // an .r62 table answers for it
    bool exact = true;       // article62_exact
    bool faithful = true;    // article62_faithful
    std::string unclean;     // the first table found not faithful, if not exact
  };
  dtb_status article62_facts(const Material& m, Article62Facts& out, ProbeError* error);

  Tablebase& base_;
  LimitTableFiles files_;      // .mtc
  LimitTableFiles r62_files_;  // .r62
  std::mutex facts_mutex_;
  std::map<Material, Article62Facts> facts_;  // article62_facts' answers, by material
};

}  // namespace dtb::probe
