// `dtb rules --article 6.2 [--json] DIR`: what the 25-move rule (FMJD 6.2)
// does to every table of DIR that has a `.mtc` table (gen/mtc_report.h
// for the numbers and why MTC decides them).
#pragma once

#include <string>

#include "cli/table_dir_view.h"

namespace dtb::cli {

/// Print the report to standard output; 0, or 1 with a message on stderr.
/// `recount`: decode every table instead of trusting the counts recorded
/// when it was built (gen/mtc_sidecar.h).
int run_article62_report(const TableDirView& tables, bool json, bool recount);

/// `dtb rules --article 6.2 --drawn MATERIAL [--count C] [--limit N]`: the
/// positions of that table (White to move) that 6.2 draws with C plies
/// counted (drawrules/article62_drawn.h), the first N of them, and how many in all.
int run_article62_drawn(const TableDirView& tables, const std::string& material, int count, std::size_t limit,
                        bool json);

}  // namespace dtb::cli
