#include "solver/unit_values.h"

#include <algorithm>

namespace dtb::gen {
namespace {

// Zero `a` and give its whole pages back to the system (they read as zero
// and cost no memory until written again); the partial pages at either end
// are zeroed by hand. Small pages from then on: the array is used sparsely.
template <class Array>
void zero_releasing(Array& a) {
  auto* begin = reinterpret_cast<std::uint8_t*>(a.data());
  const std::size_t bytes = a.size() * sizeof(a[0]);
  advise_small_pages(begin, bytes);
  const auto page = [](std::uintptr_t p) { return p & ~std::uintptr_t{4095}; };
  const std::uintptr_t first = page(reinterpret_cast<std::uintptr_t>(begin) + 4095);
  const std::uintptr_t last = page(reinterpret_cast<std::uintptr_t>(begin) + bytes);
  if (last <= first) {
    std::fill(begin, begin + bytes, 0);
    return;
  }
  std::fill(begin, reinterpret_cast<std::uint8_t*>(first), 0);
  release_pages(reinterpret_cast<void*>(first), last - first);
  std::fill(reinterpret_cast<std::uint8_t*>(last), begin + bytes, 0);
}

template <class Array>
void zero_in_parallel(Array& a) {
  const std::int64_t n = static_cast<std::int64_t>(a.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) a[static_cast<std::size_t>(k)] = 0;
}

}  // namespace

UnitValues::UnitValues(std::uint64_t positions)
    : size_(positions), wdl_((positions + 31) / 32), capture_((positions + 63) / 64) {
  zero_in_parallel(wdl_);
  zero_in_parallel(capture_);
}

UnitValues::UnitValues(std::uint64_t positions, Unset)
    : size_(positions), wdl_((positions + 31) / 32), capture_((positions + 63) / 64) {}

void UnitValues::clear() {
  zero_releasing(wdl_);
  zero_releasing(capture_);
}

void UnitValues::read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const {
  for (std::size_t k = 0; k < values.size(); ++k) {
    const std::uint64_t i = first + k;
    values[k] = static_cast<std::uint16_t>((wdl_[i >> 5] >> ((i & 31) * 2)) & 3);
    dont_care[k] = static_cast<std::uint8_t>((capture_[i >> 6] >> (i & 63)) & 1);
  }
}

MaterialStats UnitValues::count(const Material& m) const {
  MaterialStats s;
  s.material = m;
  s.positions = size_;
  std::uint64_t by_value[2][3] = {};  // [capture][wdl]
  const std::int64_t n = static_cast<std::int64_t>(size_);
#pragma omp parallel
  {
    std::uint64_t local[2][3] = {};
#pragma omp for schedule(static)
    for (std::int64_t k = 0; k < n; ++k) {
      const auto i = static_cast<std::uint64_t>(k);
      ++local[capture(i) ? 1 : 0][static_cast<int>(value(i))];
    }
#pragma omp critical(dtb_unit_values_count)
    for (int c = 0; c < 2; ++c)
      for (int v = 0; v < 3; ++v) by_value[c][v] += local[c][v];
  }
  s.captures = by_value[1][0] + by_value[1][1] + by_value[1][2];
  s.loss = by_value[0][0] + by_value[1][0];
  s.draw = by_value[0][1] + by_value[1][1];
  s.win = by_value[0][2] + by_value[1][2];
  s.quiet_loss = by_value[0][0];
  s.quiet_draw = by_value[0][1];
  s.quiet_win = by_value[0][2];
  return s;
}

}  // namespace dtb::gen
