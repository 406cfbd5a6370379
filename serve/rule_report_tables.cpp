#include "serve/rule_report_tables.h"

#include "drawrules/dtw_builder.h"
#include "drawrules/rule_builder.h"
#include "drawrules/rule_report.h"

namespace dtb {

TableError load_rule_report_tables(const std::string& dir, TableSet& dtw, TableSet& rules) {
  const std::vector<Material> needed = class_materials();
  TableError e = rules.load_materials(dir, needed, true);
  if (!e) e = dtw.load_materials(dir, needed, true);
  // The rest of the closure only serves the winning lines after the class.
  if (!e) e = dtw.load_materials(dir, dependency_closure(needed), false);
  return e;
}

TableError rule_report_json_of(const std::string& dir, std::string& json) {
  TableSet dtw(TableKind::Dtw), rules(TableKind::Rule);
  if (TableError e = load_rule_report_tables(dir, dtw, rules)) return e;
  json = rule_report_json(rule_report(rules, dtw));
  return {};
}

}  // namespace dtb
