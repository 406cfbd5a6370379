// The on-disk layout of a table file, byte by byte (compress/FORMAT.md).
//
//   [header, 64 bytes][block table, 16 or 6 bytes per block][dictionary][blocks]
//
// The structs below are views of the bytes, made only of byte arrays so that
// the compiler can add no padding and the host's endianness never matters:
// fields are read and written with dtb::le::load/store. The static_asserts pin
// the layout that FORMAT.md documents; changing one is a format change.
#pragma once

#include <cstddef>
#include <cstdint>

namespace dtb::layout {

inline constexpr std::uint8_t kMagic[8] = {'D', 'T', 'B', 'T', 'A', 'B', 'L', 'E'};
// Version 1: the wide block table (RawBlockEntry). Version 2: the same file
// with the compact block table (RawCompactBlockEntry); nothing else differs.
inline constexpr std::uint16_t kFormatVersion = 1;
inline constexpr std::uint16_t kCompactFormatVersion = 2;

struct RawHeader {
  std::uint8_t magic[8];                // "DTBTABLE"
  std::uint8_t format_version[2];       // kFormatVersion
  std::uint8_t kind;                    // TableKind
  std::uint8_t packing;                 // Packing
  std::uint8_t material[4];             // white kings, white men, black kings, black men
  std::uint8_t index_scheme_version[2]; // kIndexSchemeVersion
  std::uint8_t max_value[2];            // largest stored value
  std::uint8_t positions_per_block[4];  // values per block (the last block may hold fewer)
  std::uint8_t positions[8];            // number of values
  std::uint8_t block_count[8];          // ceil(positions / positions_per_block)
  std::uint8_t dictionary_bytes[4];     // size of the embedded zstd dictionary (0: none)
  std::uint8_t reserved[4];             // zero
  std::uint8_t table_checksum[8];       // XXH3-64 of the block table followed by the dictionary
  std::uint8_t header_checksum[8];      // XXH3-64 of bytes 0..55
};
static_assert(sizeof(RawHeader) == 64 && alignof(RawHeader) == 1);
static_assert(offsetof(RawHeader, format_version) == 8);
static_assert(offsetof(RawHeader, material) == 12);
static_assert(offsetof(RawHeader, positions_per_block) == 20);
static_assert(offsetof(RawHeader, positions) == 24);
static_assert(offsetof(RawHeader, block_count) == 32);
static_assert(offsetof(RawHeader, dictionary_bytes) == 40);
static_assert(offsetof(RawHeader, table_checksum) == 48);
static_assert(offsetof(RawHeader, header_checksum) == 56);
inline constexpr std::size_t kHeaderChecksummedBytes = offsetof(RawHeader, header_checksum);

/// One entry per block. Block b's compressed bytes are
/// [data_start + end(b-1), data_start + end(b)) with end(-1) = 0.
struct RawBlockEntry {
  std::uint8_t end[8];       // end of the block, relative to the start of the blocks
  std::uint8_t checksum[8];  // XXH3-64 of the compressed bytes, seeded with the block number
};
static_assert(sizeof(RawBlockEntry) == 16 && alignof(RawBlockEntry) == 1);

/// One entry per block in a version-2 file. A 6-piece table has up to
/// 250,000 blocks of a few hundred bytes, so the 16-byte entries were 3.5 %
/// of the 6-piece set; these take 6. A block's offset is the sum of the
/// sizes before it: the reader keeps that sum for every 64th block
/// (kCompactGroupBlocks) and adds at most 63 sizes per decode.
struct RawCompactBlockEntry {
  std::uint8_t size[2];      // compressed bytes of the block (1 .. 65535)
  std::uint8_t checksum[4];  // low 32 bits of the XXH3-64 of the compressed bytes, seeded with the block number
};
static_assert(sizeof(RawCompactBlockEntry) == 6 && alignof(RawCompactBlockEntry) == 1);
inline constexpr std::uint64_t kCompactGroupBlocks = 64;
inline constexpr std::uint32_t kMaxCompactBlockBytes = 65535;

/// Limits a reader enforces before trusting header fields (BadHeader beyond).
inline constexpr std::uint32_t kMaxPositionsPerBlock = 1u << 24;
inline constexpr std::uint32_t kMaxDictionaryBytes = 1u << 24;

}  // namespace dtb::layout
