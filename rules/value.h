// Game values, always from the point of view of the side to move.
#pragma once

#include <cstdint>
#include <string_view>

namespace dtb {

/// Theoretical value with perfect play (only repetition, 6.1, applies: an
/// endless game is a draw). The numeric order Loss < Draw < Win is relied on.
enum class Wdl : std::uint8_t { Loss = 0, Draw = 1, Win = 2 };

/// The value for the other side.
constexpr Wdl negate(Wdl v) { return static_cast<Wdl>(2 - static_cast<int>(v)); }

constexpr std::string_view to_string(Wdl v) {
  return v == Wdl::Win ? "win" : v == Wdl::Draw ? "draw" : "loss";
}

}  // namespace dtb
