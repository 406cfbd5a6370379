// Filling the "don't care" positions of a table before it is packed.
//
// The probe never reads the stored value of a position where the side to
// move must capture (it searches the captures instead), so the writer is free
// to store anything there. Repeating the previous stored value is what
// compresses best among the simple, deterministic choices: across a gap
// between values a and b it adds no new run at all when a == b and exactly
// the one unavoidable transition otherwise, so it never lengthens the run
// structure zstd sees (FORMAT.md, "Don't-care positions").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace dtb {

/// `values` with every don't-care entry replaced by the previous stored
/// value (leading ones by the first value that matters; all zero if nothing
/// matters). `dont_care` is empty (no don't-care positions) or the same size
/// as `values`.
std::vector<std::uint16_t> fill_dont_care(std::span<const std::uint16_t> values,
                                          std::span<const std::uint8_t> dont_care);

/// The same fill, block by block, so that blocks can be filled in any order
/// and on any thread with the same result as fill_dont_care.
///
/// block_carries: for each block of `per_block` positions, the value its
/// leading don't-care positions take: the last value that matters before the
/// block (for the first block, the first value that matters, or 0). One pass
/// that usually looks at a few positions per block.
std::vector<std::uint16_t> block_carries(std::span<const std::uint16_t> values,
                                         std::span<const std::uint8_t> dont_care, std::size_t per_block);
/// Positions [first, first + out.size()) filled, given the block's carry.
void fill_dont_care_block(std::span<const std::uint16_t> values, std::span<const std::uint8_t> dont_care,
                          std::size_t first, std::uint16_t carry, std::span<std::uint16_t> out);

}  // namespace dtb
