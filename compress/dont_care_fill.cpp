#include "compress/dont_care_fill.h"

#include <algorithm>

namespace dtb {

std::vector<std::uint16_t> fill_dont_care(std::span<const std::uint16_t> values,
                                          std::span<const std::uint8_t> dont_care) {
  std::vector<std::uint16_t> out(values.begin(), values.end());
  if (dont_care.empty()) return out;
  const auto first_cared = std::find(dont_care.begin(), dont_care.end(), std::uint8_t{0});
  if (first_cared == dont_care.end()) {  // nothing matters: all zero is the smallest
    std::fill(out.begin(), out.end(), std::uint16_t{0});
    return out;
  }
  std::uint16_t previous = values[static_cast<std::size_t>(first_cared - dont_care.begin())];
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (dont_care[i])
      out[i] = previous;
    else
      previous = out[i];
  }
  return out;
}

}  // namespace dtb
