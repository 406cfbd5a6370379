// Distance to win for every position of a set of materials, built in
// memory in build order (index/material.h) with the generator's solver
// under its distance policy (solver/exit_distances.h).
//
// Memory: 2 bytes per position held (all materials up to 4 pieces: about
// 42 million positions, 84 MB) plus, while a unit is solved, about 5 bytes a
// position of it (its distances, packed values and one level's working
// state). Larger N is only a matter of time and
// memory: nothing here depends on the piece count.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "index/material.h"
#include "drawrules/table_set.h"

namespace dtb {

/// `targets` and every material they reach by captures and promotions (and
/// the colour reversals of all of them), in dependency order.
std::vector<Material> dependency_closure(const std::vector<Material>& targets);

/// Progress messages ("KKMvK: 123456 positions, 1.2 s"), or an empty function.
using Progress = std::function<void(const std::string&)>;

/// Solve distance to win for `materials` (which must be closed under
/// dependency_closure) into a TableSet of kind Dtw.
TableSet build_dtw(const std::vector<Material>& materials, const Progress& progress = {});

/// The same for every material of 2..max_pieces pieces.
TableSet build_dtw_up_to(int max_pieces, const Progress& progress = {});

}  // namespace dtb
