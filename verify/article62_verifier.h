// `dtb verify` of `.r62` tables (article 6.2 solved under the rule,
// article62_builder.h): every stored value re-derived forwards from the moves,
// after the unit's WDL values (verifier.h) and MTC (mtc_verifier.h) have
// passed their checks.
//
// Write R(q) for a position's 6.2 value from a fresh count: its theoretical
// value if its stored `.r62` value is at most 50, else a draw. For every
// position of the unit that is not a draw in theory, with the cost of a move
// 1 for a conversion (valued by R in this unit for a man move, by the 6.2
// value from a fresh count of the finished table reached for a capture or a
// promotion, Article62Exits) and 1 + stored value of the position reached for a
// king move:
//   - a win stores the least cost among the moves that win under R, if at
//     most 50, else 51;
//   - a loss stores the greatest cost among all moves, 0 with no move, if
//     every move loses under R and that cost is at most 50, else 51.
// As with MTC, the stored plies strictly decrease along the winner's line,
// so no cycle of false wins satisfies these equations: within them a
// conversion comes, into values checked before (earlier tables, or the
// unit's more advanced men).
//
// Where every table a capture of the unit leads into is faithful (its 6.2
// values from a fresh count are its theoretical ones, article62_faithful),
// a capture position that is not a draw in theory stores 1, and is checked
// so without valuing its captures: every move it has is a capture, costing
// 1 and valued under 6.2 as in theory, so a win has a winning capture and a
// loss only losing ones. In the 2-6 set every 2-5 piece table is faithful,
// so about half the positions of a 6-piece unit (its capture positions) are
// checked without their captures valued; the check of KKKMvMM's unit runs
// 1.4 times as fast.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "solver/finished_values.h"
#include "support/progress_bar.h"
#include "solver/unit_values.h"
#include "index/material.h"

namespace dtb::gen {

/// Whether `dir` holds an `.r62` table of m.
bool has_r62_table(const std::string& dir, const Material& m);

/// Whether every table that a capture from table m leads into is faithful,
/// by `faithful` (dependencies_faithful of m's unit).
bool captures_faithful(const Material& m, const std::map<Material, bool>& faithful);

/// Check the `.r62` tables of one unit (materials[k] with its verified
/// theoretical values values[k], captures resolved and flagged; `exits` gives
/// the 6.2 values from a fresh count of the finished tables it converts
/// into; `captures_keep_values`: captures_faithful, see above).
/// False with a message naming the table and the first wrong position.
/// `progress` (may be null) advances by one per position checked.
bool verify_unit_r62(const std::string& dir, const std::vector<Material>& materials,
                     const std::vector<const UnitValues*>& values, const FinishedValues& exits,
                     bool captures_keep_values, ProgressBar* progress, std::string& failure);

}  // namespace dtb::gen
