// The level order of spilled values (solver/level_order.h): a bijection of a
// table's positions that makes every level one run of storage positions, in
// the solver's local order.
#include <catch2/catch.hpp>

#include <vector>

#include "index/position_index.h"
#include "solver/level_order.h"
#include "solver/slice_order.h"

using namespace dtb;

TEST_CASE("the level order stores each level as one run, in local order, every position once") {
  for (const char* name : {"MMvMM", "KMvMM", "KKMvM", "MMMvMM", "KMMvKM"}) {
    INFO(name);
    const PositionIndex index(*parse_material(name));
    const gen::SliceLevels levels(index);
    const gen::LevelOrder order(index, levels);
    const std::uint64_t kps = index.kings_per_slice();
    std::vector<bool> used(index.size(), false);
    std::uint64_t next = 0;  // levels from 0 up, each in its local order (LevelCursor)
    for (int a = 0; a < levels.levels(); ++a)
      for (const std::uint32_t s : levels.level(a)) {
        CHECK(order.slice_start(s) == next);
        for (std::uint64_t k = 0; k < kps; ++k, ++next) {
          const std::uint64_t stored = order.stored(s * kps + k);
          REQUIRE(stored == next);
          REQUIRE(!used[stored]);
          used[stored] = true;
        }
      }
    CHECK(next == index.size());
  }
}
