#include "probe/dtw_tables.h"

#include "index/colour.h"

namespace dtb::probe {

dtb_status DtwTables::dtw(const Position& p, Outcome& out, ProbeError* error) {
  if (p.pieces(p.side) == 0) {  // no table holds a finished game
    out = Outcome{Wdl::Loss, 0};
    return DTB_OK;
  }
  std::uint16_t stored = 0;
  if (const dtb_status s = files_.value(white_to_move_form(p), stored, error); s != DTB_OK) return s;
  out = decode_dtw(stored);
  return DTB_OK;
}

dtb_status DtwTables::dtw_after(const Position& p, const Move& m, Outcome& out, ProbeError* error) {
  Outcome after;
  if (const dtb_status s = dtw(make_move(p, m), after, error); s != DTB_OK) return s;
  out = after.value == Wdl::Draw ? Outcome{}
                                 : Outcome{negate(after.value), static_cast<std::uint16_t>(after.plies + 1)};
  return DTB_OK;
}

}  // namespace dtb::probe
