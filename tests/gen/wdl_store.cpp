#include "tests/gen/wdl_store.h"

#include <algorithm>
#include <stdexcept>

namespace dtb::gen {

PackedWdl::PackedWdl(std::span<const std::uint8_t> values)
    : words_((values.size() + 31) / 32), size_(values.size()) {
  const std::int64_t words = static_cast<std::int64_t>(words_.size());
#pragma omp parallel for schedule(static)  // each word is built by one thread
  for (std::int64_t w = 0; w < words; ++w) {
    const std::uint64_t first = static_cast<std::uint64_t>(w) * 32;
    const std::uint64_t end = std::min<std::uint64_t>(size_, first + 32);
    std::uint64_t word = 0;
    for (std::uint64_t i = first; i < end; ++i)
      word |= static_cast<std::uint64_t>(values[i] & kValueMask) << ((i & 31) * 2);
    words_[static_cast<std::size_t>(w)] = word;
  }
}

WdlStore::WdlStore() = default;
WdlStore::~WdlStore() = default;

int WdlStore::slot(const Material& m) {
  if (m.white_kings > 7 || m.white_men > 7 || m.black_kings > 7 || m.black_men > 7) return -1;
  return ((m.white_kings * 8 + m.white_men) * 8 + m.black_kings) * 8 + m.black_men;
}

const WdlStore::Entry* WdlStore::entry(const Material& m) const {
  const int s = slot(m);
  return s < 0 ? nullptr : entries_[static_cast<std::size_t>(s)].get();
}

void WdlStore::add(const Material& m, std::span<const std::uint8_t> values) {
  const int s = slot(m);
  if (s < 0) throw std::invalid_argument("material " + m.name() + " has too many pieces");
  PositionIndex index(m);
  if (values.size() != index.size())
    throw std::invalid_argument("table " + m.name() + ": wrong number of values");
  auto e = std::make_unique<Entry>(Entry{std::move(index), PackedWdl(values)});
  memory_bytes_ += (values.size() + 31) / 32 * 8;
  entries_[static_cast<std::size_t>(s)] = std::move(e);
}

const PositionIndex& WdlStore::index(const Material& m) const {
  const Entry* e = entry(m);
  if (!e) throw std::logic_error("table " + m.name() + " is not loaded");
  return e->index;
}

void WdlStore::add(const Material& m, const UnitValues& values) {
  std::vector<std::uint8_t> bytes(values.size());
  const std::int64_t n = static_cast<std::int64_t>(values.size());
#pragma omp parallel for schedule(static)
  for (std::int64_t k = 0; k < n; ++k) {
    const auto i = static_cast<std::uint64_t>(k);
    bytes[i] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(values.value(i)) |
                                         (values.capture(i) ? kCaptureFlag : 0));
  }
  add(m, bytes);
}

Wdl WdlStore::value_at(const Material& m, std::uint64_t i) const {
  const Entry* e = entry(m);
  if (!e) throw std::logic_error("table " + m.name() + " is not loaded");
  return e->values.get(i);
}

Wdl WdlStore::value(const Position& p) const {
  if (p.pieces(p.side) == 0) return Wdl::Loss;  // 7.2: no pieces left
  // Tables hold White to move; Black to move is the colour reversal.
  const Position w = p.side == Color::White ? p : colour_reversed(p);
  const Material m = material_of(w);
  const Entry* e = entry(m);
  if (!e) throw std::logic_error("table " + m.name() + " is needed but not loaded");
  return e->values.get(e->index.rank(w));
}

}  // namespace dtb::gen
