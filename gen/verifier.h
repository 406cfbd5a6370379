// `dtb verify`: re-check every stored value of a directory of WDL tables,
// independently of the solver (gen/unit_solver.cpp shares no code with this).
//
// For every unit {M, reversed(M)}, in build order, after its files pass their
// header and checksum checks (table_loading.h):
//
// 1. Consistency. For every position where the side to move need not capture,
//    the value implied by its legal moves - the best of the negated values of
//    the successors, taken from this unit's tables and the smaller ones, "no
//    move" being a loss - must equal the stored value. (Capture positions are
//    "don't care" on disk; the loader derives them from the smaller tables.)
//
// 2. Well-foundedness. Consistency alone cannot catch a cycle of false wins
//    that agree with each other. So the verifier re-derives, by its own
//    forward iteration, that every stored win and loss has a finite proof: in
//    round r a win is proven if some move reaches a loss that is a conversion
//    (capture or promotion, i.e. a smaller, already verified table) or was
//    proven earlier; a loss is proven if every move reaches such a win. Every
//    stored win and loss must be proven when the rounds stop.
//
// Dependencies are read back from the files through the probe library (or
// kept resident once verified, gen/finished_tables.h), so memory is the unit
// being checked (2 bytes a position) plus a bounded rest.
//
// Together, by induction on the length of the forced line, (1) and (2) prove
// that every stored value is the theoretical value, given the smaller tables
// (verified first) and the move generator. Optionally the XXH3 of every file
// is compared with a checksum list (gen/checksums.h).
#pragma once

#include <cstdint>
#include <string>

namespace dtb::gen {

struct VerifyOptions {
  std::string dir;
  std::string checksums_file;        // "": do not compare checksums
  std::string write_checksums_file;  // "": do not write; else list every table's XXH3 there
  bool show_progress = false;
};

struct VerifyReport {
  int tables = 0;
  std::uint64_t positions = 0;
  int longest_proof_rounds = 0;  // rounds of step 2 in the hardest unit
  int checksums_compared = 0;
};

/// True if every check passes. Otherwise false, and `failure` says what
/// failed first: the file, or the first mismatching position as a FEN.
bool verify_tables(const VerifyOptions& options, VerifyReport& report, std::string& failure);

}  // namespace dtb::gen
