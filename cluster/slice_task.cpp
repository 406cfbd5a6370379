#include "cluster/slice_task.h"

#include <xxhash.h>

#include <memory>
#include <new>
#include <stdexcept>

#include "compress/block_codec.h"

namespace dtb::cluster {
namespace {

// Messages travel zstd-compressed (level 1: a part's values compress about
// tenfold, which is most of what a build sends, and level 1 runs far faster
// than a network): the raw size as u64, then one magicless zstd frame
// (compress/block_codec.h). A raw message is at most kMaxRawBytes, so a
// damaged size cannot ask for an absurd buffer.
constexpr std::uint64_t kMaxRawBytes = std::uint64_t{1} << 34;

std::vector<std::uint8_t> pack(const std::vector<std::uint8_t>& raw) {
  block_codec::Compressor compressor(1, {});
  std::vector<std::uint8_t> frame;
  std::string error;
  if (!compressor.ok() || !compressor.compress(raw, frame, &error))
    throw std::runtime_error("cannot compress a part message: " + (error.empty() ? "no zstd context" : error));
  std::vector<std::uint8_t> out;
  out.reserve(8 + frame.size());
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(raw.size() >> (8 * k)));
  out.insert(out.end(), frame.begin(), frame.end());
  return out;
}

std::optional<std::vector<std::uint8_t>> unpack(std::span<const std::uint8_t> bytes, const char* what,
                                                std::string& error) {
  error = std::string("a malformed ") + what + " message";
  if (bytes.size() < 8) return std::nullopt;
  std::uint64_t size = 0;
  for (int k = 0; k < 8; ++k) size |= std::uint64_t{bytes[static_cast<std::size_t>(k)]} << (8 * k);
  if (size > kMaxRawBytes) return std::nullopt;
  std::vector<std::uint8_t> raw(size);
  std::size_t got = 0;
  std::string why;
  if (block_codec::decompress(nullptr, bytes.subspan(8), raw.data(), raw.size(), &got, &why) !=
          block_codec::DecompressResult::Ok ||
      got != size)
    return std::nullopt;
  error.clear();
  return raw;
}

class Writer {
 public:
  void u8(std::uint64_t v) { out_.push_back(static_cast<std::uint8_t>(v)); }
  void u32(std::uint64_t v) { put(v, 4); }
  void u64(std::uint64_t v) { put(v, 8); }
  void bytes(std::span<const std::uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void name(const Material& m) {
    const std::string n = m.name();
    u8(n.size());
    out_.insert(out_.end(), n.begin(), n.end());
  }
  void slice(const SliceValues& s) {
    u8(s.table);
    u32(s.slice);
    u64(s.positions);
    bytes(s.wdl);
    u8(s.mtc.empty() ? 0 : 1);
    bytes(s.mtc);
  }
  std::vector<std::uint8_t> take() { return std::move(out_); }

 private:
  void put(std::uint64_t v, int n) {
    for (int k = 0; k < n; ++k) out_.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
  }
  std::vector<std::uint8_t> out_;
};

// Reads fields in order; the first read past the end (or a bad field) sets
// `failed` and every later read returns zeros, so callers check once at the
// end.
class Reader {
 public:
  explicit Reader(std::span<const std::uint8_t> b) : b_(b) {}
  bool failed() const { return failed_; }
  bool at_end() const { return at_ == b_.size(); }
  std::uint64_t u8() { return get(1); }
  std::uint64_t u32() { return get(4); }
  std::uint64_t u64() { return get(8); }
  std::vector<std::uint8_t> bytes(std::uint64_t n) {
    if (failed_ || n > b_.size() - at_) {
      failed_ = true;
      return {};
    }
    std::vector<std::uint8_t> out(b_.begin() + static_cast<std::ptrdiff_t>(at_),
                                  b_.begin() + static_cast<std::ptrdiff_t>(at_ + n));
    at_ += n;
    return out;
  }
  Material name() {
    const std::vector<std::uint8_t> n = bytes(u8());
    const auto m = parse_material(std::string(n.begin(), n.end()));
    if (!m) failed_ = true;
    return m.value_or(Material{});
  }
  SliceValues slice() {
    SliceValues s;
    s.table = static_cast<std::uint8_t>(u8());
    s.slice = static_cast<std::uint32_t>(u32());
    s.positions = u64();
    s.wdl = bytes((s.positions + 1) / 2);
    if (u8() == 1) s.mtc = bytes(s.positions);
    return s;
  }
  // A count of items of at least `least_bytes` each: no more than the bytes
  // left allow.
  std::uint64_t count(std::uint64_t least_bytes) {
    const std::uint64_t n = u32();
    if (failed_ || n > (b_.size() - at_) / least_bytes) failed_ = true;
    return failed_ ? 0 : n;
  }

 private:
  std::uint64_t get(int n) {
    if (failed_ || static_cast<std::size_t>(n) > b_.size() - at_) {
      failed_ = true;
      return 0;
    }
    std::uint64_t v = 0;
    for (int k = 0; k < n; ++k) v |= std::uint64_t{b_[at_ + static_cast<std::size_t>(k)]} << (8 * k);
    at_ += static_cast<std::size_t>(n);
    return v;
  }
  std::span<const std::uint8_t> b_;
  std::size_t at_ = 0;
  bool failed_ = false;
};

constexpr std::uint64_t kSliceHeaderBytes = 1 + 4 + 8 + 1;

template <class T>
std::optional<T> finish(const Reader& in, T value, const char* what, std::string& error) {
  if (in.failed() || !in.at_end()) {
    error = std::string("a malformed ") + what + " message";
    return std::nullopt;
  }
  return value;
}

}  // namespace

std::vector<std::uint8_t> encode(const SliceTask& task) {
  Writer out;
  out.name(task.unit);
  out.u32(static_cast<std::uint64_t>(task.level));
  out.u8(task.slices.size());
  for (const auto& list : task.slices) {
    out.u32(list.size());
    for (const std::uint32_t s : list) out.u32(s);
  }
  out.u32(task.inputs.size());
  for (const SliceValues& s : task.inputs) out.slice(s);
  out.u32(task.claimed.size());
  for (const SliceValues& s : task.claimed) out.slice(s);
  return pack(out.take());
}

std::vector<std::uint8_t> encode(const SliceResult& result) {
  Writer out;
  out.name(result.unit);
  out.u32(static_cast<std::uint64_t>(result.level));
  out.u32(static_cast<std::uint64_t>(result.rounds));
  out.u64(static_cast<std::uint64_t>(result.seconds * 1e6));
  out.u64(result.checksum.values);
  out.u64(result.checksum.mtc);
  out.u32(result.values.size());
  for (const SliceValues& s : result.values) out.slice(s);
  return pack(out.take());
}

std::optional<SliceTask> decode_task(std::span<const std::uint8_t> bytes, std::string& error) {
  const auto raw = unpack(bytes, "task", error);
  if (!raw) return std::nullopt;
  Reader in(*raw);
  SliceTask task;
  task.unit = in.name();
  task.level = static_cast<int>(in.u32());
  task.slices.resize(in.u8());
  for (auto& list : task.slices) {
    list.resize(in.count(4));
    for (std::uint32_t& s : list) s = static_cast<std::uint32_t>(in.u32());
  }
  task.inputs.resize(in.count(kSliceHeaderBytes));
  for (SliceValues& s : task.inputs) s = in.slice();
  task.claimed.resize(in.count(kSliceHeaderBytes));
  for (SliceValues& s : task.claimed) s = in.slice();
  return finish(in, std::move(task), "task", error);
}

std::optional<SliceResult> decode_result(std::span<const std::uint8_t> bytes, std::string& error) {
  const auto raw = unpack(bytes, "result", error);
  if (!raw) return std::nullopt;
  Reader in(*raw);
  SliceResult result;
  result.unit = in.name();
  result.level = static_cast<int>(in.u32());
  result.rounds = static_cast<int>(in.u32());
  result.seconds = static_cast<double>(in.u64()) / 1e6;
  result.checksum.values = in.u64();
  result.checksum.mtc = in.u64();
  result.values.resize(in.count(kSliceHeaderBytes));
  for (SliceValues& s : result.values) s = in.slice();
  return finish(in, std::move(result), "result", error);
}

SliceValues read_slice(const gen::UnitValues& values, const gen::MtcValues* mtc, std::uint8_t table,
                       std::uint32_t slice, std::uint64_t kings_per_slice) {
  SliceValues s{table, slice, kings_per_slice, std::vector<std::uint8_t>((kings_per_slice + 1) / 2), {}};
  const std::uint64_t first = std::uint64_t{slice} * kings_per_slice;
  for (std::uint64_t k = 0; k < kings_per_slice; ++k) {
    const auto nibble = static_cast<std::uint8_t>(static_cast<unsigned>(values.value(first + k)) |
                                                  (values.capture(first + k) ? 4u : 0u));
    s.wdl[k / 2] = static_cast<std::uint8_t>(s.wdl[k / 2] | (nibble << (4 * (k & 1))));
  }
  if (mtc) {
    s.mtc.resize(kings_per_slice);
    for (std::uint64_t k = 0; k < kings_per_slice; ++k) s.mtc[k] = static_cast<std::uint8_t>(mtc->get(first + k));
  }
  return s;
}

namespace {

struct HashStateFree {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

class Hash {
 public:
  Hash() : state_(XXH3_createState()) {
    if (!state_) throw std::bad_alloc();
    XXH3_64bits_reset(state_.get());
  }
  void update(std::span<const std::uint8_t> bytes) { XXH3_64bits_update(state_.get(), bytes.data(), bytes.size()); }
  // A slice's place, so that the same values at another slice hash differently.
  void place(std::uint8_t table, std::uint32_t slice) {
    const std::uint8_t where[5] = {table, static_cast<std::uint8_t>(slice), static_cast<std::uint8_t>(slice >> 8),
                                   static_cast<std::uint8_t>(slice >> 16), static_cast<std::uint8_t>(slice >> 24)};
    update(where);
  }
  std::uint64_t digest() const { return XXH3_64bits_digest(state_.get()); }

 private:
  std::unique_ptr<XXH3_state_t, HashStateFree> state_;
};

}  // namespace

PartChecksum part_checksum(const std::vector<const gen::UnitValues*>& values,
                           const std::vector<const gen::MtcValues*>& mtc,
                           const std::vector<std::vector<std::uint32_t>>& slices,
                           const std::vector<std::uint64_t>& kings_per_slice) {
  Hash value_hash, mtc_hash;
  for (std::size_t t = 0; t < slices.size(); ++t)
    for (const std::uint32_t slice : slices[t]) {
      const auto table = static_cast<std::uint8_t>(t);
      const SliceValues s = read_slice(*values.at(t), mtc.empty() ? nullptr : mtc.at(t), table, slice,
                                       kings_per_slice.at(t));
      value_hash.place(table, slice);
      value_hash.update(s.wdl);
      mtc_hash.place(table, slice);
      mtc_hash.update(s.mtc);
    }
  return {value_hash.digest(), mtc.empty() ? 0 : mtc_hash.digest()};
}

bool write_slice(const SliceValues& s, gen::UnitValues& values, gen::MtcValues* mtc, std::uint64_t kings_per_slice) {
  const std::uint64_t first = std::uint64_t{s.slice} * kings_per_slice;
  if (s.positions != kings_per_slice || first + kings_per_slice > values.size() ||
      s.wdl.size() != (kings_per_slice + 1) / 2 || (!s.mtc.empty() && s.mtc.size() != kings_per_slice))
    return false;
  {
    gen::UnitValues::Appender out(values);
    for (std::uint64_t k = 0; k < kings_per_slice; ++k) {
      const unsigned nibble = (s.wdl[k / 2] >> (4 * (k & 1))) & 15u;
      if ((nibble & 3) > 2) return false;
      out.set(first + k, static_cast<Wdl>(nibble & 3), (nibble & 4) != 0);
    }
  }
  if (mtc && !s.mtc.empty())
    for (std::uint64_t k = 0; k < kings_per_slice; ++k) mtc->set(first + k, s.mtc[k]);
  return true;
}

}  // namespace dtb::cluster
