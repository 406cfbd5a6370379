#include "solver/unit_values.h"

#include <xxhash.h>

#include <algorithm>
#include <memory>
#include <new>
#include <stdexcept>
#include <vector>

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

MaterialStats stats_of(const Material& m, std::uint64_t positions, const std::uint64_t (&by_value)[2][3]) {
  MaterialStats s;
  s.material = m;
  s.positions = positions;
  s.captures = by_value[1][0] + by_value[1][1] + by_value[1][2];
  s.loss = by_value[0][0] + by_value[1][0];
  s.draw = by_value[0][1] + by_value[1][1];
  s.win = by_value[0][2] + by_value[1][2];
  s.quiet_loss = by_value[0][0];
  s.quiet_draw = by_value[0][1];
  s.quiet_win = by_value[0][2];
  return s;
}

}  // namespace

std::string values_scratch_path(const std::string& dir, const Material& m) {
  return dir + "/" + m.name() + ".values-work";
}

UnitValues::UnitValues(std::uint64_t positions, Unset)
    : size_(positions), wdl_words_((positions + 31) / 32), capture_words_((positions + 63) / 64),
      wdl_store_(wdl_words_), capture_store_(capture_words_), wdl_(wdl_store_.data()),
      capture_(capture_store_.data()) {}

UnitValues::UnitValues(std::uint64_t positions) : UnitValues(positions, Unset{}) {
  zero_in_parallel(wdl_store_);
  zero_in_parallel(capture_store_);
}

UnitValues::UnitValues(std::uint64_t positions, std::unique_ptr<ScratchFile> file,
                       std::unique_ptr<const LevelOrder> order)
    : size_(positions), wdl_words_((positions + 31) / 32), capture_words_((positions + 63) / 64),
      file_(std::move(file)), order_(std::move(order)) {
  if (file_->size() != bytes_for(positions)) throw std::logic_error("a values scratch file of the wrong size");
  wdl_ = reinterpret_cast<std::uint64_t*>(file_->data());
  capture_ = wdl_ + wdl_words_;
}

UnitValues::~UnitValues() = default;

void UnitValues::clear() {
  if (file_) throw std::logic_error("UnitValues::clear is for values in memory");
  zero_releasing(wdl_store_);
  zero_releasing(capture_store_);
}

void UnitValues::drop_capture_flags() {
  if (file_) return;  // the file's pages cost nothing once dropped
  LargeArray<std::uint64_t>().swap(capture_store_);
  capture_ = nullptr;
  capture_words_ = 0;
}

bool UnitValues::operator==(const UnitValues& o) const {
  if (size_ != o.size_ || wdl_words_ != o.wdl_words_ || capture_words_ != o.capture_words_) return false;
  if (!order_ && !o.order_)
    return std::equal(wdl_, wdl_ + wdl_words_, o.wdl_) && std::equal(capture_, capture_ + capture_words_, o.capture_);
  // Stored in different orders: position by position, a chunk at a time.
  constexpr std::uint64_t kStep = std::uint64_t{1} << 16;
  std::vector<std::uint16_t> a(kStep), b(kStep);
  std::vector<std::uint8_t> fa(kStep), fb(kStep);
  for (std::uint64_t first = 0; first < size_; first += kStep) {
    const std::size_t n = static_cast<std::size_t>(std::min(kStep, size_ - first));
    read(first, {a.data(), n}, {fa.data(), n});
    o.read(first, {b.data(), n}, {fb.data(), n});
    if (!std::equal(a.begin(), a.begin() + n, b.begin()) || !std::equal(fa.begin(), fa.begin() + n, fb.begin()))
      return false;
  }
  return true;
}

// Values [first, first + values.size()) from words of which `wdl` and
// `capture` hold those from word `base` (of 64 positions) on. Whole words of
// 64 positions are unpacked with fixed shifts, without an index computation
// a value: the writer reads every value of every table here.
void UnitValues::read_words(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care,
                            const std::uint64_t* wdl, const std::uint64_t* capture, std::uint64_t base) const {
  const std::uint64_t start = first - base * 64;
  auto one = [&](std::size_t k) {
    const std::uint64_t local = start + k;
    values[k] = static_cast<std::uint16_t>((wdl[local >> 5] >> ((local & 31) * 2)) & 3);
    dont_care[k] = static_cast<std::uint8_t>((capture[local >> 6] >> (local & 63)) & 1);
  };
  std::size_t k = 0;
  for (; k < values.size() && ((start + k) & 63) != 0; ++k) one(k);
  for (; k + 64 <= values.size(); k += 64) {
    const std::uint64_t word = (start + k) >> 6;
    const std::uint64_t low = wdl[2 * word], high = wdl[2 * word + 1], flags = capture[word];
    for (std::size_t b = 0; b < 32; ++b) {
      values[k + b] = static_cast<std::uint16_t>((low >> (2 * b)) & 3);
      values[k + 32 + b] = static_cast<std::uint16_t>((high >> (2 * b)) & 3);
    }
    for (std::size_t b = 0; b < 64; ++b) dont_care[k + b] = static_cast<std::uint8_t>((flags >> b) & 1);
  }
  for (; k < values.size(); ++k) one(k);
}

void UnitValues::read(std::uint64_t first, std::span<std::uint16_t> values, std::span<std::uint8_t> dont_care) const {
  if (!file_) return read_words(first, values, dont_care, wdl_, capture_, 0);
  if (!order_) return read_stored(first, values, dont_care);
  // Level by level: each slice's positions are one run in the file.
  const std::uint64_t kps = order_->kings_per_slice();
  for (std::size_t done = 0; done < values.size();) {
    const std::uint64_t i = first + done, slice = i / kps;
    const std::size_t n = static_cast<std::size_t>(std::min<std::uint64_t>(values.size() - done, (slice + 1) * kps - i));
    read_stored(order_->stored(i), values.subspan(done, n), dont_care.subspan(done, n));
    done += n;
  }
}

// Spilled values [first, first + values.size()) in storage order: their
// words by pread, so reading a whole table (the writer, the counts) never maps it.
void UnitValues::read_stored(std::uint64_t first, std::span<std::uint16_t> values,
                             std::span<std::uint8_t> dont_care) const {
  if (values.empty()) return;
  const std::uint64_t base = first / 64, end = (first + values.size() + 63) / 64;
  thread_local std::vector<std::uint64_t> wdl, capture;
  wdl.resize(2 * (end - base));
  capture.resize(end - base);
  const std::uint64_t wdl_words = std::min(wdl_words_, 2 * end) - 2 * base;
  file_->read(2 * base * 8, {reinterpret_cast<std::uint8_t*>(wdl.data()), wdl_words * 8});
  file_->read((wdl_words_ + base) * 8, {reinterpret_cast<std::uint8_t*>(capture.data()), (end - base) * 8});
  read_words(first, values, dont_care, wdl.data(), capture.data(), base);
}

namespace {

// The slices' positions as runs of consecutive storage positions: a level's
// slices, stored level by level, are one run.
template <class Visit>
void for_each_stored_run(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice,
                         const LevelOrder* order, Visit&& visit) {
  std::uint64_t first = 0, count = 0;
  for (const std::uint32_t s : slices) {
    const std::uint64_t start = order ? order->slice_start(s) : s * kings_per_slice;
    if (count > 0 && start == first + count) {
      count += kings_per_slice;
      continue;
    }
    if (count > 0) visit(first, count);
    first = start, count = kings_per_slice;
  }
  if (count > 0) visit(first, count);
}

}  // namespace

std::uint64_t UnitValues::hash_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice) const {
  const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  if (!state) throw std::bad_alloc();
  XXH3_64bits_reset(state.get());
  constexpr std::uint64_t kStep = std::uint64_t{1} << 16;
  std::vector<std::uint16_t> values(kStep);
  std::vector<std::uint8_t> flags(kStep);
  for_each_stored_run(slices, kings_per_slice, order_.get(), [&](std::uint64_t first, std::uint64_t count) {
    for (std::uint64_t at = first, end = first + count; at < end; at += kStep) {
      const std::size_t n = static_cast<std::size_t>(std::min(kStep, end - at));
      if (file_)
        read_stored(at, {values.data(), n}, {flags.data(), n});
      else
        read_words(at, {values.data(), n}, {flags.data(), n}, wdl_, capture_, 0);
      XXH3_64bits_update(state.get(), values.data(), n * sizeof(values[0]));
      XXH3_64bits_update(state.get(), flags.data(), n);
    }
  });
  return XXH3_64bits_digest(state.get());
}

void UnitValues::clear_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice) {
  for_each_stored_run(slices, kings_per_slice, order_.get(),
                      [&](std::uint64_t first, std::uint64_t count) { clear_stored(first, count); });
}

void UnitValues::clear_stored(std::uint64_t first, std::uint64_t count) {
  for (std::uint64_t i = first, end = first + count; i < end; ++i) {
    if ((i & 63) == 0 && end - i >= 64) {  // a whole word of each at once
      wdl_[i >> 5] = wdl_[(i >> 5) + 1] = capture_[i >> 6] = 0;
      i += 63;
      continue;
    }
    wdl_[i >> 5] &= ~(std::uint64_t{3} << ((i & 31) * 2));
    capture_[i >> 6] &= ~(std::uint64_t{1} << (i & 63));
  }
}

// A chunk at a time through read(), so spilled values come from their file
// without being mapped.
MaterialStats UnitValues::count(const Material& m) const {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;
  const auto chunks = static_cast<std::int64_t>((size_ + kChunk - 1) / kChunk);
  std::uint64_t by_value[2][3] = {};
#pragma omp parallel
  {
    std::uint64_t local[2][3] = {};
    std::vector<std::uint16_t> values(kChunk);
    std::vector<std::uint8_t> flags(kChunk);
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t c = 0; c < chunks; ++c) {
      const std::uint64_t first = static_cast<std::uint64_t>(c) * kChunk, n = std::min(kChunk, size_ - first);
      read(first, {values.data(), n}, {flags.data(), n});
      for (std::uint64_t k = 0; k < n; ++k) ++local[flags[k]][values[k]];
    }
#pragma omp critical(dtb_unit_values_count)
    for (int c = 0; c < 2; ++c)
      for (int v = 0; v < 3; ++v) by_value[c][v] += local[c][v];
  }
  return stats_of(m, size_, by_value);
}

}  // namespace dtb::gen
