// Where a stopped `dtb verify --journal` was inside a unit, so that a rerun
// resumes there instead of at the unit's start: one unit of the 2-6 set
// (MMMvMMM, KKKKvKK ...) takes tens of minutes to check.
//
// The journal (verifier.h) lists the units that passed. Beside it, in
// `<journal>.unit`, the verifier keeps the unit it is checking: the XXH3 of
// its files and how far the checks got:
//   - the WDL levels from some level up passed (levels are checked from the
//     most advanced down, and a level's check reads only stored values of
//     other levels, so the levels above are not needed again), and for a
//     unit with .mtc tables their MTC with them (one forward pass checks
//     both: verifier.cpp);
//   - with .mtc tables, how far the check of the next level got: every
//     position of its tables before a given one, in the order checked
//     (tables in turn, each level in its local order), passed. There each
//     position's check is a forward one, independent of the others, so a
//     kings-only unit (one level of up to 7 G positions) resumes mid-level;
//   - the .mtc check passed.
// A rerun trusts this only if every file of the unit still hashes as listed;
// otherwise the unit is checked from its start. The file is written
// atomically (temporary file, fsync, rename) after a level or the .mtc check
// once a minute has passed since the last write (UnitProgressRecorder), so a
// stop at any moment leaves either the old or the new state, and it is
// removed once the unit is in the journal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

#include "gen/checksums.h"

namespace dtb::gen {

struct UnitProgress {
  ChecksumList files;           // the unit's files and their XXH3 when the progress was recorded
  int levels_passed_from = -1;  // every WDL level >= this passed; -1: none
  bool levels_with_mtc = false;  // ... and their MTC: a record without it (an
                                 // MTC checked after the levels) does not
                                 // vouch for the MTC of the levels passed
  // With levels_with_mtc: of level `part_level` (the one below the levels
  // passed), the tables before `part_table` and the first `part_positions`
  // positions of table part_table passed; part_level -1: none.
  int part_level = -1;
  int part_table = 0;
  std::uint64_t part_positions = 0;
  bool mtc_passed = false;       // the unit's .mtc tables passed
};

/// The progress file of a journal.
std::string unit_progress_path(const std::string& journal_file);

/// Read `path`. A missing file gives an empty progress, and so does one that
/// cannot be parsed (the unit is then checked from its start: safe, only
/// slower). False only if the file exists but cannot be read.
bool read_unit_progress(const std::string& path, UnitProgress& progress, std::string& error);

/// Write `progress` to `path` atomically; false with a message (a full disk)
/// if it could not be written, the previous file then left as it was.
bool write_unit_progress(const std::string& path, const UnitProgress& progress, std::string& error);

/// Whether `progress` was recorded for exactly these files with these hashes.
bool progress_applies(const UnitProgress& progress, const ChecksumList& files);

/// Records the progress of one unit's check in `path` (empty: never) when
/// `seconds` have passed since the unit's check started or was last recorded
/// (0: at every step), so that the many small units, checked in less time,
/// never pay for a write and its fsync.
class UnitProgressRecorder {
 public:
  UnitProgressRecorder(std::string path, double seconds, UnitProgress start);
  const UnitProgress& progress() const { return progress_; }
  /// Every level >= `level` passed.
  bool level_passed(int level, std::string& error);
  /// Of `level`, the tables before `table` and the first `positions` of
  /// table `table` passed (their MTC checked with them).
  bool level_part_passed(int level, int table, std::uint64_t positions, std::string& error);
  /// The unit's .mtc check passed.
  bool mtc_passed(std::string& error);

 private:
  bool record_if_due(std::string& error);

  std::string path_;
  double seconds_;
  UnitProgress progress_;
  std::chrono::steady_clock::time_point last_;
};

}  // namespace dtb::gen
