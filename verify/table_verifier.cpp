#include "verify/table_verifier.h"

#include <algorithm>
#include <filesystem>
#include <functional>

#include "drawrules/rule_builder.h"
#include "rules/movegen.h"
#include "rules/notation.h"

namespace dtb {
namespace {

// The value of a position from its successors' values (side to move's view).
Outcome recompute(const Position& p, const std::function<Outcome(const Position&)>& successor) {
  MoveList moves;
  generate_moves(p, moves);
  if (moves.size == 0) return Outcome{Wdl::Loss, 0};
  int best_win = -1, longest_loss = -1;
  bool undecided = false;
  for (const Move& m : moves) {
    const Position next = colour_reversed(make_move(p, m));
    const Outcome c = next.white == 0 ? Outcome{Wdl::Loss, 0} : successor(next);
    if (c.value == Wdl::Loss)
      best_win = best_win < 0 ? c.plies + 1 : std::min(best_win, c.plies + 1);
    else if (c.value == Wdl::Win)
      longest_loss = std::max(longest_loss, c.plies + 1);
    else
      undecided = true;
  }
  if (best_win >= 0) return Outcome{Wdl::Win, static_cast<std::uint16_t>(best_win)};
  if (!undecided) return Outcome{Wdl::Loss, static_cast<std::uint16_t>(longest_loss)};
  return Outcome{};
}

VerifyResult verify_table(const TableSet& set, const Material& m,
                          const std::function<Outcome(std::uint16_t)>& decode,
                          const std::function<Outcome(const Position&)>& successor) {
  VerifyResult r;
  const std::vector<std::uint16_t>& values = set.values(m);
  const PositionIndex& index = set.index(m);
  r.positions = values.size();
  std::uint64_t first_bad = values.size(), mismatches = 0;
#pragma omp parallel for schedule(dynamic, 4096) reduction(+ : mismatches) reduction(min : first_bad)
  for (std::uint64_t i = 0; i < values.size(); ++i) {
    if (recompute(index.unrank(i), successor) != decode(values[i])) {
      ++mismatches;
      first_bad = std::min(first_bad, i);
    }
  }
  r.mismatches = mismatches;
  if (r.mismatches) {
    const Position p = index.unrank(first_bad);
    const Outcome stored = decode(values[first_bad]), again = recompute(p, successor);
    r.message = m.name() + ": " + std::to_string(r.mismatches) + " inconsistent values, first " +
                to_fen(p) + " stored " + std::string(to_string(stored.value)) + " " +
                std::to_string(stored.plies) + ", successors give " +
                std::string(to_string(again.value)) + " " + std::to_string(again.plies);
  }
  return r;
}

}  // namespace

bool verify_limits_directory(const std::string& dir, DirectoryCheck& report, std::string& failure) {
  TableSet dtw(TableKind::Dtw), rules(TableKind::Rule);
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator(dir, ec)) {
    const std::string ext = entry.path().extension().string();
    TableSet* set = ext == table_extension(TableKind::Dtw)    ? &dtw
                    : ext == table_extension(TableKind::Rule) ? &rules
                                                              : nullptr;
    if (!set) continue;
    if (const TableError e = set->load(entry.path().string())) {
      failure = e.message;
      return false;
    }
  }
  if (ec) {
    failure = dir + ": " + ec.message();
    return false;
  }
  const auto check = [&](const VerifyResult& v) {
    if (!v.ok()) failure = v.message.empty() ? "empty table" : v.message;
    report.tables += v.ok();
    report.positions += v.positions;
    return v.ok();
  };
  for (const Material& m : dtw.materials())
    if (!check(verify_dtw(dtw, m))) return false;
  for (const Material& m : rules.materials())
    if (!check(verify_rules(rules, dtw, m))) return false;
  return true;
}

VerifyResult verify_dtw(const TableSet& dtw, const Material& m) {
  for (const Material& x : {m, m.reversed()})
    for (const Material& d : direct_dependencies(x))
      if (!dtw.contains(d)) return VerifyResult{0, 0, m.name() + ": needs the dtw table of " + d.name()};
  if (!dtw.contains(m.reversed())) return VerifyResult{0, 0, m.name() + ": needs " + m.reversed().name()};
  return verify_table(dtw, m, decode_dtw, [&dtw](const Position& w) {
    const auto v = dtw.lookup(w);
    return v ? decode_dtw(*v) : Outcome{Wdl::Draw, kMaxStoredPlies};  // missing: never matches
  });
}

VerifyResult verify_rules(const TableSet& rules, const TableSet& dtw, const Material& m) {
  if (const auto missing = missing_for_rules(rules, dtw, m))
    return VerifyResult{0, 0, m.name() + ": needs the table of " + missing->name()};
  if (!rules.contains(m.reversed())) return VerifyResult{0, 0, m.name() + ": needs " + m.reversed().name()};
  const RuleClass own = rule_class(m);
  return verify_table(rules, m, decode_rule, [&rules, &dtw, own](const Position& w) {
    return successor_in_rule_game(rules, dtw, own, w);
  });
}

}  // namespace dtb
