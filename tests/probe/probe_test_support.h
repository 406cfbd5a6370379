// Shared helpers of the probe tests: temporary directories, tables written
// from an independent solve, the generated test tables, C-struct positions.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "dtb/dtb.h"
#include "tests/reference/naive_solver.h"
#include "rules/movegen.h"
#include "tests/support/damage.h"
#include "tests/support/temp_dir.h"

namespace dtb::test {

inline dtb_position c_position(const Position& p) {
  return dtb_position{to_dense(p.white), to_dense(p.black), to_dense(p.kings),
                      p.side == Color::White ? std::uint32_t{DTB_WHITE} : std::uint32_t{DTB_BLACK}};
}

/// Write the WDL tables of a naive solution into `dir`. Capture positions
/// are marked don't care and given a WRONG value, so a probe that reads them
/// instead of resolving the captures fails the comparison. Block sizes vary by
/// material (smaller and larger than the probe's cache page) to exercise both.
inline void write_naive_tables(const NaiveSolution& solution, const std::string& dir) {
  const std::uint32_t block_sizes[] = {4096, 16384, 65536, 1000};
  std::size_t k = 0;
  for (const Material& m : solution.materials()) {
    const PositionIndex& index = solution.index(m);
    const std::vector<std::uint8_t>& truth = solution.values(m);
    std::vector<std::uint16_t> values(truth.begin(), truth.end());
    std::vector<std::uint8_t> dont_care(values.size(), 0);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      if (!has_capture(index.unrank(i))) continue;
      dont_care[i] = 1;
      values[i] = static_cast<std::uint16_t>((values[i] + 1) % 3);
    }
    WriteOptions options;
    options.positions_per_block = block_sizes[k++ % 4];
    options.zstd_level = 1;
    const TableError err = write_table(dir + "/" + m.name() + ".wdl",
                                       TableContents{m, TableKind::Wdl, values, dont_care}, options);
    if (err) throw std::runtime_error("write_table: " + err.message);
  }
}

/// Run `$DTB_BINARY gen ARGS --out DIR` (throws if it fails).
inline void run_gen(const std::string& args, const std::string& dir) {
  const char* binary = std::getenv("DTB_BINARY");
  if (!binary || !*binary) throw std::runtime_error("DTB_BINARY is not set");
  const std::string command =
      std::string("'") + binary + "' gen " + args + " --quiet --out '" + dir + "' >/dev/null 2>&1";
  if (std::system(command.c_str()) != 0) throw std::runtime_error("failed: " + command);
}

/// The generated 2-4 piece tables: $DTB_TEST_TABLES (a CTest fixture builds
/// them once), else built now with `$DTB_BINARY gen` into a temp dir that
/// lives as long as the test process.
inline std::string generated_tables_dir() {
  if (const char* dir = std::getenv("DTB_TEST_TABLES"); dir && *dir) return dir;
  static const TempDir built;
  static const bool generated = (run_gen("--max-pieces 4", built.path()), true);
  (void)generated;
  return built.path();
}

/// The 2-3 piece tables with their .dtw and .rule tables (every 6.4 material),
/// built with `$DTB_BINARY gen --dtw` into a temp dir once per test process.
inline const std::string& dtw_tables_dir() {
  static const TempDir dir;
  static const bool built = (run_gen("--max-pieces 3 --dtw --threads 2", dir.path()), true);
  (void)built;
  return dir.path();
}

/// The 2-4 piece tables with their .mtc tables: $DTB_TEST_MTC_TABLES (a CTest
/// fixture builds them once with `dtb gen --max-pieces 4 --mtc`), else built
/// now into a temp dir that lives as long as the test process.
inline std::string mtc_tables_dir() {
  if (const char* dir = std::getenv("DTB_TEST_MTC_TABLES"); dir && *dir) return dir;
  static const TempDir built;
  static const bool generated = (run_gen("--max-pieces 4 --mtc --threads 2", built.path()), true);
  (void)generated;
  return built.path();
}

/// A position from a FEN the test knows to be good (throws otherwise).
inline dtb_position c_fen(const char* fen) {
  dtb_position p{};
  dtb_error e{};
  if (dtb_position_from_fen(fen, &p, &e) != DTB_OK) throw std::runtime_error(e.message);
  return p;
}

}  // namespace dtb::test
