// The numbers behind article 6.2: per table, how long conversions
// take with perfect play, from the `.wdl` and `.mtc` tables of a directory.
//
// FMJD 6.2: 25 moves of each player (50 plies) with only kings moving and no
// capture draw the game. The count restarts at every conversion (a man move
// or a capture), which is exactly what MTC measures. With c plies already
// counted, a win survives 6.2 if the winner can force the next conversion
// (or the end of the game) within 50 - c plies AND the position it converts
// into is still won under 6.2 from a fresh count, phase after phase.
//
// When does MTC alone decide it? Call a table "clean" if none of its wins or
// losses has an MTC above 50. If every table a position can convert into is
// clean (transitively), then every conversion leads to a position whose
// 6.2 value from a fresh count is its theoretical value, so the game inside
// the current phase is the theoretical one cut off after 50 - c plies, and
// the depth-limited value of such a game is the theoretical value exactly
// when MTC <= 50 - c (the solver's rounds are the depth-limited minimax: a
// win within k plies is a win of MTC <= k, a loss within k plies one of MTC
// <= k). So the rule value is: theoretical if MTC <= 50 - c, else a draw.
// A table that is not clean changes the exits of everything that converts
// into it; its dependants then need a rule-aware solve (exits valued by the
// 6.2 value from a fresh count), which `dtb rules --article 6.2` reports as
// not exact instead of answering wrongly.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "solver/unit_values.h"
#include "index/material.h"
#include "rules/article62.h"

namespace dtb::gen {

struct MtcTableReport {
  Material material;  // White to move
  std::uint64_t positions = 0, win = 0, draw = 0, loss = 0;
  std::vector<std::uint64_t> win_mtc, loss_mtc;  // histograms: [mtc] -> positions
  int longest_win = -1, longest_loss = -1;        // largest MTC, -1 if none
  std::uint64_t longest_win_index = 0, longest_loss_index = 0;  // first such position
  /// No win or loss converts later than 50 plies.
  bool clean() const { return longest_win <= kArticle62Plies && longest_loss <= kArticle62Plies; }
  /// Every table this one converts into is clean (see above): its 6.2
  /// values are exactly "theoretical if MTC <= 50 - c, else a draw".
  bool exact = false;
  /// With an `.r62` table (article62_builder.h, for a table that is not exact):
  /// its wins by stored `.r62` value (0-50: plies to a conversion that keeps
  /// the win under 6.2 from a fresh count; 51: none within the count).
  bool has_r62 = false;
  std::vector<std::uint64_t> win_r62;
  int r62_longest = -1;  // its largest stored value over wins and losses
  /// Under 6.2 from a fresh count every position keeps its theoretical
  /// value: by the `.r62` table if there is one, else exact and clean.
  bool faithful() const { return has_r62 ? r62_longest <= kArticle62Plies : exact && clean(); }
  /// Wins that 6.2 draws when c plies are already counted: stored `.r62`
  /// value above 50 - c where there is one, else MTC above 50 - c.
  std::uint64_t wins_drawn_at(int c) const;
};

/// MTC values [first, first + out.size()) of one table, from wherever they
/// are (a decoded `.mtc` table, the generator's scratch file). Thread-safe.
using MtcReader = std::function<void(std::uint64_t first, std::span<std::uint8_t> out)>;

/// The counts of one table (every field but `exact`, which needs the whole
/// set): its true values (captures resolved) and its MTC (a capture position
/// converts at once: 1, whatever is stored there). With `captures_stored`,
/// the histograms count what is stored at captures too: the counts of an
/// `.r62` table, read as its MTC.
MtcTableReport count_mtc_table(const Material& m, const UnitValues& values, const MtcReader& mtc,
                               bool captures_stored = false);

/// Every table of `dir` that has both a `.wdl` and a `.mtc` file, in build
/// order: from the counts recorded when it was built (mtc_sidecar.h), or,
/// without trustworthy ones or for all if `recount`, by decoding the tables.
/// False with a message if a table is missing, damaged or unreadable.
bool mtc_report(const std::string& dir, bool show_progress, bool recount, std::vector<MtcTableReport>& out,
                std::string& error);

}  // namespace dtb::gen
