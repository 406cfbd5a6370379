// Loading finished WDL tables from disk into memory (resume, verify, stats).
//
// On disk a position where the side to move must capture is "don't care": the
// writer stored whatever compressed best there. The generator, the verifier
// and the statistics need the TRUE value of every position, so the loader
// recomputes those by resolving the captures one ply: every capture leads to
// fewer pieces, i.e. to tables loaded earlier in build order (or takes the
// last opposing piece, which wins).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "solver/finished_values.h"
#include "solver/unit_values.h"
#include "index/material.h"
#include "index/position_index.h"
#include "rules/movegen.h"

namespace dtb::gen {

/// A loaded value, a byte a position: the WDL value (rules/value.h) in bits
/// 0-1, and kCaptureFlag when the side to move must capture (a position
/// "don't care" on disk, whose true value the loader resolves). What the
/// loader gives and the statistics count.
inline constexpr std::uint8_t kValueMask = 3;
inline constexpr std::uint8_t kCaptureFlag = 4;

/// `dir`/`name`.wdl
std::string wdl_table_path(const std::string& dir, const Material& m);
/// `dir`/`name`.mtc
std::string mtc_table_path(const std::string& dir, const Material& m);
/// `dir`/m.r62 (article62_builder.h).
std::string r62_table_path(const std::string& dir, const Material& m);

/// Open a table and check it fully before it is trusted: readable header of
/// kind `kind` for material `m` with exactly the index's number of positions,
/// and every block's checksum.
TableError open_checked_table(const std::string& path, const Material& m, std::unique_ptr<TableReader>& out,
                              TableKind kind = TableKind::Wdl);

/// Told the positions of each block as it is loaded, from any thread: a
/// 7-piece table takes minutes to load (every position is unranked and
/// tested for a capture), which a progress line must show.
using LoadProgress = std::function<void(std::uint64_t positions)>;

/// Decode every value of a checked table, one per position in index order, as
/// WDL | kCaptureFlag (above), with the true value of every capture
/// position resolved through `store`. A non-capture value outside 0..2 is a
/// DecodeError. Parallel (OpenMP).
TableError load_table_values(const TableReader& reader, const PositionIndex& index,
                             const FinishedValues& store, std::vector<std::uint8_t>& values,
                             const LoadProgress& progress = {});

/// The same, packed (3 bits a position): `values` must be zeroed, of the
/// index's size. What the verifier holds of a large table.
TableError load_table_values(const TableReader& reader, const PositionIndex& index,
                             const FinishedValues& store, UnitValues& values, const LoadProgress& progress = {});

/// The values as stored, packed (`values` zeroed, of the table's size), no
/// capture flag set: no position is unranked, so a capture position keeps
/// the writer's "don't care" (a value outside 0..2 read as a draw). Several
/// times faster than the load above; for a reader that tests each position it
/// looks up for a capture and resolves it then (finished_tables.h).
TableError load_stored_values(const TableReader& reader, UnitValues& values, const LoadProgress& progress = {});

/// The true value of a position that must capture: the best capture, each
/// successor's value taken from `store`. Shared by the solver, the loader
/// and the stats.
Wdl resolve_captures(const Position& p, const FinishedValues& store);
/// The same, generating into `list`: for a caller that may be reached from
/// inside the form above (a store that resolves a capture on lookup), whose
/// per-thread list it must not overwrite.
Wdl resolve_captures(const Position& p, const FinishedValues& store, MoveList& list);

}  // namespace dtb::gen
