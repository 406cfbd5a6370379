// The answers of `dtb probe`: one output line per FEN, plain or JSON, from the
// command line or from the lines of standard input. Apart from the option
// parsing in cmd_probe.cpp so that the fuzzer (fuzz/fuzz_probe_lines.cpp)
// drives exactly what the command does with its input, in-process.
#pragma once

#include <iosfwd>
#include <string>

#include "dtb/dtb.hpp"

namespace dtb::cli {

struct ProbeLineOptions {
  bool json = false;
  int plies_in_class = 0;  // the count of articles 6.3/6.4: 0 = the class was just entered
  bool class_count_given = false;
  int plies_since_conversion = -1;  // the count of article 6.2; -1: not asked for
};

/// Answer one FEN on one line of `out`. False if the answer is a failure
/// (bad FEN, missing or damaged table, ...), which the line then states.
bool answer_probe_fen(const Tablebase& tables, const std::string& fen, const ProbeLineOptions& options,
                      std::ostream& out);

/// Answer each non-blank line of `in` (a trailing CR dropped), flushing
/// `out` after each so that a pipe gets every answer as its line comes.
/// False if any line failed; the others are answered all the same.
bool answer_probe_lines(const Tablebase& tables, std::istream& in, const ProbeLineOptions& options,
                        std::ostream& out);

}  // namespace dtb::cli
