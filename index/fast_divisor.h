// Division by a run-time constant without a hardware divide.
//
// Unranking splits an index into mixed-radix digits whose radices are fixed
// per material but only known at run time, so the compiler cannot turn the
// divisions into multiplications. A 64-bit DIV costs tens of cycles on the
// target machines, several per unrank; a 64x64->128 multiply costs about 3.
//
// Two multiplier forms, chosen once per divisor:
// - exact: with M = ceil(2^64 / d) = (2^64 + e) / d, 0 <= e < d,
//   n * M / 2^64 = n/d + n*e / (d * 2^64), and the error term stays below
//   1/d - so floor() is exact - whenever n * d < 2^64. That holds for every
//   table up to 7 pieces, and saves the correction step on the critical path.
// - corrected: with m = floor((2^64 - 1) / d), q' = floor(n * m / 2^64)
//   satisfies n/d - 1 < q' <= n/d for every n < 2^63, so q' is the true
//   quotient or one below it; one compare of the remainder fixes it.
// d = 1 (M would be 2^64) is folded into the exact form as M = 0 plus n, so
// materials with and without such digits share one branch-free path; the
// corrected form only serves tables of 8 and more pieces.
#pragma once

#include <cassert>
#include <cstdint>
#include <utility>

namespace dtb::index_detail {

__extension__ using uint128 = unsigned __int128;

class FastDivisor {
 public:
  FastDivisor() : FastDivisor(1, 0) {}
  /// A divisor d (0 is treated as 1) for dividends up to max_dividend < 2^63.
  FastDivisor(std::uint64_t d, std::uint64_t max_dividend) : d_(d == 0 ? 1 : d) {
    std::uint64_t product = 0;
    if (d_ == 1) {
      identity_mask_ = ~std::uint64_t{0};  // m_ = 0: n * 0 / 2^64 + n
    } else if (!__builtin_mul_overflow(max_dividend, d_, &product)) {
      m_ = ~std::uint64_t{0} / d_ + 1;  // floor((2^64 - 1) / d) + 1 = ceil(2^64 / d)
    } else {
      corrected_ = true;
      m_ = ~std::uint64_t{0} / d_;
    }
  }

  std::uint64_t divisor() const { return d_; }

  /// n / d for n <= max_dividend (n < 2^63).
  std::uint64_t quotient(std::uint64_t n) const {
    assert(n < (std::uint64_t{1} << 63));
    const std::uint64_t q = mulhi(n, m_);
    if (corrected_) [[unlikely]]
      return q + (n - q * d_ >= d_);
    return q + (n & identity_mask_);
  }

  /// {n / d, n % d} for n <= max_dividend (n < 2^63).
  std::pair<std::uint64_t, std::uint64_t> divmod(std::uint64_t n) const {
    const std::uint64_t q = quotient(n);
    return {q, n - q * d_};
  }

 private:
  static std::uint64_t mulhi(std::uint64_t a, std::uint64_t b) {
    return static_cast<std::uint64_t>((static_cast<uint128>(a) * b) >> 64);
  }

  std::uint64_t d_;
  std::uint64_t m_ = 0;
  std::uint64_t identity_mask_ = 0;
  bool corrected_ = false;
};

}  // namespace dtb::index_detail
