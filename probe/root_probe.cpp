#include "probe/root_probe.h"

#include <algorithm>
#include <climits>
#include <optional>

#include "index/draw_rule_class.h"
#include "probe/c_position.h"
#include "probe/counted_play.h"
#include "rules/article62.h"

namespace dtb::probe {
namespace {

dtb_wdl c_wdl(Wdl v) { return static_cast<dtb_wdl>(static_cast<int>(v)); }

// Statuses that make one field unknown instead of failing the call: a table
// the directory lacks, a 6.2 value the tables cannot decide, a successor the
// tables do not reach.
bool leaves_unknown(dtb_status s) {
  return s == DTB_TABLE_MISSING || s == DTB_NOT_EXACT || s == DTB_TOO_MANY_PIECES;
}

// The theoretical value of move `m` for its mover, DTB_UNKNOWN_WDL if a table
// it needs is missing.
dtb_status move_value(dtb_tables& t, const Position& p, const Move& m, dtb_wdl& out, ProbeError* error) {
  out = DTB_UNKNOWN_WDL;
  Wdl v = Wdl::Draw;
  const dtb_status s = t.base->wdl_after(p, m, v, error);
  if (s == DTB_OK) out = c_wdl(v);
  return leaves_unknown(s) ? DTB_OK : s;
}

// Plies to the next conversion through `m` (a win or loss) for its mover:
// 1 if it converts, else 1 + the MTC after it (1 + 0 when it leaves the
// opponent no move).
dtb_status mtc_through(dtb_tables& t, const Position& p, const Move& m, int& out, ProbeError* error) {
  out = DTB_UNKNOWN;
  if (PerfectPlay::converts(p, m)) {
    out = 1;
    return DTB_OK;
  }
  Wdl v = Wdl::Draw;
  std::optional<int> plies;
  const dtb_status s = t.play->mtc(make_move(p, m), v, plies, error);
  if (s == DTB_OK && plies) out = 1 + *plies;
  return leaves_unknown(s) ? DTB_OK : s;
}

dtb_counts counts_after(const Position& p, const Move& m, const dtb_counts& counts) {
  const int since = PerfectPlay::converts(p, m) ? 0 : counts.plies_since_conversion + 1;
  return dtb_counts{since, plies_in_class_after(p, class_count(p, counts), m)};
}

// The mover's value of `m` under the draw rules with the position's `counts`
// (dtb_probe_counted after it with the counts after it); r.move.wdl is known.
dtb_status counted_through(dtb_tables& t, const Position& p, const Move& m, const dtb_counts& counts,
                           dtb_root_move& r, ProbeError* error) {
  r.counts_after = counts_after(p, m, counts);
  const bool drawn_already = class_count_ran_out(p, counts);
  const Position after = make_move(p, m);
  if (count_moves(after) == 0) {  // the move ends the game: no count runs on, the result stands
    r.counted_wdl = drawn_already ? DTB_DRAW : r.move.wdl;
    return DTB_OK;
  }
  if (drawn_already || r.counts_after.plies_since_conversion == kArticle62Plies) {
    r.counted_wdl = DTB_DRAW;
    return DTB_OK;
  }
  Wdl v = Wdl::Draw;
  const dtb_status s = counted_value(t, after, r.counts_after, v, error);
  if (s == DTB_OK) r.counted_wdl = c_wdl(negate(v));
  return leaves_unknown(s) ? DTB_OK : s;
}

// Every field of one root move.
dtb_status describe_move(dtb_tables& t, const Position& p, const Move& m, const dtb_counts* counts,
                         dtb_root_move& r, ProbeError* error) {
  r.move = to_c(m);
  r.mtc = DTB_UNKNOWN;
  r.counted_wdl = DTB_UNKNOWN_WDL;
  r.counts_after = dtb_counts{DTB_NOT_COUNTED, DTB_NOT_COUNTED};
  if (const dtb_status s = move_value(t, p, m, r.move.wdl, error); s != DTB_OK) return s;
  if (r.move.wdl == DTB_UNKNOWN_WDL) return DTB_OK;
  if (r.move.wdl != DTB_DRAW)
    if (const dtb_status s = mtc_through(t, p, m, r.mtc, error); s != DTB_OK) return s;
  return counts ? counted_through(t, p, m, *counts, r, error) : DTB_OK;
}

void mark_best(std::vector<dtb_root_move>& moves) {
  dtb_wdl top = DTB_UNKNOWN_WDL;
  for (const dtb_root_move& r : moves) top = std::max(top, r.move.wdl);
  for (dtb_root_move& r : moves) r.move.keeps_best = r.move.wdl != DTB_UNKNOWN_WDL && r.move.wdl == top;
}

}  // namespace

bool root_move_before(const dtb_root_move& a, const dtb_root_move& b) {
  if (a.move.wdl != b.move.wdl) return a.move.wdl > b.move.wdl;
  if (a.move.wdl == DTB_WIN) {
    const bool a_counted = a.counted_wdl == DTB_WIN, b_counted = b.counted_wdl == DTB_WIN;
    if (a_counted != b_counted) return a_counted;
    const auto key = [](int mtc) { return mtc == DTB_UNKNOWN ? INT_MAX : mtc; };
    return key(a.mtc) < key(b.mtc);
  }
  // DTB_UNKNOWN (-1) is below every known MTC, so it comes last here too.
  if (a.move.wdl == DTB_LOSS) return a.mtc > b.mtc;
  return false;
}

dtb_status probe_root(dtb_tables& tables, const Position& p, const dtb_counts* counts,
                      std::vector<dtb_root_move>& out, ProbeError* error) {
  out.clear();
  MoveList list;
  generate_moves(p, list);
  if (list.size == 0) return DTB_OK;  // lost: a game that is over needs no table to say so
  if (const dtb_status s = tables.base->check_reach(p, error); s != DTB_OK) return s;
  out.resize(static_cast<std::size_t>(list.size));
  for (int i = 0; i < list.size; ++i)
    if (const dtb_status s = describe_move(tables, p, list[i], counts, out[static_cast<std::size_t>(i)], error);
        s != DTB_OK)
      return s;
  mark_best(out);
  std::stable_sort(out.begin(), out.end(), root_move_before);
  return DTB_OK;
}

}  // namespace dtb::probe
