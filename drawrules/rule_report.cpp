#include "drawrules/rule_report.h"

#include <sstream>

#include "drawrules/rule_probe.h"
#include "compress/value_encoding.h"
#include "rules/notation.h"

namespace dtb {
namespace {

void count_value(Wdl v, std::uint64_t& win, std::uint64_t& draw, std::uint64_t& loss) {
  (v == Wdl::Win ? win : v == Wdl::Draw ? draw : loss) += 1;
}

// The table of `m` with `side` to move: Black to move in m is White to move
// in reversed(m).
RuleReportEntry entry_for(const TableSet& rules, const TableSet& dtw, const Material& m, Color side) {
  RuleReportEntry e;
  e.material = m;
  e.to_move = side;
  e.rule = rule_class(m);
  e.limit_plies = limit_plies(e.rule);
  const Material table = side == Color::White ? m : m.reversed();
  const std::vector<std::uint16_t>& r = rules.values(table);
  const std::vector<std::uint16_t>& d = dtw.values(table);
  std::uint64_t longest_index = 0;
  e.positions = r.size();
  for (std::uint64_t i = 0; i < r.size(); ++i) {
    const Outcome theory = decode_dtw(d[i]), budget = decode_rule(r[i]);
    count_value(theory.value, e.win, e.draw, e.loss);
    count_value(rule_value_with_budget(budget, e.limit_plies), e.rule_win, e.rule_draw, e.rule_loss);
    if (theory.value == Wdl::Win) e.longest_win_dtw = std::max<int>(e.longest_win_dtw, theory.plies);
    if (theory.value == Wdl::Draw) continue;
    if (budget.value == Wdl::Draw) {
      if (theory.value == Wdl::Win) ++e.win_unbounded;
      continue;
    }
    if (budget.value == Wdl::Loss) {
      ++e.loss_histogram[budget.plies];
      e.longest_loss_in_class = std::max<int>(e.longest_loss_in_class, budget.plies);
      continue;
    }
    ++e.histogram[budget.plies];
    if (budget.plies > e.longest_win_in_class) {
      e.longest_win_in_class = budget.plies;
      longest_index = i;
    }
  }
  if (e.longest_win_in_class >= 0) {
    Position p = rules.index(table).unrank(longest_index);
    if (side == Color::Black) p = colour_reversed(p);
    e.longest_win_in_class_fen = to_fen(p);
    // The line under the limit exists only if the win fits the count.
    if (e.longest_win_in_class <= e.limit_plies) e.longest_win_in_class_line = line_to_string(principal_line(rules, dtw, p, 0));
  }
  return e;
}

void histogram_json(std::ostringstream& out, const std::map<int, std::uint64_t>& h) {
  out << '{';
  bool first = true;
  for (const auto& [plies, n] : h) {
    out << (first ? "" : ", ") << '"' << plies << "\": " << n;
    first = false;
  }
  out << '}';
}

}  // namespace

std::vector<RuleReportEntry> rule_report(const TableSet& rules, const TableSet& dtw) {
  std::vector<RuleReportEntry> out;
  for (const Material& m : class_materials_white_strong()) {
    out.push_back(entry_for(rules, dtw, m, Color::White));
    out.push_back(entry_for(rules, dtw, m, Color::Black));
  }
  return out;
}

std::string rule_report_json(const std::vector<RuleReportEntry>& entries) {
  const auto length = [](int plies) { return plies >= 0 ? std::to_string(plies) : std::string("null"); };
  // FENs and lines of moves: nothing in them needs escaping.
  const auto text = [](const std::string& s) { return s.empty() ? std::string("null") : '"' + s + '"'; };
  std::ostringstream out;
  out << "[\n";
  for (std::size_t k = 0; k < entries.size(); ++k) {
    const RuleReportEntry& e = entries[k];
    out << "  {\"material\": \"" << e.material.name() << "\", \"to_move\": \""
        << (e.to_move == Color::White ? "white" : "black") << "\", \"article\": \""
        << article_of(e.rule) << "\", \"limit_plies\": " << e.limit_plies
        << ", \"positions\": " << e.positions << ", \"win\": " << e.win << ", \"draw\": " << e.draw
        << ", \"loss\": " << e.loss << ", \"rule_win\": " << e.rule_win
        << ", \"rule_draw\": " << e.rule_draw << ", \"rule_loss\": " << e.rule_loss
        << ", \"win_unbounded\": " << e.win_unbounded
        << ", \"longest_win_in_class\": " << length(e.longest_win_in_class)
        << ", \"longest_win_in_class_fen\": " << text(e.longest_win_in_class_fen)
        << ", \"longest_win_in_class_line\": " << text(e.longest_win_in_class_line)
        << ", \"longest_win_dtw\": " << length(e.longest_win_dtw)
        << ", \"longest_loss_in_class\": " << length(e.longest_loss_in_class) << ", \"win_in_class_histogram\": ";
    histogram_json(out, e.histogram);
    out << ", \"loss_in_class_histogram\": ";
    histogram_json(out, e.loss_histogram);
    out << '}' << (k + 1 < entries.size() ? "," : "") << '\n';
  }
  out << "]\n";
  return out.str();
}

std::string rule_report_text(const std::vector<RuleReportEntry>& entries) {
  std::ostringstream out;
  for (const RuleReportEntry& e : entries) {
    out << e.material.name() << ", " << (e.to_move == Color::White ? "White" : "Black")
        << " to move (article " << article_of(e.rule) << ", limit " << e.limit_plies << " plies = "
        << e.limit_plies / 2 << " moves each)\n"
        << "  positions " << e.positions << ": theoretical win " << e.win << ", draw " << e.draw
        << ", loss " << e.loss << "\n"
        << "  from a fresh count: win " << e.rule_win << ", draw " << e.rule_draw << ", loss "
        << e.rule_loss << "\n"
        << "  wins the limit turns into draws: " << e.win - e.rule_win << " (of which "
        << e.win_unbounded << " cannot be forced inside the class at any count)\n"
        << "  losses the limit turns into draws: " << e.loss - e.rule_loss
        << "; longest loss " << e.longest_loss_in_class << " plies in the class\n";
    if (e.longest_win_in_class >= 0) {
      out << "  longest win: " << e.longest_win_in_class << " plies in the class (" << (e.longest_win_in_class + 1) / 2
          << " moves of the side to move); longest dtw " << e.longest_win_dtw << " plies\n"
          << "    " << e.longest_win_in_class_fen << "\n";
      if (!e.longest_win_in_class_line.empty()) out << "    " << e.longest_win_in_class_line << "\n";
      out << "  win lengths (plies: positions):";
      for (const auto& [plies, n] : e.histogram) out << ' ' << plies << ':' << n;
      out << '\n';
    } else {
      out << "  no win for the side to move\n";
    }
  }
  return out.str();
}

}  // namespace dtb
