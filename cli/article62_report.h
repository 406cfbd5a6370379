// `dtb rules --article 6.2 [--json] DIR`: what the 25-move rule (FMJD 6.2)
// does to every table of DIR that has a `.mtc` table (gen/mtc_report.h
// for the numbers and why MTC decides them).
#pragma once

#include <string>

namespace dtb::cli {

/// Print the report to standard output; 0, or 1 with a message on stderr.
int run_article62_report(const std::string& dir, bool json);

}  // namespace dtb::cli
