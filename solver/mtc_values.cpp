#include "solver/mtc_values.h"

#include <xxhash.h>

#include <algorithm>
#include <atomic>
#include <memory>
#include <new>

#include "solver/table_loading.h"

namespace dtb::gen {

std::string mtc_scratch_path(const std::string& dir, const Material& m) { return dir + "/" + m.name() + ".mtc-work"; }

std::uint64_t MtcValues::hash_slices(std::span<const std::uint32_t> slices, std::uint64_t kings_per_slice) const {
  const std::unique_ptr<XXH3_state_t, decltype(&XXH3_freeState)> state(XXH3_createState(), &XXH3_freeState);
  if (!state) throw std::bad_alloc();
  XXH3_64bits_reset(state.get());
  for (const std::uint32_t s : slices) XXH3_64bits_update(state.get(), data_ + s * kings_per_slice, kings_per_slice);
  return XXH3_64bits_digest(state.get());
}

bool load_mtc_values(const std::string& dir, const Material& m, LargeArray<std::uint8_t>& out, std::string& failure,
                     TableKind kind) {
  std::unique_ptr<TableReader> reader;
  const std::string path = kind == TableKind::Article62 ? r62_table_path(dir, m) : mtc_table_path(dir, m);
  if (TableError e = open_checked_table(path, m, reader, kind)) {
    failure = e.message;
    return false;
  }
  out.resize(reader->positions());
  const auto blocks = static_cast<std::int64_t>(reader->block_count());
  const std::uint64_t drop_every = reader->blocks_between_page_drops();
  std::atomic<bool> failed{false};
  std::string message;
#pragma omp parallel for schedule(dynamic, 16)
  for (std::int64_t b = 0; b < blocks; ++b) {
    if ((static_cast<std::uint64_t>(b) + 1) % drop_every == 0) reader->drop_resident_pages();
    std::vector<std::uint8_t> bytes;
    if (TableError e = reader->decode_block_bytes(static_cast<std::uint64_t>(b), bytes)) {
      if (!failed.exchange(true))
#pragma omp critical(dtb_mtc_load)
        message = e.message;
      continue;
    }
    std::copy(bytes.begin(), bytes.end(), out.begin() + b * static_cast<std::int64_t>(reader->positions_per_block()));
  }
  if (failed) failure = message;
  return !failed;
}

}  // namespace dtb::gen
