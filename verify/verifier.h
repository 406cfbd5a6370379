// `dtb verify`: re-check every stored value of a directory of WDL tables,
// independently of the solver's counters and propagation
// (solver/unit_solver.cpp): every value is re-derived forwards from the moves.
//
// For every unit {M, reversed(M)}, in build order, after its files pass their
// header and checksum checks (table_loading.h), level by level from the most
// advanced (slice_order.h: inside a level only kings move; a man move goes to
// the level above, checked before; a capture or promotion to a smaller table,
// checked before):
//
// 1. Consistency. For every position where the side to move need not capture,
//    the value implied by its legal moves - the best of the negated values of
//    the successors, "no move" being a loss - must equal the stored value.
//    (Capture positions are "don't care" on disk; the loader derives them
//    from the smaller tables.)
//
// 2. Well-foundedness. Consistency alone cannot catch a cycle of false wins
//    that agree with each other. So every stored win and loss must get a
//    finite proof: a win is proven when some move reaches a proven loss, a
//    loss when every move reaches a proven win; values outside the level
//    (and capture positions) are proven already. This is a least fixed point,
//    computed retrogradely: when a position is proven, king un-moves
//    (unmove.h) find the predecessors it may complete; a stored loss counts
//    its in-level moves down. But the un-moves only say where to look: a
//    position is marked proven only after a FORWARD check of its own moves
//    against the proven marks, so a wrong un-move could cost a proof (and
//    fail the check), never fake one. Every stored win and loss of the level
//    must be proven when nothing is left to propagate.
//
// Memory, within a bound (VerifyOptions::memory_bytes, by default that of
// `dtb gen`): the unit's stored values packed at 3 bits a position, one byte
// a position for one level (with `.mtc` tables: their MTC instead, a byte a
// position of the unit, released before its `.r62` values take as much),
// and dependencies read back through the probe library's block cache or
// kept resident once verified (gen/finished_tables.h) in what the bound
// leaves beside the unit being checked (VerifyMemoryPlan).
//
// Together, by induction on the order in which positions are proven, (1) and
// (2) prove that every stored value is the theoretical value, given the
// smaller tables (verified first) and the move generator. A unit with `.mtc`
// tables has them checked too, in step 1, against the same successors
// (mtc_verifier.h); there step 2 is left out, because MTC depths that
// strictly fall along every winning line prove the same well-foundedness,
// and the level needs no byte of state. Optionally the XXH3 of every file
// is compared with a checksum list (gen/checksums.h).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"
#include "solver/finished_values.h"
#include "solver/unit_values.h"

namespace dtb::gen {

/// What `dtb verify` holds of the unit {m, reversed(m)} of directory `dir`
/// while it checks it, in bytes: its values, packed, its slice lists, and
/// the working state of its largest level or, with `.mtc` tables, their MTC
/// (which its `.r62` values replace). The probe's cache, the resident
/// tables and fixed costs come on top (VerifyMemoryPlan).
std::uint64_t verify_unit_bytes(const std::string& dir, const Material& m);

/// How a verify divides its memory bound, as a build does
/// (gen/table_builder.h: MemoryPlan): the unit being checked, a block cache
/// for the tables read back from files, and verified tables kept resident
/// in what is left beside that unit.
struct VerifyMemoryPlan {
  std::uint64_t budget = 0;         // the bound
  Material largest;                 // the unit that needs most
  std::uint64_t largest_unit = 0;   // verify_unit_bytes of it
  std::uint64_t overhead = 0;       // code, the probes' open tables and mapped pages, the .r62 check's probe
  std::uint64_t cache = 0;          // block cache for the tables read from files
  std::uint64_t least_budget = 0;   // the least bound that would do
  std::map<Material, std::uint64_t> unit_bytes;  // verify_unit_bytes, by unit
  bool fits() const { return budget >= least_budget; }
  /// What verified tables may keep resident while unit m is checked, and
  /// between two units: what the bound leaves beside the unit, but at most
  /// half of the bound.
  std::uint64_t resident_beside(const Material& m) const;
  std::uint64_t resident_between_units() const;
};

/// The memory plan of verifying the tables `materials` of `dir` in `budget` bytes.
VerifyMemoryPlan plan_verify_memory(const std::string& dir, const std::vector<Material>& materials,
                                    std::uint64_t budget);

struct VerifyOptions {
  std::string dir;
  std::string checksums_file;        // "": do not compare checksums
  std::string write_checksums_file;  // "": do not write; else list every table file's XXH3 there (.wdl, .mtc, .r62, .dtw, .rule)
  // "": none. Else a journal of the units verified, by the XXH3 of their
  // files (.wdl, and .mtc and .r62 if any), in the checksum list format: each unit
  // that passes is added at once, and a unit whose files all hash as listed
  // is not checked again. So a verify of the 2-6 set (hours) that is
  // stopped resumes at the unit it was checking; any changed file is checked anew.
  // A unit stopped part-way resumes at its last level passed: see
  // unit_progress.h (`<journal>.unit`).
  std::string journal_file;
  // With a journal: record the unit being checked after a step once this
  // many seconds have passed since its check started or was last recorded
  // (0: after every level and .mtc check; unit_progress.h).
  double progress_seconds = 60;
  // Called after each WDL level of a unit passes (a test stops a run there).
  std::function<void(const Material& unit, int level)> on_level_passed;
  // Called before each unit is checked, with the progress line's work done
  // (skipped units included) and its total work.
  std::function<void(const Material& unit, std::uint64_t done, std::uint64_t total)> on_unit_start;
  // With `.mtc` tables a level's check needs no proof rounds, so it passes
  // (and is recorded, as above) in parts of this many positions of one of
  // its tables; called after each part.
  std::uint64_t level_part_positions = std::uint64_t{1} << 26;
  std::function<void(const Material& unit, int level, int table, std::uint64_t positions)> on_level_part_passed;
  // Only compare (or write) the checksum list: no value is re-derived. The
  // comparison takes seconds, so a rebuild can be checked against the
  // committed tables/CHECKSUMS before (or instead of) the hours of a full verify.
  bool checksums_only = false;
  bool show_progress = false;
  // Bound on the whole process's memory, bytes; 0: default_memory_bytes()
  // (gen/table_builder.h). A unit that does not fit fails the verify before
  // any value is checked, saying what bound would do.
  std::uint64_t memory_bytes = 0;
  // Told the memory plan before the first unit is checked (`dtb verify`
  // prints it), even one that does not fit.
  std::function<void(const VerifyMemoryPlan&)> on_memory_plan;
};

struct VerifyReport {
  int tables = 0;
  std::uint64_t positions = 0;
  int longest_proof_rounds = 0;  // rounds of step 2 in the hardest level
  int units_proven_by_depth = 0;  // units whose .mtc check proved their wins and losses instead of step 2
  int checksums_compared = 0;
  int checksums_unlisted = 0;  // .mtc, .r62, .dtw and .rule files the checksum list does not name (not compared)
  int mtc_tables = 0;  // .mtc tables checked (mtc_verifier.h)
  int r62_tables = 0;  // .r62 tables checked (article62_verifier.h)
  int tables_from_journal = 0;  // of `tables`: verified by an earlier run, files unchanged
  bool resumed_inside_unit = false;  // a unit was resumed where an earlier run stopped (unit_progress.h)
  int levels_resumed = 0;            // the levels of that unit that earlier run had passed
  bool level_part_resumed = false;   // and it resumed inside a level (the part of it that had passed)
};

/// True if every check passes. The checksum list, if given, is compared
/// first (a mismatch fails before any value is re-derived) and written last. Otherwise false, and `failure` says what
/// failed first: the file, or the first mismatching position as a FEN.
bool verify_tables(const VerifyOptions& options, VerifyReport& report, std::string& failure);

/// The same checks, level by level, of one unit's values held in memory
/// rather than read from its files: a unit solved elsewhere (cluster/: in
/// parts, on other processes), checked before its tables are written. No
/// loader derived its capture positions, so every capture flag, and the
/// value of every capture position, is checked against `finished` too.
/// `mtc`: per table its MTC values, a byte a position (mtc_verifier.h), or
/// empty; checked with the values, in the same pass, and then their depths
/// prove the wins and losses instead of the proof rounds. False with
/// `failure` naming the table, level, slice and position of the first
/// mismatch.
bool verify_unit_in_memory(const std::vector<Material>& materials, const std::vector<const UnitValues*>& values,
                           const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                           std::string& failure);

/// The same checks of one part of one level (cluster/: a part one worker
/// solved, checked by another): `part[t]` the part's slices of `level` in
/// table t, sorted, closed under king moves (slice_order.h). `values` (and
/// `mtc`) must hold the part's values and the values of level + 1 that its
/// man moves reach; nothing else is read. The proof of every win and loss
/// stays inside the part, as its king moves do.
bool verify_part_in_memory(const std::vector<Material>& materials, int level,
                           const std::vector<std::vector<std::uint32_t>>& part,
                           const std::vector<const UnitValues*>& values,
                           const std::vector<std::span<const std::uint8_t>>& mtc, const FinishedValues& finished,
                           std::string& failure);

}  // namespace dtb::gen
