// Saving a unit's solve and resuming it: what the solver keeps of its state
// in a checkpoint, and how it checks, on resuming, that the scratch files
// still hold what the checkpoint counts on. The file format, and why this
// state is enough for a resumed solve to write the same bytes, are in
// level_checkpoint.h.
//
// Two kinds, one file (SolveOptions::checkpoint_path):
//   - level checkpoints, for units of more than one level: saved after a
//     finished level, resumed before the first level solved;
//   - round checkpoints, for a one-level (kings-only) unit, whose one level
//     takes hours at 7 pieces: saved between two propagation rounds,
//     resumed before the first round.
// The solver decides when (its level and round loops) and what to show;
// this says what is saved and whether a resume can be trusted.
#pragma once

#include <array>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "index/material.h"
#include "solver/level_checkpoint.h"
#include "solver/mtc_values.h"
#include "solver/slice_order.h"
#include "solver/unit_values.h"

namespace dtb::gen {

/// One table of a unit of many levels, as a level checkpoint sees it.
struct CheckpointedTable {
  UnitValues* values;          // final values of the finished levels, in memory or spilled
  MtcValues* mtc;              // null unless the solve records MTC
  const SliceLevels* levels;   // the table's slices by level
  std::uint64_t kings_per_slice;
};

/// One table of a one-level unit between two propagation rounds.
struct RoundState {
  std::vector<std::span<std::uint8_t>> states;                 // the working state's storage (level_states.h)
  std::array<std::vector<std::atomic<bool>>, 2>* pending;      // per parity, a frontier flag a chunk
  MtcValues* mtc;                                              // null unless the solve records MTC
  std::uint64_t positions;
  /// Zero plies[k] unless position first + k is propagated already (decided
  /// win or loss): only those MTC values must survive in a scratch file.
  std::function<void(std::uint64_t first, std::span<std::uint8_t> plies)> keep_propagated;
};

/// Where a resumed round checkpoint left off.
struct ResumedRound {
  int round;                    // the next round to run
  std::uint64_t reported_work;  // the progress work reported before it was saved
};

class UnitCheckpoints {
 public:
  /// Checkpoints of the unit of `m` in `path`, saved once `seconds` have
  /// passed since this object was made or last saved (0: whenever asked).
  UnitCheckpoints(std::string path, double seconds, const Material& m);

  /// Whether a checkpoint file is there, so that spilled values' scratch
  /// files must be kept until resume_levels() has checked it.
  bool may_resume() const;
  /// Whether enough time has passed for the next save.
  bool due() const;

  /// Before the first level of a unit of `levels` levels: starts keeping a
  /// hash of each finished level of the values and MTC kept in scratch
  /// files, then loads a valid checkpoint into `tables`: where it left off,
  /// its unfinished spilled levels cleared; nullopt if there is nothing
  /// valid to resume from (then, if may_resume(), a partial load may have
  /// left values behind and the caller must make them afresh).
  std::optional<LevelCheckpoint> resume_levels(int levels, std::span<const CheckpointedTable> tables);
  /// After level a is finalised: hash what a scratch file holds of it.
  void level_finished(int a, std::span<const CheckpointedTable> tables);
  /// Save the unit with `next_level` to solve next. False with `error` on failure.
  bool save_levels(int next_level, int rounds, std::span<const CheckpointedTable> tables, std::string& error);

  /// Save a one-level unit before round `next_round`. False with `error` on failure.
  bool save_round(int next_round, std::span<const RoundState> tables, std::uint64_t reported_work,
                  std::string& error);
  /// Load a valid round checkpoint into `tables` (states, flags, MTC in
  /// memory); nullopt if there is none, and then the first pass overwrites
  /// whatever a partial load left.
  std::optional<ResumedRound> resume_round(std::span<const RoundState> tables);

 private:
  struct RoundBuffers;
  std::vector<std::span<std::uint8_t>> level_arrays(std::span<const CheckpointedTable> tables);
  bool scratch_matches(int next_level, int levels, std::span<const CheckpointedTable> tables) const;
  std::vector<std::span<std::uint8_t>> round_arrays(std::span<const RoundState> tables, RoundBuffers& b) const;
  void hash_propagated_mtc(std::span<const RoundState> tables, RoundBuffers& b) const;

  std::string path_;
  double seconds_;
  Material material_;
  std::chrono::steady_clock::time_point saved_at_;
  // Per table, with values or MTC in a scratch file: the hash of each
  // finished level's, which a level checkpoint keeps in their stead.
  std::vector<std::vector<std::uint64_t>> value_hashes_, mtc_hashes_;
};

}  // namespace dtb::gen
