#include "cli/probe_lines.h"

#include <iostream>

#include "serve/probe_report.h"
#include "serve/report_json.h"

namespace dtb::cli {
namespace {

void print_plain(const ProbeReport& a, std::ostream& out) {
  out << a.fen;
  if (a.failure) {
    out << " error: " << a.failure.message << "\n";
    return;
  }
  out << " " << to_string(a.wdl);
  if (a.rule_wdl) out << " rule " << to_string(*a.rule_wdl);
  if (a.rules_wdl) out << " rules " << to_string(*a.rules_wdl);
  for (const MoveReport& m : a.moves)
    if (m.keeps_best) out << " " << m.move;
  if (a.mtc) out << " mtc " << *a.mtc;
  if (a.best_move) out << " best " << *a.best_move;
  if (a.rules_best_move) out << " rules-best " << *a.rules_best_move;
  out << "\n";
}

}  // namespace

bool answer_probe_fen(const Tablebase& tables, const std::string& fen, const ProbeLineOptions& o,
                      std::ostream& out) {
  const ProbeReport a = probe_report(tables, fen, o.plies_in_class, o.plies_since_conversion,
                                     o.class_count_given ? o.plies_in_class : -1);
  if (o.json)
    out << report_json(a) << "\n";
  else
    print_plain(a, out);
  return !a.failure;
}

bool answer_probe_lines(const Tablebase& tables, std::istream& in, const ProbeLineOptions& options,
                        std::ostream& out) {
  bool ok = true;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    ok &= answer_probe_fen(tables, line, options, out);
    out.flush();
  }
  return ok;
}

}  // namespace dtb::cli
