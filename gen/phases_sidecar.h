// How long a unit's solve spent in each phase, recorded beside its tables:
// `<dir>/<Material>.phases`, for the progress line of a later run.
//
// Why: the progress line splits a kings-only unit's work between its first
// pass and its propagation as the unit with one king fewer on the stronger
// side did (first_pass_work_for in table_builder.h); the split varies from
// 4:1 to 1:7 with the share of decided positions. A run that builds that
// smaller unit measures it; a run that finds it finished (`--only`, or a
// build resumed in a later run) had nothing to go on and fell back to 2:1,
// and six kings against one with MTC, built alone, said "ETA 1m30s" with
// 28 minutes left. Kept here, the measurement outlives the run.
//
// One text line: "draughts-tb-phases 1 <material> <wdl|mtc> <first pass s>
// <propagation s> <line XXH3>". Written only for a unit solved from its
// start in one run (a resumed one measured only its end) and read only by a
// build of the same kind (MTC makes the propagation dearer). A timing, not a
// count: it differs run to run, and no check of the tables reads it.
#pragma once

#include <optional>
#include <string>

#include "index/material.h"
#include "solver/unit_solver.h"

namespace dtb::gen {

std::string phases_sidecar_path(const std::string& dir, const Material& unit);

/// Record `phases` of the unit `unit` (its first material) solved with MTC
/// or not. False with a message if the file cannot be written.
bool write_phases_sidecar(const std::string& dir, const Material& unit, const SolvePhases& phases, bool mtc,
                          std::string& error);

/// The phases recorded for `unit` by a build with the same `mtc`, if the
/// record is there and intact.
std::optional<SolvePhases> read_phases_sidecar(const std::string& dir, const Material& unit, bool mtc);

}  // namespace dtb::gen
