// Division by a run-time constant without a hardware divide.
//
// Unranking splits an index into mixed-radix digits whose radices are fixed
// per material but only known at run time, so the compiler cannot turn the
// divisions into multiplications. A 64-bit DIV costs tens of cycles on the
// target machines, several per unrank; a 64x64->128 multiply costs about 3.
//
// With m = floor((2^64 - 1) / d), q' = floor(n * m / 2^64) satisfies
// n/d - 1 < q' <= n/d for every n < 2^63, so q' is the true quotient or one
// below it; a single compare of the remainder fixes it.
#pragma once

#include <cassert>
#include <cstdint>
#include <utility>

namespace dtb::index_detail {

__extension__ using uint128 = unsigned __int128;

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1) {}
  explicit FastDivisor(std::uint64_t d) : d_(d == 0 ? 1 : d), m_(~std::uint64_t{0} / d_) {}

  std::uint64_t divisor() const { return d_; }

  /// {n / d, n % d} for n < 2^63.
  std::pair<std::uint64_t, std::uint64_t> divmod(std::uint64_t n) const {
    assert(n < (std::uint64_t{1} << 63));
    std::uint64_t q = static_cast<std::uint64_t>((static_cast<uint128>(n) * m_) >> 64);
    std::uint64_t r = n - q * d_;
    if (r >= d_) {
      ++q;
      r -= d_;
    }
    return {q, r};
  }

 private:
  std::uint64_t d_;
  std::uint64_t m_;
};

}  // namespace dtb::index_detail
