#include "solver/level_order.h"

namespace dtb::gen {

LevelOrder::LevelOrder(const PositionIndex& index, const SliceLevels& levels)
    : kings_per_slice_(index.kings_per_slice()),
      slice_div_(index.kings_per_slice(), index.size()),
      storage_slice_(index.slice_count()) {
  std::uint32_t next = 0;
  for (int a = 0; a < levels.levels(); ++a)
    for (const std::uint32_t s : levels.level(a)) storage_slice_[s] = next++;
}

}  // namespace dtb::gen
