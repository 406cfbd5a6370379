// A part of one level of a unit, as a distributed build hands it to a worker
// and gets it back (every slice solved by exactly one rank).
//
// Why parts: inside a level only kings move, and a king move keeps the men
// where they are, so a slice and its colour reversal in the unit's other
// table form a closed pair: no move of the level leaves it
// (solver/slice_order.h). Any set of such pairs can be solved alone, given the
// values of level + 1 that its man moves reach (solver/slice_order.h,
// man_move_slices) and the finished tables that its captures and promotions
// reach (the worker has those files). So rank 0 cuts each level into parts,
// sends each with the values it reads, and puts the returned values in place.
//
// Wire format (little-endian; one message each way), zstd-compressed: the
// raw size u64, then one magicless zstd frame of the raw message. A task is
//   name length u8, unit name, level u32, tables u8, then per table: count
//   u32 and that many slice numbers u32; then inputs u32 and that many slices,
//   then claimed u32 and that many slices (a check task; 0 for a solve);
// a result is
//   name length u8, unit name, level u32, rounds u32, solve microseconds u64,
//   the part's checksum (XXH3 of its values u64, of its MTC u64),
//   slices u32 and that many slices;
// a slice is table u8, slice u32, positions u64, the WDL and capture flag of
// each position as a nibble (value | capture << 2, two positions a byte, low
// nibble first), then a u8 (1 if MTC follows) and a byte a position of MTC.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "solver/mtc_values.h"
#include "solver/unit_values.h"
#include "index/material.h"

namespace dtb::cluster {

/// The values of one slice of one table of a unit.
struct SliceValues {
  std::uint8_t table = 0;         // 0: the unit's first material, 1: its colour reversal
  std::uint32_t slice = 0;
  std::uint64_t positions = 0;    // kings per slice of that table
  std::vector<std::uint8_t> wdl;  // value | capture << 2, two positions a byte
  std::vector<std::uint8_t> mtc;  // a byte a position, or empty
};

struct SliceTask {
  Material unit;
  int level = 0;
  std::vector<std::vector<std::uint32_t>> slices;  // per table of the unit, sorted
  std::vector<SliceValues> inputs;                  // of level + 1, what the part reads
  // A check task (kAssignCheck): the part's values as another worker solved
  // them, to be checked against their successors (verify_part_in_memory)
  // rather than solved. Empty for a solve.
  std::vector<SliceValues> claimed;
};

/// What a part's values are, end to end: the worker hashes them as it solved
/// them, in its own arrays; rank 0 hashes them again once they are in place
/// in the unit's arrays, at the slices it handed out. So a value damaged on
/// the way, a slice placed at another slice's offset or OR-ed over values
/// already there, or a part returned with other slices than it was given,
/// all show as a difference (the file stream's XXH3, mpi_link.h, covers only
/// the bytes on the wire).
struct PartChecksum {
  std::uint64_t values = 0;  // XXH3 of the value and capture nibbles
  std::uint64_t mtc = 0;     // XXH3 of the MTC bytes (0 without MTC)
  bool operator==(const PartChecksum&) const = default;
};

struct SliceResult {
  Material unit;
  int level = 0;
  int rounds = 0;          // the part's largest MTC + 1
  double seconds = 0;      // the worker's solve time
  std::vector<SliceValues> values;
  PartChecksum checksum;   // of the part as the worker solved it
};

std::vector<std::uint8_t> encode(const SliceTask& task);
std::vector<std::uint8_t> encode(const SliceResult& result);
/// nullopt with `error` set if the bytes are not a well-formed message.
std::optional<SliceTask> decode_task(std::span<const std::uint8_t> bytes, std::string& error);
std::optional<SliceResult> decode_result(std::span<const std::uint8_t> bytes, std::string& error);

/// Slice `slice` of `values` (a table of kings_per_slice positions a slice),
/// with its MTC if `mtc` is given.
SliceValues read_slice(const gen::UnitValues& values, const gen::MtcValues* mtc, std::uint8_t table,
                       std::uint32_t slice, std::uint64_t kings_per_slice);

/// The checksum of the part `slices` (per table of the unit, in the order
/// given) as its values stand in `values` and, if given (one per table),
/// `mtc`: per slice its table, number and nibbles as read_slice packs them,
/// and its MTC bytes.
PartChecksum part_checksum(const std::vector<const gen::UnitValues*>& values,
                           const std::vector<const gen::MtcValues*>& mtc,
                           const std::vector<std::vector<std::uint32_t>>& slices,
                           const std::vector<std::uint64_t>& kings_per_slice);

/// Store `s` into `values` (whose words there must be zero: an OR, like the
/// solver's, solver/unit_values.h) and its MTC into `mtc` if both are there.
/// False if the slice does not fit the table.
bool write_slice(const SliceValues& s, gen::UnitValues& values, gen::MtcValues* mtc, std::uint64_t kings_per_slice);

}  // namespace dtb::cluster
