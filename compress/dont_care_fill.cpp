#include "compress/dont_care_fill.h"

#include <algorithm>

namespace dtb {

std::vector<std::uint16_t> block_carries(std::span<const std::uint16_t> values,
                                         std::span<const std::uint8_t> dont_care, std::size_t per_block) {
  const std::size_t n = values.size();
  const std::size_t blocks = per_block ? (n + per_block - 1) / per_block : 0;
  std::vector<std::uint16_t> carries(blocks, 0);
  if (blocks == 0 || dont_care.empty()) return carries;
  const auto first_cared = std::find(dont_care.begin(), dont_care.end(), std::uint8_t{0});
  if (first_cared == dont_care.end()) return carries;  // nothing matters: all zero is the smallest
  std::uint16_t carry = values[static_cast<std::size_t>(first_cared - dont_care.begin())];
  for (std::size_t b = 0; b < blocks; ++b) {
    carries[b] = carry;
    // The last value that matters in this block, if any, is the next block's carry.
    const std::size_t begin = b * per_block, end = std::min(n, begin + per_block);
    for (std::size_t i = end; i > begin; --i)
      if (!dont_care[i - 1]) {
        carry = values[i - 1];
        break;
      }
  }
  return carries;
}

void fill_dont_care_block(std::span<const std::uint16_t> values, std::span<const std::uint8_t> dont_care,
                          std::size_t first, std::uint16_t carry, std::span<std::uint16_t> out) {
  if (dont_care.empty()) {
    std::copy_n(values.begin() + static_cast<std::ptrdiff_t>(first), out.size(), out.begin());
    return;
  }
  // Written without a branch: don't-care positions come at random (a third
  // to a half of a table), and a branch per position mispredicts often.
  std::uint16_t previous = carry;
  for (std::size_t k = 0; k < out.size(); ++k) {
    previous = dont_care[first + k] ? previous : values[first + k];
    out[k] = previous;
  }
}

std::vector<std::uint16_t> fill_dont_care(std::span<const std::uint16_t> values,
                                          std::span<const std::uint8_t> dont_care) {
  std::vector<std::uint16_t> out(values.size());
  const std::vector<std::uint16_t> carry = block_carries(values, dont_care, values.size());
  fill_dont_care_block(values, dont_care, 0, carry.empty() ? 0 : carry[0], out);
  return out;
}

}  // namespace dtb
