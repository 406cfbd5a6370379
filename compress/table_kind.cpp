// Names of the enums of compress/table_file.h, and the small TableReader
// helpers that every implementation shares.
#include <algorithm>

#include "compress/table_file.h"

namespace dtb {

const char* table_extension(TableKind kind) {
  switch (kind) {
    case TableKind::Wdl: return ".wdl";
    case TableKind::Dtw: return ".dtw";
    case TableKind::Rule: return ".rule";
    case TableKind::Mtc: return ".mtc";
    case TableKind::Article62: return ".r62";
  }
  return ".unknown";
}

const char* packing_name(Packing packing) {
  switch (packing) {
    case Packing::Bits2: return "bits2";
    case Packing::Base3: return "base3";
    case Packing::Bits8: return "bits8";
    case Packing::Bits16: return "bits16";
    case Packing::Runs: return "runs";
  }
  return "unknown";
}

std::uint32_t TableReader::block_values(std::uint64_t b) const {
  if (b >= block_count()) return 0;
  const std::uint64_t first = b * positions_per_block();
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(positions_per_block(), positions() - first));
}

TableError TableReader::value_at(std::uint64_t index, std::uint16_t* value) const {
  if (index >= positions())
    return {TableStatus::InvalidArgument,
            "index " + std::to_string(index) + " out of range (" + std::to_string(positions()) + " positions)"};
  std::vector<std::uint16_t> block;
  if (TableError e = decode_block(index / positions_per_block(), block)) return e;
  *value = block[index % positions_per_block()];
  return {};
}

TableError table_file_stats(const std::string& path, TableFileStats* stats) {
  TableError error;
  const auto reader = TableReader::open(path, &error);
  if (!reader) return error;
  stats->positions = reader->positions();
  stats->file_bytes = reader->file_bytes();
  return {};
}

}  // namespace dtb
