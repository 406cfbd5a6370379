// A hash of positions for the tests' explicit games (unordered_map keys).
#pragma once

#include <cstddef>
#include <cstdint>

#include "rules/position.h"

namespace dtb::test {

struct PositionHash {
  std::size_t operator()(const Position& p) const {
    std::uint64_t h = p.white * 0x9E3779B97F4A7C15ULL ^ (p.black + 0x632BE59BD9B4E019ULL) * 0xC2B2AE3D27D4EB4FULL;
    h ^= (p.kings + static_cast<std::uint64_t>(p.side)) * 0x165667B19E3779F9ULL;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};

}  // namespace dtb::test
