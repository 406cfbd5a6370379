#include "solver/table_loading.h"

#include <algorithm>
#include <atomic>

#include "index/position_walker.h"
#include "probe/capture_check.h"
#include "rules/movegen.h"
#include "support/interrupt.h"

namespace dtb::gen {

std::string wdl_table_path(const std::string& dir, const Material& m) {
  return dir + "/" + m.name() + table_extension(TableKind::Wdl);
}

std::string mtc_table_path(const std::string& dir, const Material& m) {
  return dir + "/" + m.name() + table_extension(TableKind::Mtc);
}

std::string r62_table_path(const std::string& dir, const Material& m) {
  return dir + "/" + m.name() + table_extension(TableKind::Article62);
}

TableError open_checked_table(const std::string& path, const Material& m, std::unique_ptr<TableReader>& out,
                              TableKind kind) {
  TableError error;
  out = TableReader::open(path, &error);
  if (!out) return error;
  const PositionIndex index(m);
  auto bad = [&](const std::string& what) {
    out.reset();
    return TableError{TableStatus::BadHeader, path + ": " + what};
  };
  if (out->material() != m) return bad("holds material " + out->material().name() + ", not " + m.name());
  if (out->kind() != kind) return bad(std::string("is not a ") + table_extension(kind) + " table");
  if (out->positions() != index.size())
    return bad("has " + std::to_string(out->positions()) + " positions, the index has " +
               std::to_string(index.size()));
  if (TableError e = out->verify_all()) {
    out.reset();
    return e;
  }
  return {};
}

Wdl resolve_captures(const Position& p, const FinishedValues& store) {
  // thread_local: one 16 KB list a thread, not one a call on the loader's hot path.
  thread_local MoveList list;
  return resolve_captures(p, store, list);
}

Wdl resolve_captures(const Position& p, const FinishedValues& store, MoveList& list) {
  if (popcount(p.pieces(opposite(p.side))) == 1) return Wdl::Win;  // any capture takes the last piece
  generate_moves(p, list);
  Wdl best = Wdl::Loss;
  for (const Move& m : list) {
    best = std::max(best, negate(store.value(make_move(p, m))));
    if (best == Wdl::Win) break;  // nothing beats it: skip the other successors' lookups
  }
  return best;
}

namespace {

// Decodes every block in parallel, turns each into value bytes with
// `translate(first_index, stored, bytes)` (which may fail) and hands them to
// `sink(first_index, bytes)`.
template <class Translate, class Sink>
TableError decode_blocks(const TableReader& reader, const LoadProgress& progress, Translate&& translate,
                         Sink&& sink) {
  const std::int64_t blocks = static_cast<std::int64_t>(reader.block_count());
  const std::uint64_t per_block = reader.positions_per_block();
  const std::uint64_t drop_every = reader.blocks_between_page_drops();
  std::atomic<std::int64_t> first_bad{-1};
  TableError error;
#pragma omp parallel
  {
    std::vector<std::uint16_t> block;
    std::vector<std::uint8_t> values;
#pragma omp for schedule(dynamic, 1)
    for (std::int64_t b = 0; b < blocks; ++b) {
      if (first_bad.load() >= 0) continue;
      // (a 7-piece table takes minutes to load: a stop must not wait for it)
      TableError e = interrupt_requested() ? TableError{TableStatus::Interrupted, "interrupted"}
                                           : reader.decode_block(static_cast<std::uint64_t>(b), block);
      const std::uint64_t first = static_cast<std::uint64_t>(b) * per_block;
      values.assign(block.size(), 0);
      if (!e) e = translate(first, block, values);
      if (!e) sink(first, values);
      if (!e && progress) progress(block.size());
      if ((static_cast<std::uint64_t>(b) + 1) % drop_every == 0) reader.drop_resident_pages();
      if (e) {
        std::int64_t expected = -1;
        if (first_bad.compare_exchange_strong(expected, b)) {
#pragma omp critical(dtb_load_error)
          error = e;
        }
      }
    }
  }
  return error;
}

// WDL | kCaptureFlag bytes, capture positions resolved through `store`.
template <class Sink>
TableError decode_values(const TableReader& reader, const PositionIndex& index, const FinishedValues& store,
                         const LoadProgress& progress, Sink&& sink) {
  const auto resolve = [&](std::uint64_t first, const std::vector<std::uint16_t>& block,
                           std::vector<std::uint8_t>& values) -> TableError {
    // A block is consecutive indexes: unrank once a slice, step within it.
    PositionWalker walker(index);
    const std::uint64_t kings_per_slice = index.kings_per_slice();
    std::uint64_t left_in_slice = 0;  // positions of the walker's slice after the current one
    for (std::size_t k = 0; k < block.size(); ++k) {
      const std::uint64_t i = first + k;
      if (left_in_slice == 0) {
        walker.seek(i);
        left_in_slice = kings_per_slice - i % kings_per_slice;
      } else {
        walker.next();
      }
      --left_in_slice;
      const Position& p = walker.position();
      if (probe::must_capture(p)) {  // the fast form of has_capture (cross-checked in tests/probe)
        values[k] = static_cast<std::uint8_t>(static_cast<std::uint8_t>(resolve_captures(p, store)) | kCaptureFlag);
      } else if (block[k] > 2) {
        return TableError{TableStatus::DecodeError,
                          "value " + std::to_string(block[k]) + " out of range at index " + std::to_string(i)};
      } else {
        values[k] = static_cast<std::uint8_t>(block[k]);
      }
    }
    return {};
  };
  return decode_blocks(reader, progress, resolve, sink);
}

}  // namespace

TableError load_table_values(const TableReader& reader, const PositionIndex& index,
                             const FinishedValues& store, std::vector<std::uint8_t>& values,
                             const LoadProgress& progress) {
  values.assign(index.size(), 0);
  return decode_values(reader, index, store, progress, [&](std::uint64_t first, const std::vector<std::uint8_t>& block) {
    std::copy(block.begin(), block.end(), values.begin() + static_cast<std::ptrdiff_t>(first));
  });
}

TableError load_table_values(const TableReader& reader, const PositionIndex& index,
                             const FinishedValues& store, UnitValues& values, const LoadProgress& progress) {
  return decode_values(reader, index, store, progress, [&](std::uint64_t first, const std::vector<std::uint8_t>& block) {
    UnitValues::Appender append(values);
    for (std::size_t k = 0; k < block.size(); ++k)
      append.set(first + k, static_cast<Wdl>(block[k] & kValueMask), (block[k] & kCaptureFlag) != 0);
  });
}

TableError load_stored_values(const TableReader& reader, UnitValues& values, const LoadProgress& progress) {
  // A value outside 0..2 can only be a capture position's "don't care" (the
  // block checksums rule out damage, and the verifier a writer's mistake):
  // any in-range value will do there, as no lookup reads it.
  const auto keep_in_range = [](std::uint64_t, const std::vector<std::uint16_t>& block,
                                std::vector<std::uint8_t>& bytes) -> TableError {
    for (std::size_t k = 0; k < block.size(); ++k)
      bytes[k] = static_cast<std::uint8_t>(block[k] > 2 ? static_cast<std::uint16_t>(Wdl::Draw) : block[k]);
    return {};
  };
  return decode_blocks(reader, progress, keep_in_range, [&](std::uint64_t first, const std::vector<std::uint8_t>& block) {
    UnitValues::Appender append(values);
    for (std::size_t k = 0; k < block.size(); ++k) append.set(first + k, static_cast<Wdl>(block[k]), false);
  });
}

}  // namespace dtb::gen
