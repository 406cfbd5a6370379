// Distance-valued exits: the value policy of the solver for tables whose
// moves out of a level carry distances of their own (`.dtw`: plies to the
// end of the game; `.rule`: the budget of a count that runs on across a
// promotion; drawrules/).
//
// Under WDL and MTC every move out of a level decides its mover's result one
// ply later, so round r of the propagation holds exactly the positions
// decided r plies from the end. Here a move out of the level (a capture, a
// promotion or a man move into the level above) reaches a successor whose
// result comes d plies later; for its mover the result comes d + 1 plies
// later. What the first pass keeps of a position's exits:
//   - the quickest win they offer (min over lost successors of d + 1),
//   - the longest delay they offer a loser (max over won successors of d + 1),
//   - whether one of them draws.
// Then, in the rounds (exact min-max distances, winner shortest and loser
// longest, the same induction as MTC's):
//   - a position with a winning exit at w wins in round w unless a king move
//     to a lost position wins it sooner: it waits in the schedule below;
//     refutations of its king moves do not matter to it. One that must
//     capture has no king move, though the rounds undo king moves into it
//     too (under WDL and MTC it is decided in the first pass, so they never
//     touch it): it waits in a state they leave alone;
//   - a position without one loses when its last king move is refuted (in
//     round r + 1, r the round of the deepest refuting successor), but not
//     before its longest exit: in round max(r + 1, longest exit). A later
//     round waits in the schedule.
// A position is decided once, in the round of its distance, so the round in
// which it is propagated is its distance, which the solver records.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <mutex>
#include <vector>

#include "compress/value_encoding.h"
#include "rules/position.h"

namespace dtb::gen {

/// Where the moves out of a unit lead, for the distance policy: the outcome
/// for its side to move of a position reached by a capture or a promotion,
/// White to move (the colour reversal of the position after the move), with
/// both colours on the board. Called from many threads.
class ExitOutcomes {
 public:
  virtual ~ExitOutcomes() = default;
  virtual Outcome outcome(const Position& successor_white_to_move) const = 0;
};

/// What a position's moves out of its level offer their mover.
struct ExitSummary {
  static constexpr int kNoWin = std::numeric_limits<int>::max();
  int quickest_win = kNoWin;  // min over lost successors of plies + 1
  int longest_loss = 0;       // max over won successors of plies + 1
  bool draws = false;         // some successor is drawn
  bool any = false;           // some move leaves the level

  /// Add a successor's outcome, from its own side to move's view.
  void add(Outcome successor) {
    any = true;
    const int through = successor.plies + 1;
    if (successor.value == Wdl::Loss)
      quickest_win = std::min(quickest_win, through);
    else if (successor.value == Wdl::Win)
      longest_loss = std::max(longest_loss, through);
    else
      draws = true;
  }
  bool wins() const { return quickest_win != kNoWin; }
};

/// Decisions waiting for a later round: a position with a winning exit, or
/// one whose king moves are all refuted before its longest exit has passed.
/// Thread-safe; the rounds take each round's list once, in order.
class DecisionSchedule {
 public:
  struct Entry {
    std::uint64_t local;  // in its table's level, local order
    std::uint8_t side;    // the table of the unit
    bool win;
  };

  struct Scheduled {
    int round;
    Entry entry;
  };

  /// Add a batch (a chunk's worth: one lock for many) and empty it.
  void add(std::vector<Scheduled>& batch) {
    if (batch.empty()) return;
    const std::lock_guard<std::mutex> lock(mutex_);
    for (const Scheduled& s : batch) rounds_[s.round].push_back(s.entry);
    batch.clear();
  }
  /// The decisions due in `round` (none may be due earlier: they were taken).
  std::vector<Entry> take(int round) {
    const std::lock_guard<std::mutex> lock(mutex_);
    const auto at = rounds_.find(round);
    if (at == rounds_.end()) return {};
    std::vector<Entry> due = std::move(at->second);
    rounds_.erase(at);
    return due;
  }
  /// The latest round a decision waits for, or -1 if none waits.
  int last_round() const {
    const std::lock_guard<std::mutex> lock(mutex_);
    return rounds_.empty() ? -1 : rounds_.rbegin()->first;
  }

 private:
  mutable std::mutex mutex_;
  std::map<int, std::vector<Entry>> rounds_;
};

}  // namespace dtb::gen
