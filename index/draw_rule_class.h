// Which FMJD draw-limit class (articles 6.3 and 6.4) a material falls into.
//
// 6.3: three kings, two kings and a man, or a king and two men, against a lone
//      king: drawn once each player has made 16 more moves (32 plies).
// 6.4: two kings, a king and a man, or a lone king, against a lone king:
//      drawn after 5 more moves each (10 plies).
// The lone piece must be a KING (RULES.md): MMvK and MMMvK are in no class
// until a man promotes. Either colour may be the strong side.
#pragma once

#include <vector>

#include "index/material.h"
#include "rules/movegen.h"

namespace dtb {

enum class RuleClass : int { None = 0, SixteenMoves = 3, FiveMoves = 4 };

/// The class of a material (either colour may hold the lone king).
RuleClass rule_class(const Material& m);

/// Plies a game may last inside the class: 32 for 6.3, 10 for 6.4, 0 for None.
int limit_plies(RuleClass c);

/// Article number as printed in reports: "6.3", "6.4" or "-".
const char* article_of(RuleClass c);

/// The class count of a position of material m, from the counts a caller of
/// dtb_probe_rules gives: `plies_in_class`, but never less than the 6.2
/// count, and the 6.2 count when it is not known (< 0). A class is entered
/// by a conversion, so it has run at least as long as the 6.2 count: a
/// smaller class count means the class was entered at the last conversion.
/// -1 in no class.
int class_count_of(const Material& m, int plies_since_conversion, int plies_in_class);

/// The class count after move `m` of `before`, with `plies_in_class` plies
/// played in the class of `before` (-1 when it is in no class):
/// plies_in_class + 1 if the move stays in the same class (king moves, man
/// moves, a promotion inside 6.3, a capture inside 6.4), 0 if it enters
/// another class (a fresh count: a capture from 6.3 into 6.4, a promotion
/// from MMvK into KMvK), -1 if the result is in no class (or the game is over).
int plies_in_class_after(const Position& before, int plies_in_class, const Move& m);

/// The class materials with the strong side (or, for KvK, either side) White,
/// in build order: the 6.4 materials first (6.3 captures lead into them),
/// each after the materials its promotions and captures lead to.
std::vector<Material> class_materials_white_strong();

}  // namespace dtb
