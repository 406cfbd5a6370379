// Loading what the draw-rule report (drawrules/rule_report.h) reads: the .rule
// and .dtw tables of every class material, and the .dtw tables their winning
// lines run into. Shared by `dtb rules` and `GET /api/rules`.
#pragma once

#include <string>

#include "drawrules/table_set.h"

namespace dtb {

/// Load into `dtw` and `rules`; a missing class table is an error (status
/// Missing, the message names the file), a missing table after the class is
/// not (the longest-win lines stop there).
TableError load_rule_report_tables(const std::string& dir, TableSet& dtw, TableSet& rules);

/// The report as `dtb rules --json` prints it, or the error that stopped it.
TableError rule_report_json_of(const std::string& dir, std::string& json);

}  // namespace dtb
