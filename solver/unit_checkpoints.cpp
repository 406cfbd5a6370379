#include "solver/unit_checkpoints.h"

#include <xxhash.h>

#include <algorithm>
#include <filesystem>

namespace dtb::gen {
namespace {

std::span<std::uint8_t> bytes_of(std::vector<std::uint64_t>& words) {
  return {reinterpret_cast<std::uint8_t*>(words.data()), words.size() * sizeof(std::uint64_t)};
}

// A checkpoint counts on the scratch files' contents: they are made durable first.
bool sync(const ScratchFile* file, std::string& error) { return !file || file->sync(error); }

}  // namespace

// The pending flags and the trailing words of a round checkpoint, copied
// out of (or into) the solver's atomics and scratch files.
struct UnitCheckpoints::RoundBuffers {
  std::vector<std::vector<std::uint8_t>> flags;  // per table, per parity: a byte a chunk
  std::vector<std::uint64_t> words;              // per table with MTC in a file: its hash; then the work reported
};

UnitCheckpoints::UnitCheckpoints(std::string path, double seconds, const Material& m)
    : path_(std::move(path)), seconds_(seconds), material_(m), saved_at_(std::chrono::steady_clock::now()) {}

bool UnitCheckpoints::may_resume() const { return std::filesystem::exists(path_); }

bool UnitCheckpoints::due() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - saved_at_).count() >= seconds_;
}

// Per table: its values and capture flags, or for spilled values the hash
// of each finished level's; then its MTC, or for MTC in a file the hashes.
std::vector<std::span<std::uint8_t>> UnitCheckpoints::level_arrays(std::span<const CheckpointedTable> tables) {
  std::vector<std::span<std::uint8_t>> arrays;
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const CheckpointedTable& table = tables[t];
    if (table.values->file()) {
      arrays.push_back(bytes_of(value_hashes_[t]));
    } else {
      arrays.push_back(table.values->value_bytes());
      arrays.push_back(table.values->capture_bytes());
    }
    if (table.mtc && table.mtc->file())
      arrays.push_back(bytes_of(mtc_hashes_[t]));
    else if (table.mtc)
      arrays.push_back(table.mtc->bytes());
  }
  return arrays;
}

// Whether the scratch files still hold the values and MTC of the levels a
// checkpoint says are finished (those above next_level): a level cut short
// after the checkpoint writes only its own positions, so they should.
bool UnitCheckpoints::scratch_matches(int next_level, int levels, std::span<const CheckpointedTable> tables) const {
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const CheckpointedTable& table = tables[t];
    if (!table.values->file()) continue;
    for (int a = next_level + 1; a < levels; ++a)
      if (table.values->hash_slices(table.levels->level(a), table.kings_per_slice) !=
          value_hashes_[t][static_cast<std::size_t>(a)])
        return false;
  }
  for (std::size_t t = 0; t < tables.size(); ++t) {
    const CheckpointedTable& table = tables[t];
    if (!table.mtc || !table.mtc->file()) continue;
    for (int a = next_level + 1; a < levels; ++a) {
      const bool same = table.mtc->hash_slices(table.levels->level(a), table.kings_per_slice) ==
                        mtc_hashes_[t][static_cast<std::size_t>(a)];
      table.mtc->drop_resident_pages();  // the solve reads none of it again
      if (!same) return false;
    }
  }
  return true;
}

std::optional<LevelCheckpoint> UnitCheckpoints::resume_levels(int levels, std::span<const CheckpointedTable> tables) {
  value_hashes_.assign(tables.size(), {});
  mtc_hashes_.assign(tables.size(), {});
  for (std::size_t t = 0; t < tables.size(); ++t) {
    if (tables[t].values->file()) value_hashes_[t].assign(static_cast<std::size_t>(levels), 0);
    if (tables[t].mtc && tables[t].mtc->file()) mtc_hashes_[t].assign(static_cast<std::size_t>(levels), 0);
  }
  const auto at = load_level_checkpoint(path_, material_, level_arrays(tables));
  if (!at || at->next_level >= levels - 1 || !scratch_matches(at->next_level, levels, tables)) return std::nullopt;
  // Spilled values of the levels not finished may hold part of the
  // finalize an interruption cut short: those levels start from zero.
  for (const CheckpointedTable& table : tables)
    if (table.values->file())
      for (int a = 0; a <= at->next_level; ++a) table.values->clear_slices(table.levels->level(a), table.kings_per_slice);
  return at;
}

void UnitCheckpoints::level_finished(int a, std::span<const CheckpointedTable> tables) {
  for (std::size_t t = 0; t < tables.size() && t < value_hashes_.size(); ++t) {
    const CheckpointedTable& table = tables[t];
    const std::span<const std::uint32_t> slices = table.levels->level(a);
    if (!mtc_hashes_[t].empty())
      mtc_hashes_[t][static_cast<std::size_t>(a)] = table.mtc->hash_slices(slices, table.kings_per_slice);
    if (!value_hashes_[t].empty())
      value_hashes_[t][static_cast<std::size_t>(a)] = table.values->hash_slices(slices, table.kings_per_slice);
  }
}

bool UnitCheckpoints::save_levels(int next_level, int rounds, std::span<const CheckpointedTable> tables,
                                  std::string& error) {
  for (const CheckpointedTable& table : tables)
    if (!sync(table.mtc ? table.mtc->file() : nullptr, error) || !sync(table.values->file(), error)) return false;
  if (!save_level_checkpoint(path_, material_, {next_level, rounds}, level_arrays(tables), error)) return false;
  saved_at_ = std::chrono::steady_clock::now();
  return true;
}

// Per table: its working state, its pending flags of each parity, its MTC
// if in memory; then one array of words (RoundBuffers::words).
std::vector<std::span<std::uint8_t>> UnitCheckpoints::round_arrays(std::span<const RoundState> tables,
                                                                   RoundBuffers& b) const {
  std::vector<std::span<std::uint8_t>> arrays;
  b.flags.clear();
  std::size_t hashes = 0;
  for (const RoundState& table : tables) {
    for (const std::span<std::uint8_t> a : table.states) arrays.push_back(a);
    for (const auto& parity : *table.pending) {
      b.flags.emplace_back(parity.size());
      arrays.push_back(b.flags.back());
    }
    if (table.mtc && !table.mtc->file()) arrays.push_back(table.mtc->bytes());
    if (table.mtc && table.mtc->file()) ++hashes;
  }
  b.words.assign(hashes + 1, 0);
  arrays.push_back(bytes_of(b.words));
  return arrays;
}

// For each table with MTC in a scratch file, the XXH3 of the file's values
// at the positions already propagated: the only ones the file must still
// hold when a round checkpoint resumes (positions propagated after it are
// written again, with the same values, by the resumed solve). Read by pread
// in batches, so nothing stays resident.
void UnitCheckpoints::hash_propagated_mtc(std::span<const RoundState> tables, RoundBuffers& b) const {
  constexpr std::uint64_t kBatch = std::uint64_t{1} << 22;
  std::size_t k = 0;
  for (const RoundState& table : tables) {
    if (!table.mtc || !table.mtc->file()) continue;
    const std::uint64_t batches = (table.positions + kBatch - 1) / kBatch;
    std::vector<std::uint64_t> hashes(batches);
#pragma omp parallel for schedule(dynamic, 1)
    for (std::uint64_t c = 0; c < batches; ++c) {
      const std::uint64_t first = c * kBatch, n = std::min(kBatch, table.positions - first);
      std::vector<std::uint8_t> plies(n);
      table.mtc->read(first, plies);
      table.keep_propagated(first, plies);
      hashes[c] = XXH3_64bits(plies.data(), plies.size());
    }
    b.words[k++] = XXH3_64bits(hashes.data(), hashes.size() * sizeof(std::uint64_t));
  }
}

bool UnitCheckpoints::save_round(int next_round, std::span<const RoundState> tables, std::uint64_t reported_work,
                                 std::string& error) {
  RoundBuffers b;
  const std::vector<std::span<std::uint8_t>> arrays = round_arrays(tables, b);
  for (const RoundState& table : tables)
    if (!sync(table.mtc ? table.mtc->file() : nullptr, error)) return false;
  std::size_t f = 0;
  for (const RoundState& table : tables)
    for (const auto& parity : *table.pending) {
      for (std::size_t c = 0; c < parity.size(); ++c) b.flags[f][c] = parity[c].load(std::memory_order_relaxed);
      ++f;
    }
  hash_propagated_mtc(tables, b);
  b.words.back() = reported_work;
  if (!save_level_checkpoint(path_, material_, {0, next_round}, arrays, error)) return false;
  saved_at_ = std::chrono::steady_clock::now();
  return true;
}

std::optional<ResumedRound> UnitCheckpoints::resume_round(std::span<const RoundState> tables) {
  RoundBuffers b;
  const std::vector<std::span<std::uint8_t>> arrays = round_arrays(tables, b);
  const auto at = load_level_checkpoint(path_, material_, arrays);
  if (!at || at->next_level != 0 || at->rounds < 0) return std::nullopt;
  const std::vector<std::uint64_t> saved = b.words;
  hash_propagated_mtc(tables, b);
  if (!std::equal(saved.begin(), saved.end() - 1, b.words.begin())) return std::nullopt;  // not our scratch
  std::size_t f = 0;
  for (const RoundState& table : tables)
    for (auto& parity : *table.pending) {
      for (std::size_t c = 0; c < parity.size(); ++c) parity[c].store(b.flags[f][c] != 0, std::memory_order_relaxed);
      ++f;
    }
  for (const RoundState& table : tables)
    if (table.mtc) table.mtc->drop_resident_pages();
  return ResumedRound{at->rounds, saved.back()};
}

}  // namespace dtb::gen
