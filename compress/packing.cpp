#include "compress/packing.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <limits>

namespace dtb::packing {
namespace {

std::size_t packed2_bytes(std::size_t count) { return (count + 3) / 4; }
std::size_t base3_bytes(std::size_t count) { return (count + 4) / 5; }

// Each base-3 byte b < 243 holds five digits b = d0 + 3 d1 + 9 d2 + 27 d3 + 81 d4;
// a table of the digits makes unpacking a copy instead of five divisions.
struct Base3Digits {
  std::array<std::array<std::uint8_t, 5>, 243> digits{};
  constexpr Base3Digits() {
    for (int b = 0; b < 243; ++b)
      for (int k = 0, r = b; k < 5; ++k, r /= 3) digits[b][k] = static_cast<std::uint8_t>(r % 3);
  }
};
constexpr Base3Digits kBase3;

void pack_bits2(std::span<const std::uint16_t> v, std::vector<std::uint8_t>& out) {
  out.assign(packed2_bytes(v.size()), 0);
  for (std::size_t i = 0; i < v.size(); ++i) out[i >> 2] |= static_cast<std::uint8_t>(v[i] << ((i & 3) * 2));
}

void pack_base3(std::span<const std::uint16_t> v, std::vector<std::uint8_t>& out) {
  out.assign(base3_bytes(v.size()), 0);
  for (std::size_t i = 0; i < out.size(); ++i) {
    unsigned byte = 0;
    // Horner from the most significant digit; missing tail digits are 0.
    for (std::size_t k = 5; k-- > 0;) {
      const std::size_t j = 5 * i + k;
      byte = byte * 3 + (j < v.size() ? v[j] : 0u);
    }
    out[i] = static_cast<std::uint8_t>(byte);
  }
}

void pack_bits8(std::span<const std::uint16_t> v, std::vector<std::uint8_t>& out) {
  out.resize(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) out[i] = static_cast<std::uint8_t>(v[i]);
}

void pack_bits16(std::span<const std::uint16_t> v, std::vector<std::uint8_t>& out) {
  out.resize(2 * v.size());
  for (std::size_t i = 0; i < v.size(); ++i) {
    out[2 * i] = static_cast<std::uint8_t>(v[i]);
    out[2 * i + 1] = static_cast<std::uint8_t>(v[i] >> 8);
  }
}

void pack_runs(std::span<const std::uint16_t> v, std::vector<std::uint8_t>& out) {
  out.clear();
  for (std::size_t i = 0; i < v.size();) {
    std::size_t j = i + 1;
    while (j < v.size() && v[j] == v[i]) ++j;
    out.push_back(static_cast<std::uint8_t>(v[i]));
    for (std::size_t extra = j - i - 1;; extra >>= 7) {  // LEB128 of length - 1
      if (extra < 0x80) {
        out.push_back(static_cast<std::uint8_t>(extra));
        break;
      }
      out.push_back(static_cast<std::uint8_t>(0x80 | (extra & 0x7f)));
    }
    i = j;
  }
}

template <typename T>
bool unpack_bits2(std::span<const std::uint8_t> in, T* out, std::size_t count) {
  if (in.size() != packed2_bytes(count)) return false;
  if (!packed2_padding_clear(in, count)) return false;
  const std::size_t whole = count / 4;
  for (std::size_t i = 0; i < whole; ++i) {
    const unsigned b = in[i];
    out[4 * i] = static_cast<T>(b & 3);
    out[4 * i + 1] = static_cast<T>((b >> 2) & 3);
    out[4 * i + 2] = static_cast<T>((b >> 4) & 3);
    out[4 * i + 3] = static_cast<T>(b >> 6);
  }
  for (std::size_t i = 4 * whole; i < count; ++i) out[i] = static_cast<T>((in[i >> 2] >> ((i & 3) * 2)) & 3);
  return true;
}

template <typename T>
bool unpack_base3(std::span<const std::uint8_t> in, T* out, std::size_t count) {
  if (in.size() != base3_bytes(count)) return false;
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (in[i] >= 243) return false;
    const auto& d = kBase3.digits[in[i]];
    const std::size_t n = std::min<std::size_t>(5, count - 5 * i);
    for (std::size_t k = 0; k < n; ++k) out[5 * i + k] = d[k];
  }
  return true;
}

template <typename T>
bool unpack_bits8(std::span<const std::uint8_t> in, T* out, std::size_t count) {
  if (in.size() != count) return false;
  std::copy(in.begin(), in.end(), out);
  return true;
}

template <typename T>
bool unpack_bits16(std::span<const std::uint8_t> in, T* out, std::size_t count) {
  if (in.size() != 2 * count) return false;
  for (std::size_t i = 0; i < count; ++i) {
    const unsigned v = in[2 * i] | (unsigned{in[2 * i + 1]} << 8);
    if (v > std::numeric_limits<T>::max()) return false;
    out[i] = static_cast<T>(v);
  }
  return true;
}

template <typename T>
bool unpack_runs(std::span<const std::uint8_t> in, T* out, std::size_t count) {
  std::size_t pos = 0, filled = 0;
  while (pos < in.size()) {
    const std::uint8_t value = in[pos++];
    std::uint64_t extra = 0;
    for (int shift = 0;; shift += 7) {
      if (pos == in.size() || shift > 56) return false;
      const std::uint8_t b = in[pos++];
      extra |= std::uint64_t{b & 0x7fu} << shift;
      if (!(b & 0x80)) break;
    }
    if (extra >= count - filled) return false;  // the run would overflow the block
    std::fill_n(out + filled, extra + 1, static_cast<T>(value));
    filled += extra + 1;
  }
  return filled == count;
}

}  // namespace

bool can_hold(Packing p, std::uint16_t max_value) {
  switch (p) {
    case Packing::Bits2: return max_value < 4;
    case Packing::Base3: return max_value < 3;
    case Packing::Bits8:
    case Packing::Runs: return max_value < 256;
    case Packing::Bits16: return true;
  }
  return false;
}

std::size_t max_packed_bytes(Packing p, std::size_t count) {
  switch (p) {
    case Packing::Bits2: return packed2_bytes(count);
    case Packing::Base3: return base3_bytes(count);
    case Packing::Bits8: return count;
    case Packing::Bits16: return 2 * count;
    case Packing::Runs: return 2 * count + 8;  // worst case: runs of one, one varint byte each
  }
  return 0;
}

void pack(Packing p, std::span<const std::uint16_t> values, std::vector<std::uint8_t>& out) {
  switch (p) {
    case Packing::Bits2: return pack_bits2(values, out);
    case Packing::Base3: return pack_base3(values, out);
    case Packing::Bits8: return pack_bits8(values, out);
    case Packing::Bits16: return pack_bits16(values, out);
    case Packing::Runs: return pack_runs(values, out);
  }
}

template <typename T>
bool unpack(Packing p, std::span<const std::uint8_t> packed, T* out, std::size_t count) {
  switch (p) {
    case Packing::Bits2: return unpack_bits2(packed, out, count);
    case Packing::Base3: return unpack_base3(packed, out, count);
    case Packing::Bits8: return unpack_bits8(packed, out, count);
    case Packing::Bits16: return unpack_bits16(packed, out, count);
    case Packing::Runs: return unpack_runs(packed, out, count);
  }
  return false;
}
template bool unpack<std::uint8_t>(Packing, std::span<const std::uint8_t>, std::uint8_t*, std::size_t);
template bool unpack<std::uint16_t>(Packing, std::span<const std::uint8_t>, std::uint16_t*, std::size_t);

void bytes_to_packed2(const std::uint8_t* values, std::size_t count, std::vector<std::uint8_t>& out) {
  out.assign(packed2_bytes(count), 0);
  for (std::size_t i = 0; i < count; ++i) out[i >> 2] |= static_cast<std::uint8_t>(values[i] << ((i & 3) * 2));
}

bool packed2_padding_clear(std::span<const std::uint8_t> packed, std::size_t count) {
  return count % 4 == 0 || packed.size() != packed2_bytes(count) || (packed.back() >> (2 * (count % 4))) == 0;
}

unsigned packed2_max(std::span<const std::uint8_t> packed) {
  // Word at a time: in each 2-bit field, `lo` is bit 0 and `hi` bit 1, so a
  // field holds 3 when both are set, at least 2 when hi is, at least 1 when
  // either is. Padding fields of the last byte are zero, so they never count.
  constexpr std::uint64_t kLow = 0x5555555555555555ull;
  std::uint64_t any = 0, high = 0, three = 0;
  std::size_t i = 0;
  for (; i + 8 <= packed.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, packed.data() + i, 8);
    const std::uint64_t lo = w & kLow, hi = (w >> 1) & kLow;
    any |= w;
    high |= hi;
    three |= lo & hi;
  }
  for (; i < packed.size(); ++i) {
    const std::uint64_t w = packed[i], lo = w & kLow, hi = (w >> 1) & kLow;
    any |= w;
    high |= hi;
    three |= lo & hi;
  }
  return three ? 3u : high ? 2u : any ? 1u : 0u;
}

}  // namespace dtb::packing
