// The solver's working state of one level (unit_solver.cpp), in one of two
// forms with the same interface, so that one solver serves both.
//
// ByteStates, for every unit: the state byte of solver_state.h (a counter of
// the king moves not yet refuted) and a must-capture bit, 9 bits a position.
//
// NibbleStates, for kings-only units whose bytes would not fit the memory
// bound (7 kings: 4 against 3 is 7.0 G positions, 7.9 GB of bytes): 4 bits a
// position, the capture bit and a 3-bit code for the byte states that carry
// no counter (kDraw .. kLoss), plus kUncounted, "undecided". Without a
// counter, a loss is found by checking: when a successor of an undecided
// position p is decided won (for its mover, so p's move there is refuted),
// the solver looks at every move of p, and p is lost if every successor is
// won by a round up to the current one (UnitSolver::all_moves_refuted). Why
// that gives the same round, so the same MTC, as counting: the successors
// decided by round r are a fixed set during round r (a round only marks
// positions for round r + 1), and p's last refuting successor is propagated
// in round r, so a check then succeeds and none before it does. Kings-only
// units need no draw flag (it marks a drawing man move) and decide every
// position that must capture in the first pass, so an undecided position is
// quiet and each of its moves is a king move inside the unit.
//
// Both forms are read and updated with relaxed atomics: threads update
// positions of the other table concurrently (a nibble's neighbour too, so a
// nibble is changed by compare-and-swap on its byte).
#pragma once

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

#include "support/large_array.h"
#include "solver/solver_state.h"

namespace dtb::gen {

class ByteStates {
 public:
  static constexpr bool kCountsMoves = true;
  /// Bytes for a level of n positions.
  static constexpr std::uint64_t bytes_for(std::uint64_t n) { return n + n / 8; }

  /// Room for n positions, contents undefined (the first pass writes all).
  void resize_for_overwrite(std::uint64_t n) {
    gen::resize_for_overwrite(states_, n);
    gen::resize_for_overwrite(captures_, (n + 63) / 64);
  }
  void clear() {
    LargeArray<std::uint8_t>().swap(states_);
    LargeArray<std::uint64_t>().swap(captures_);
  }

  /// The first pass: the states of positions 64w .. 64w + count - 1 (all of
  /// word w: a thread owns whole words) and which of them must capture.
  void set_word(std::uint64_t w, const std::uint8_t* states, std::size_t count, std::uint64_t capture_bits) {
    for (std::size_t k = 0; k < count; ++k) states_[w * 64 + k] = states[k];
    captures_[w] = capture_bits;
  }
  std::uint64_t capture_word(std::uint64_t w) const { return captures_[w]; }

  std::uint8_t load(std::uint64_t i) const {
    return std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(states_[i])).load(std::memory_order_relaxed);
  }
  void store(std::uint64_t i, std::uint8_t s) {
    std::atomic_ref<std::uint8_t>(states_[i]).store(s, std::memory_order_relaxed);
  }
  /// Like compare_exchange_weak: false (with `expected` reloaded) if the
  /// state was not `expected` or the exchange failed spuriously.
  bool compare_exchange(std::uint64_t i, std::uint8_t& expected, std::uint8_t desired) {
    return std::atomic_ref<std::uint8_t>(states_[i]).compare_exchange_weak(expected, desired,
                                                                           std::memory_order_relaxed);
  }
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&states_[i], 1); }
  /// Give back the memory of positions [first, end) (read for the last time).
  void release(std::uint64_t first, std::uint64_t end) { release_pages(states_.data() + first, end - first); }
  /// The storage, for a round checkpoint (level_checkpoint.h).
  std::vector<std::span<std::uint8_t>> raw() {
    return {{states_.data(), states_.size()},
            {reinterpret_cast<std::uint8_t*>(captures_.data()), captures_.size() * sizeof(std::uint64_t)}};
  }

 private:
  LargeArray<std::uint8_t> states_;
  LargeArray<std::uint64_t> captures_;
};

class NibbleStates {
 public:
  static constexpr bool kCountsMoves = false;
  /// The undecided state: no counter, so not a counter's byte (those are >= 2).
  static constexpr std::uint8_t kUncounted = 0;
  static constexpr std::uint64_t bytes_for(std::uint64_t n) { return (n + 1) / 2; }

  void resize_for_overwrite(std::uint64_t n) { gen::resize_for_overwrite(nibbles_, (n + 1) / 2); }
  void clear() { LargeArray<std::uint8_t>().swap(nibbles_); }

  void set_word(std::uint64_t w, const std::uint8_t* states, std::size_t count, std::uint64_t capture_bits) {
    for (std::size_t k = 0; k < count; k += 2) {
      const std::uint8_t low = nibble(states[k], (capture_bits >> k) & 1);
      const std::uint8_t high = k + 1 < count ? nibble(states[k + 1], (capture_bits >> (k + 1)) & 1) : 0;
      nibbles_[w * 32 + k / 2] = static_cast<std::uint8_t>(low | high << 4);
    }
  }
  std::uint64_t capture_word(std::uint64_t w) const {
    std::uint64_t bits = 0;
    const std::uint64_t bytes = std::min<std::uint64_t>(32, nibbles_.size() - w * 32);
    for (std::uint64_t k = 0; k < bytes; ++k) {
      const std::uint8_t b = nibbles_[w * 32 + k];
      bits |= std::uint64_t{(b >> 3) & 1u} << (2 * k) | std::uint64_t{(b >> 7) & 1u} << (2 * k + 1);
    }
    return bits;
  }

  std::uint8_t load(std::uint64_t i) const {
    return state_of(static_cast<std::uint8_t>(load_byte(i) >> shift(i)));
  }
  void store(std::uint64_t i, std::uint8_t s) {
    std::uint8_t expected = load_byte(i);
    while (!exchange_byte(i, expected, s)) {
    }
  }
  bool compare_exchange(std::uint64_t i, std::uint8_t& expected, std::uint8_t desired) {
    std::uint8_t b = load_byte(i);
    if (state_of(static_cast<std::uint8_t>(b >> shift(i))) != expected) {
      expected = state_of(static_cast<std::uint8_t>(b >> shift(i)));
      return false;
    }
    if (exchange_byte(i, b, desired)) return true;
    expected = state_of(static_cast<std::uint8_t>(b >> shift(i)));  // the other nibble may have moved
    return false;
  }
  void prefetch(std::uint64_t i) const { __builtin_prefetch(&nibbles_[i / 2], 1); }
  void release(std::uint64_t first, std::uint64_t end) {
    release_pages(nibbles_.data() + (first + 1) / 2, end / 2 - (first + 1) / 2);
  }
  std::vector<std::span<std::uint8_t>> raw() { return {{nibbles_.data(), nibbles_.size()}}; }

 private:
  // A nibble: bit 3 the capture bit, bits 0-2 the code: 0 undecided, then
  // kDraw .. kLoss (the byte states 248 .. 254) as 1 .. 7.
  static_assert(state::kLoss - state::kDraw == 6 && state::kLoss == 254);
  static constexpr std::uint8_t code_of(std::uint8_t s) {
    return s == kUncounted ? 0 : static_cast<std::uint8_t>(s - state::kDraw + 1);
  }
  static constexpr std::uint8_t state_of(std::uint8_t n) {
    const std::uint8_t code = n & 7;
    return code == 0 ? kUncounted : static_cast<std::uint8_t>(code - 1 + state::kDraw);
  }
  static constexpr std::uint8_t nibble(std::uint8_t s, bool capture) {
    return static_cast<std::uint8_t>(code_of(s) | (capture ? 8 : 0));
  }
  static constexpr int shift(std::uint64_t i) { return (i & 1) ? 4 : 0; }

  std::uint8_t load_byte(std::uint64_t i) const {
    return std::atomic_ref<std::uint8_t>(const_cast<std::uint8_t&>(nibbles_[i / 2])).load(std::memory_order_relaxed);
  }
  // Replace i's code in byte `b` (as last seen) by s's, keeping its capture
  // bit and the other nibble: false, with `b` reloaded, if the byte changed.
  bool exchange_byte(std::uint64_t i, std::uint8_t& b, std::uint8_t s) {
    const int at = shift(i);
    const std::uint8_t desired =
        static_cast<std::uint8_t>((b & ~(7 << at)) | code_of(s) << at);
    return std::atomic_ref<std::uint8_t>(nibbles_[i / 2]).compare_exchange_weak(b, desired,
                                                                               std::memory_order_relaxed);
  }

  LargeArray<std::uint8_t> nibbles_;
};

}  // namespace dtb::gen
