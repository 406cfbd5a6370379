// The `.stats` sidecar (gen/stats_sidecar.h) is trusted only when its counts
// agree with themselves: a line with a valid checksum but counts that do not
// add up (found by fuzz/fuzz_sidecars.cpp) is recounted, not printed.
#include <catch2/catch.hpp>

#include <fstream>

#include "gen/checksums.h"
#include "gen/sidecar_line.h"
#include "gen/stats_sidecar.h"
#include "solver/table_loading.h"
#include "tests/gen/test_tables.h"

using namespace dtb;

namespace {

// "draughts-tb-stats 1 KvK <counts> <table hash>" with a valid line checksum.
void write_line(const std::string& dir, const Material& m, const std::string& counts) {
  std::uint64_t hash = 0;
  std::string error;
  REQUIRE(gen::file_xxh3(gen::wdl_table_path(dir, m), hash, error));
  REQUIRE(gen::write_checked_line(gen::stats_sidecar_path(dir, m),
                                  "draughts-tb-stats 1 " + m.name() + " " + counts + " " + gen::format_hash(hash),
                                  error));
}

}  // namespace

TEST_CASE("a stats sidecar whose counts do not add up is not trusted") {
  const std::string dir = gen::testing::make_temp_dir("stats-sidecar");
  const Material kvk{1, 0, 1, 0};
  std::ofstream(gen::wdl_table_path(dir, kvk)) << "any table bytes";

  // positions captures win draw loss quiet_win quiet_draw quiet_loss
  write_line(dir, kvk, "2450 408 424 2024 2 16 2024 2");
  const auto s = gen::read_stats_sidecar(dir, kvk);
  REQUIRE(s);
  CHECK(s->positions == 2450);
  CHECK(s->quiet_draw == 2024);

  for (const char* counts : {"2450 408 424 2024 3 16 2024 2",      // win + draw + loss > positions
                             "2450 408 424 2024 1 16 2024 2",      // ... < positions
                             "2450 408 424 2024 2 16 2024 3",      // more quiet losses than losses
                             "2450 408 424 2024 2 15 2024 2",      // quiet counts miss a position
                             "2450 2451 424 2024 2 0 0 0",         // more captures than positions
                             "2450 408 18446744073709551615 2024 3 16 2024 2"}) {  // a sum that wraps
    INFO(counts);
    write_line(dir, kvk, counts);
    CHECK_FALSE(gen::read_stats_sidecar(dir, kvk));
  }
}
