// A unit's solve saved between two levels, so that an interrupted build
// (Ctrl-C, kill -9, a machine shut down) resumes a large unit at its next
// level instead of at its first. A 6-piece unit takes hours; without this a
// build that is stopped every few hours could never finish one.
//
// Why this is enough state: levels are solved from the most advanced down
// and a level's solve reads only finished materials and the final values of
// the levels above it (unit_solver.h). After level a is finalised, the unit's
// packed values (and MTC values, with --mtc) for levels >= a are all there
// is; the working state of a level is dropped when it ends. So a checkpoint
// is those arrays, whole (the unfinished levels are still zero, as in a
// fresh solve), plus the next level and the rounds so far. Resumed, the
// solver produces the same values bit for bit (the fixed point of each level
// is unique), so the table bytes do not change.
//
// File `<dir>/<M>.level`, little-endian, written atomically
// (compress/atomic_file.h), and trusted only if everything checks:
//   "DTBLEVEL" | u32 version (1) | char[16] material name, NUL-padded |
//   i32 next level | i32 rounds | u32 array count | u64 size of each array |
//   the arrays | u64 XXH3-64 of everything before it.
// The arrays are, per material of the unit in order: values, capture flags,
// then MTC values if the solve records them, or, where it keeps them in a
// scratch file (`dtb gen --mtc`: support/scratch_file.h), a hash of each level's
// MTC values, checked against the file before the solve resumes (levels
// write disjoint positions, so a level interrupted after the checkpoint
// leaves the finished levels' values in the file intact; the file is synced
// before each checkpoint). A file for another material, an
// other layout, other sizes or a wrong hash is ignored (the unit starts over).
//
// Round checkpoints. A one-level unit (kings only) has no level boundary
// before its end, and at 7 pieces its one level takes hours, so it saves
// between two propagation rounds instead, in the same file format with next
// level 0 and `rounds` the next round to run. Between two rounds the solve
// is wholly in its working state, so the arrays are, per material: the
// working state (solver/level_states.h: states and capture bits, or nibbles),
// the pending flags of each parity (a byte per chunk), MTC values if kept
// in memory; then one array of u64 words: for each material whose MTC is
// in a scratch file, the XXH3 of that file's values at the positions
// already propagated (state win or loss; the rest zeroed), then the work
// reported to the progress bar. A position is propagated once, in the round
// of its MTC, so the resumed solve writes the same values and MTC as an
// uninterrupted one. The hash is checked against the file before resuming;
// any mismatch and the unit starts over.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"

namespace dtb::gen {

struct LevelCheckpoint {
  int next_level = 0;  // the level to solve next
  int rounds = 0;      // UnitSolution::rounds so far
};

/// Path of m's checkpoint in `dir`.
std::string level_checkpoint_path(const std::string& dir, const Material& m);

/// Save `arrays` (in the order above) after a finished level. False with a
/// message (naming the file; a full disk says so) on failure.
bool save_level_checkpoint(const std::string& path, const Material& m, const LevelCheckpoint& at,
                           const std::vector<std::span<std::uint8_t>>& arrays, std::string& error);

/// Load a checkpoint of m into `arrays` (which must have the saved sizes).
/// nullopt if there is none or it does not check; then the arrays may hold
/// part of it and must be cleared by the caller.
std::optional<LevelCheckpoint> load_level_checkpoint(const std::string& path, const Material& m,
                                                     const std::vector<std::span<std::uint8_t>>& arrays);

}  // namespace dtb::gen
