#include "cli/article62_report.h"

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

#include "gen/mtc_report.h"
#include "drawrules/article62_drawn.h"
#include "index/position_index.h"
#include "probe/perfect_play.h"
#include "probe/tablebase.h"
#include "rules/notation.h"
#include "serve/json_text.h"

namespace dtb::cli {
namespace {

// Counts at which the text report shows how many wins 6.2 draws.
constexpr int kShownCounts[] = {0, 10, 20, 30, 40, 49};

// The line of perfect play from p up to and including its next conversion
// (MTC plies), in move notation; empty if the tables cannot give it.
std::string line_to_conversion(probe::PerfectPlay& play, Position p, int plies) {
  std::string line;
  for (int k = 0; k < plies; ++k) {
    Move m;
    if (play.best_move(p, m, nullptr) != DTB_OK) return line + " ?";
    if (!line.empty()) line += " ";
    line += move_to_string(p, m);
    const bool converts = probe::PerfectPlay::converts(p, m);
    p = make_move(p, m);
    if (converts) break;
  }
  return line;
}

// A longest MTC, -1 when the table has no such position: null, not a length.
std::string length_or_null(int plies) { return plies >= 0 ? std::to_string(plies) : "null"; }

std::string json_histogram(const std::vector<std::uint64_t>& h) {
  std::string out = "[";
  for (std::size_t k = 0; k < h.size(); ++k) out += (k ? "," : "") + std::to_string(h[k]);
  return out + "]";
}

}  // namespace

int run_article62_report(const TableDirView& view, bool json, bool recount) {
  const std::string& dir = view.dir();
  std::vector<gen::MtcTableReport> tables;
  std::string error;
  if (!gen::mtc_report(dir, !json, recount, tables, error)) {
    std::cerr << "dtb rules --article 6.2: " << view.named(error)
              << " (the tables come from: dtb gen --mtc --out " << view.named(dir) << ")\n";
    return 1;
  }
  std::unique_ptr<probe::Tablebase> base;
  probe::ProbeError perr;
  if (probe::Tablebase::open(dir, 64u << 20, 0, base, &perr) != DTB_OK) {
    std::cerr << "dtb rules --article 6.2: " << view.named(perr.message) << "\n";
    return 1;
  }
  probe::PerfectPlay play(*base);
  std::ostringstream out;
  bool all_exact = true, any_r62 = false;
  int longest = -1;
  if (json) out << "[";
  for (std::size_t k = 0; k < tables.size(); ++k) {
    const gen::MtcTableReport& t = tables[k];
    all_exact = all_exact && t.exact;
    any_r62 = any_r62 || t.has_r62;
    longest = std::max(longest, t.longest_win);
    const PositionIndex index(t.material);
    const Position win = index.unrank(t.longest_win_index);
    const std::string fen = t.longest_win >= 0 ? to_fen(win) : "";
    const std::string line = t.longest_win >= 0 ? line_to_conversion(play, win, t.longest_win) : "";
    if (json) {
      out << (k ? ",\n" : "\n") << "{\"material\":" << json_string(t.material.name()) << ",\"to_move\":\"white\""
          << ",\"positions\":" << t.positions << ",\"win\":" << t.win << ",\"draw\":" << t.draw
          << ",\"loss\":" << t.loss << ",\"longest_win_mtc\":" << length_or_null(t.longest_win)
          << ",\"longest_loss_mtc\":" << length_or_null(t.longest_loss) << ",\"longest_win_mtc_fen\":"
          << (fen.empty() ? "null" : json_string(fen)) << ",\"longest_win_mtc_line\":"
          << (fen.empty() ? "null" : json_string(line)) << ",\"wins_drawn_at\":[";
      for (int c = 0; c < kArticle62Plies; ++c) out << (c ? "," : "") << t.wins_drawn_at(c);
      out << "],\"exact\":" << (t.exact ? "true" : "false") << ",\"rule_aware\":" << (t.has_r62 ? "true" : "false")
          << ",\"win_mtc_histogram\":" << json_histogram(t.win_mtc)
          << ",\"loss_mtc_histogram\":" << json_histogram(t.loss_mtc);
      out << ",\"win_r62_histogram\":" << (t.has_r62 ? json_histogram(t.win_r62) : "null");
      out << "}";
      continue;
    }
    if (k == 0) {
      out << "FMJD 6.2 (50 plies without a man move or capture: a draw) per table, White to move.\n"
          << "mtc: plies to the next conversion with perfect play; drawn@c: wins that 6.2 draws with c plies counted\n";
      char head[256];
      std::snprintf(head, sizeof head, "%-9s %12s %12s %8s %8s", "material", "wins", "losses", "max-win", "max-loss");
      out << head;
      for (int c : kShownCounts) out << "  drawn@" << c;
      out << "  exact\n";
    }
    char row[256];
    std::snprintf(row, sizeof row, "%-9s %12llu %12llu %8d %8d", t.material.name().c_str(),
                  static_cast<unsigned long long>(t.win), static_cast<unsigned long long>(t.loss), t.longest_win,
                  t.longest_loss);
    out << row;
    for (int c : kShownCounts) {
      std::snprintf(row, sizeof row, " %8llu", static_cast<unsigned long long>(t.wins_drawn_at(c)));
      out << row;
    }
    out << "  " << (t.has_r62 ? "r62" : t.exact ? "yes" : "NO") << "\n";
    if (!fen.empty()) out << "          longest: " << fen << "  " << line << "\n";
  }
  if (json) {
    out << "\n]\n";
  } else {
    out << (all_exact && !any_r62
                ? "Every table is exact: no conversion anywhere takes more than 50 plies, so a position's 6.2 value "
                  "with c plies counted is its theoretical value if MTC <= 50 - c, else a draw.\n"
            : all_exact
                ? "Every table is exact: tables marked r62 were solved under the rule (dtb gen --article62), their "
                  "drawn@c counts are exact; elsewhere MTC decides (MTC <= 50 - c).\n"
                : "Tables marked NO convert into tables whose 6.2 values are not all theoretical: theirs need the "
                  "rule-aware solve (dtb gen --article62); the counts shown for them are the MTC ones, an upper bound "
                  "on what survives.\n")
        << "Longest conversion of a win: " << longest << " plies.\n";
  }
  std::cout << out.str();
  return 0;
}

int run_article62_drawn(const TableDirView& view, const std::string& material, int count, std::size_t limit,
                        bool json) {
  const std::string& dir = view.dir();
  const auto m = parse_material(material);
  if (!m) {
    std::cerr << "dtb rules --drawn: " << material << " is not a material (e.g. KKMMvKM)\n";
    return 1;
  }
  gen::DrawnScan scan;
  std::string error;
  if (!gen::find_drawn_by_article62(dir, *m, count, limit, scan, error)) {
    std::cerr << "dtb rules --drawn: " << view.named(error) << "\n";
    return 1;
  }
  const char* source = scan.from_r62 ? "r62" : "mtc";
  if (json) {
    std::cout << "{\"material\":" << json_string(m->name()) << ",\"to_move\":\"white\",\"plies_since_conversion\":"
              << count << ",\"from\":\"" << source << "\",\"wins\":" << scan.wins << ",\"losses\":" << scan.losses
              << ",\"positions\":[";
    for (std::size_t k = 0; k < scan.listed.size(); ++k) {
      const gen::DrawnByArticle62& d = scan.listed[k];
      std::cout << (k ? "," : "") << "{\"fen\":" << json_string(to_fen(d.position)) << ",\"wdl\":\""
                << to_string(d.theoretical) << "\",\"plies\":" << d.plies << ",\"index\":" << d.index << "}";
    }
    std::cout << "]}\n";
    return 0;
  }
  std::cout << m->name() << ", White to move, " << count << " plies counted (from its ." << source
            << " table): article 6.2 draws " << scan.wins << " wins and " << scan.losses << " losses\n";
  for (const gen::DrawnByArticle62& d : scan.listed)
    std::cout << "  " << to_fen(d.position) << "  " << to_string(d.theoretical) << " in theory, "
              << (d.plies > kArticle62Plies ? std::string("not within 50 plies") : std::to_string(d.plies) + " plies")
              << " to convert\n";
  if (scan.wins + scan.losses > scan.listed.size())
    std::cout << "  (the first " << scan.listed.size() << " listed; --limit N for more)\n";
  return 0;
}

}  // namespace dtb::cli
