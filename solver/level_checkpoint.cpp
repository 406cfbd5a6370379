#include "solver/level_checkpoint.h"

#include <xxhash.h>

#include <cstdio>
#include <memory>

#include "compress/atomic_file.h"

namespace dtb::gen {
namespace {

constexpr char kMagic[8] = {'D', 'T', 'B', 'L', 'E', 'V', 'E', 'L'};
constexpr std::uint32_t kVersion = 1;
constexpr std::size_t kNameBytes = 16;

void put32(std::vector<std::uint8_t>& out, std::uint32_t v) {
  for (int k = 0; k < 4; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
void put64(std::vector<std::uint8_t>& out, std::uint64_t v) {
  for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(v >> (8 * k)));
}
std::uint64_t get(const std::uint8_t* p, int bytes) {
  std::uint64_t v = 0;
  for (int k = 0; k < bytes; ++k) v |= std::uint64_t{p[k]} << (8 * k);
  return v;
}

std::vector<std::uint8_t> header(const Material& m, const LevelCheckpoint& at,
                                 const std::vector<std::span<std::uint8_t>>& arrays) {
  std::vector<std::uint8_t> h(kMagic, kMagic + sizeof kMagic);
  put32(h, kVersion);
  std::string name = m.name();
  name.resize(kNameBytes, '\0');
  h.insert(h.end(), name.begin(), name.end());
  put32(h, static_cast<std::uint32_t>(at.next_level));
  put32(h, static_cast<std::uint32_t>(at.rounds));
  put32(h, static_cast<std::uint32_t>(arrays.size()));
  for (const auto& a : arrays) put64(h, a.size());
  return h;
}

struct StateFree {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};
struct FileClose {
  void operator()(std::FILE* f) const { std::fclose(f); }
};

}  // namespace

std::string level_checkpoint_path(const std::string& dir, const Material& m) { return dir + "/" + m.name() + ".level"; }

bool save_level_checkpoint(const std::string& path, const Material& m, const LevelCheckpoint& at,
                           const std::vector<std::span<std::uint8_t>>& arrays, std::string& error) {
  const std::vector<std::uint8_t> head = header(m, at, arrays);
  std::unique_ptr<XXH3_state_t, StateFree> state(XXH3_createState());
  XXH3_64bits_reset(state.get());
  XXH3_64bits_update(state.get(), head.data(), head.size());
  for (const auto& a : arrays) XXH3_64bits_update(state.get(), a.data(), a.size());
  std::vector<std::uint8_t> tail;
  put64(tail, XXH3_64bits_digest(state.get()));
  std::vector<std::span<const std::uint8_t>> parts = {head};
  for (const auto& a : arrays) parts.emplace_back(a);
  parts.emplace_back(tail);
  if (TableError e = write_file_atomically(path, parts)) {
    error = "saving the level checkpoint: " + e.message;
    return false;
  }
  return true;
}

std::optional<LevelCheckpoint> load_level_checkpoint(const std::string& path, const Material& m,
                                                     const std::vector<std::span<std::uint8_t>>& arrays) {
  std::unique_ptr<std::FILE, FileClose> file(std::fopen(path.c_str(), "rb"));
  if (!file) return std::nullopt;
  // The header we would write for these arrays, with the level fields read back.
  std::vector<std::uint8_t> head(header(m, {}, arrays).size());
  if (std::fread(head.data(), 1, head.size(), file.get()) != head.size()) return std::nullopt;
  LevelCheckpoint at;
  const std::size_t level_at = sizeof kMagic + 4 + kNameBytes;
  at.next_level = static_cast<int>(static_cast<std::int32_t>(get(&head[level_at], 4)));
  at.rounds = static_cast<int>(static_cast<std::int32_t>(get(&head[level_at + 4], 4)));
  if (head != header(m, at, arrays) || at.next_level < 0) return std::nullopt;
  std::unique_ptr<XXH3_state_t, StateFree> state(XXH3_createState());
  XXH3_64bits_reset(state.get());
  XXH3_64bits_update(state.get(), head.data(), head.size());
  for (const auto& a : arrays) {
    if (std::fread(a.data(), 1, a.size(), file.get()) != a.size()) return std::nullopt;
    XXH3_64bits_update(state.get(), a.data(), a.size());
  }
  std::uint8_t tail[8];
  if (std::fread(tail, 1, sizeof tail, file.get()) != sizeof tail || std::fgetc(file.get()) != EOF) return std::nullopt;
  if (get(tail, 8) != XXH3_64bits_digest(state.get())) return std::nullopt;
  return at;
}

}  // namespace dtb::gen
