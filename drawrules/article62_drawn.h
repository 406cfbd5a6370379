// The positions of one table that FMJD article 6.2 draws: theoretical wins and
// losses whose next conversion cannot be forced within what is left of the
// 50-ply count (rules/article62.h). `dtb rules --article 6.2 --drawn M` lists
// them, so that a researcher can look at the positions behind the report's
// counts (mtc_report.h), not only at their number.
//
// Where the material has an `.r62` table (article62_builder.h) its stored round
// decides: drawn with c plies counted when the round is above 50 - c (51: not
// within 50 at all). Elsewhere the `.mtc` value does, exact where the report
// calls the table exact (mtc_report.h) and a lower bound where it does not.
// The `.wdl` table gives the theoretical value. Both files store nothing
// meaningful for capture positions (MTC 1, never drawn: a capture converts at
// once), and the `.mtc` nothing for draws, so capture positions are skipped
// and only decided non-capture positions are listed.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "index/material.h"
#include "rules/position.h"
#include "rules/value.h"

namespace dtb::gen {

struct DrawnByArticle62 {
  std::uint64_t index = 0;  // in the table (White to move)
  Position position;
  Wdl theoretical = Wdl::Draw;  // for the side to move
  int plies = 0;                // the stored .r62 round or MTC; 51 in an .r62: beyond 50
};

struct DrawnScan {
  bool from_r62 = false;       // the .r62 table decided (else the .mtc)
  std::uint64_t wins = 0;      // every drawn win found, listed or not
  std::uint64_t losses = 0;    // every drawn loss found, listed or not
  std::vector<DrawnByArticle62> listed;  // the first `limit`, in index order
};

/// Scans table m of `dir` for the decided positions that 6.2 draws with
/// `plies_since_conversion` (0..49) plies counted; lists the first `limit`.
/// False with `error` if a table is missing or damaged.
bool find_drawn_by_article62(const std::string& dir, const Material& m, int plies_since_conversion,
                          std::size_t limit, DrawnScan& out, std::string& error);

}  // namespace dtb::gen
