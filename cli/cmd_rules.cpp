// dtb rules [options] [DIR]: what the FMJD draw limits (articles 6.3 and 6.4;
// 6.2 with --article 6.2, article62_report.h) do to the endings
// (drawrules/rule_report.h).
#include <filesystem>
#include <iostream>

#include "cli/args.h"
#include "cli/article62_report.h"
#include "cli/command.h"
#include "cli/table_dir_view.h"
#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "drawrules/rule_report.h"
#include "rules/article62.h"
#include "serve/rule_report_tables.h"

namespace dtb::cli {
namespace {

struct RulesOptions {
  bool json = false, build = false;
  bool recount = false;  // --article 6.2: ignore the counts recorded at build time
  std::string drawn;     // --article 6.2 --drawn MATERIAL: list the positions the rule draws
  int count = 0;         // ... with this many plies counted
  std::size_t limit = 20;  // ... at most this many
  std::string article;  // "" (6.3 and 6.4) or "6.2"
  int dtw_up_to = 0;  // 0: only the materials the class materials reach
  std::string dir;  // "" until given: tables/
};

void progress_to_stderr(const std::string& line) { std::cerr << line << "\n"; }

// Build .dtw and .rule tables into the directory, then keep them in memory.
int build_tables(const RulesOptions& o, TableSet& dtw, TableSet& rules) {
  std::error_code ec;
  std::filesystem::create_directories(o.dir, ec);
  if (ec) {
    std::cerr << "dtb rules: cannot create " << o.dir << ": " << ec.message() << "\n";
    return 1;
  }
  dtw = o.dtw_up_to > 0 ? build_dtw_up_to(o.dtw_up_to, progress_to_stderr)
                        : build_dtw(dependency_closure(class_materials()), progress_to_stderr);
  rules = build_rules(dtw, progress_to_stderr);
  for (const TableSet* set : {&dtw, &rules}) {
    if (const TableError e = set->write_all(o.dir)) {
      std::cerr << "dtb rules: " << e.message << "\n";
      return 1;
    }
  }
  return 0;
}

int load_tables(const RulesOptions& o, const TableDirView& view, TableSet& dtw, TableSet& rules) {
  if (const TableError e = load_rule_report_tables(view.dir(), dtw, rules)) {
    std::cerr << "dtb rules: " << view.named(e.message)
              << (e.status == TableStatus::Missing ? " (build the tables with: dtb rules --build " + o.dir + ")"
                                                   : std::string())
              << "\n";
    return 1;
  }
  return 0;
}

constexpr Option kRulesOptions[] = {
    {"--tables", "DIR[:DIR...]", "the table directory, or several that hold one set (the same as DIR; default: "
                                 "tables)"},
    {"--json", "", "JSON instead of text"},
    {"--build", "", "first compute the .dtw and .rule tables into DIR"},
    {"--dtw-up-to", "N", "with --build: .dtw tables of every material up to N pieces, 4 to 7 (default: only "
                         "those the class materials reach)"},
    {"--article", "A", "6.2: the 25-move rule, from the .mtc tables of dtb gen --mtc; 6.3 or 6.4 (the default): "
                       "the 16- and 5-move limits"},
    {"--recount", "", "with --article 6.2: decode every table instead of trusting the counts recorded at build "
                      "time"},
    {"--drawn", "MATERIAL", "with --article 6.2: the positions of that table (e.g. KKMMvKM) the rule draws"},
    {"--count", "C", "with --drawn: C plies already counted, 0 to 49 (default: 0)"},
    {"--limit", "N", "with --drawn: list the first N positions (default: 20)"},
};

int run_rules(const Args& args) {
  RulesOptions o;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (a == "--json") {
      o.json = true;
    } else if (a == "--build") {
      o.build = true;
    } else if (a == "--recount") {
      o.recount = true;
    } else if (a == "--article") {
      if (i + 1 >= args.size() || (args[i + 1] != "6.2" && args[i + 1] != "6.3" && args[i + 1] != "6.4"))
        return usage_error("rules", "--article takes 6.2, 6.3 or 6.4");
      o.article = args[++i];
    } else if (a == "--drawn") {
      if (i + 1 >= args.size()) return usage_error("rules", "--drawn needs a material (e.g. KKMMvKM)");
      o.drawn = args[++i];
    } else if (a == "--count") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, kMaxPliesSinceConversion) : std::nullopt;
      if (!n) return usage_error("rules", "--count needs a whole number from 0 to 49");
      o.count = static_cast<int>(*n);
    } else if (a == "--limit") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 0, 1000000000) : std::nullopt;
      if (!n) return usage_error("rules", "--limit needs a whole number");
      o.limit = static_cast<std::size_t>(*n);
    } else if (a == "--dtw-up-to") {
      const auto n = i + 1 < args.size() ? parse_int(args[++i], 4, 7) : std::nullopt;
      if (!n) return usage_error("rules", "--dtw-up-to needs a piece count from 4 to 7");
      o.dtw_up_to = static_cast<int>(*n);
    } else if (const auto taken = take_table_dir(args, i, o.dir)) {
      if (!taken->empty()) return usage_error("rules", *taken);
    } else {
      return unknown_option("rules", a);
    }
  }
  if (o.dir.empty()) o.dir = "tables";
  if (o.dtw_up_to && !o.build) return usage_error("rules", "--dtw-up-to only makes sense with --build");
  if (o.recount && o.article != "6.2") return usage_error("rules", "--recount only makes sense with --article 6.2");
  if ((!o.drawn.empty() || o.count || o.limit != 20) && o.article != "6.2")
    return usage_error("rules", "--drawn, --count and --limit only make sense with --article 6.2");
  if (o.drawn.empty() && (o.count || o.limit != 20))
    return usage_error("rules", "--count and --limit go with --drawn MATERIAL");
  if (o.article == "6.2" && o.build)
    return usage_error("rules", "--article 6.2 reads .mtc tables: build them with dtb gen --mtc");
  if (o.build && o.dir.find(':') != std::string::npos)
    return usage_error("rules", "--build writes into one directory, not a list");
  TableDirView view;
  std::string error;
  if (!view.open(o.dir, error)) {
    std::cerr << "dtb rules: " << error << "\n";
    return 1;
  }
  if (o.article == "6.2") {
    if (!o.drawn.empty()) return run_article62_drawn(view, o.drawn, o.count, o.limit, o.json);
    return run_article62_report(view, o.json, o.recount);
  }
  TableSet dtw(TableKind::Dtw), rules(TableKind::Rule);
  if (const int rc = o.build ? build_tables(o, dtw, rules) : load_tables(o, view, dtw, rules)) return rc;
  const std::vector<RuleReportEntry> report = rule_report(rules, dtw);
  std::cout << (o.json ? rule_report_json(report) : rule_report_text(report));
  return 0;
}

}  // namespace

DTB_COMMAND("rules", "[options] [DIR[:DIR...]]", "what the FMJD draw rules (articles 6.2-6.4) do to the endings",
            "By default the 16-move (6.3) and 5-move (6.4) limits: rule values and win lengths, from the .dtw "
            "and .rule tables; with --article 6.2 the 25-move rule, from the .mtc tables and the counts "
            "recorded at build time where they match the tables",
            kRulesOptions, run_rules);

}  // namespace dtb::cli
