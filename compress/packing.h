// Packings: how the values of one block are laid out as bytes before zstd
// (compress/FORMAT.md, "Packings"). Packing squeezes out the bits zstd would
// otherwise have to learn are always zero; the measurements in FORMAT.md say
// which packing compresses best.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "compress/table_file.h"

namespace dtb::packing {

/// Whether every value 0..max_value can be represented.
bool can_hold(Packing p, std::uint16_t max_value);

/// Upper bound of the packed size of `count` values (the decompression buffer).
std::size_t max_packed_bytes(Packing p, std::size_t count);

/// Pack `values` (each representable, see can_hold) into `out` (replaced).
void pack(Packing p, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& out);

/// Unpack exactly `count` values into out[0..count). False if `packed` is not
/// a valid encoding of `count` values (wrong length, a base-3 byte >= 243, a
/// run past the end, a value too large for T...).
template <typename T>
bool unpack(Packing p, std::span<const std::uint8_t> packed, T* out, std::size_t count);

/// Four values per byte (Packing::Bits2 layout) from one byte per value < 4.
void bytes_to_packed2(const std::uint8_t* values, std::size_t count, std::vector<std::uint8_t>& out);

/// Whether the unused high bits of a Bits2 buffer of `count` values are zero,
/// as the format requires (FORMAT.md): checked by unpack and by the probe's
/// path that keeps the bits2 bytes as stored, so that both accept the same.
bool packed2_padding_clear(std::span<const std::uint8_t> packed, std::size_t count);

/// Largest value in a Bits2 packed buffer whose padding bits are zero (for
/// range checks without unpacking).
unsigned packed2_max(std::span<const std::uint8_t> packed);

}  // namespace dtb::packing
