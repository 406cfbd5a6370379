// dtb info FILE...: the header of table files, their block statistics, and a
// check of every block's checksum (exit 1 if any file or block is damaged),
// and the whole file's XXH3-64 as tables/CHECKSUMS lists it.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.h"
#include "compress/table_file.h"
#include "gen/checksums.h"

namespace dtb::cli {
namespace {

bool print_info(const std::string& path) {
  TableError error;
  const auto r = TableReader::open(path, &error);
  if (!r) {
    std::cerr << "dtb info: " << error.message << "\n";
    return false;
  }
  std::uint64_t smallest = ~0ull, largest = 0;
  for (std::uint64_t b = 0; b < r->block_count(); ++b) {
    smallest = std::min(smallest, r->block_bytes(b));
    largest = std::max(largest, r->block_bytes(b));
  }
  if (r->block_count() == 0) smallest = 0;
  const double bits = r->positions() ? 8.0 * static_cast<double>(r->file_bytes()) / static_cast<double>(r->positions()) : 0.0;
  std::printf("%s\n  material %s, kind %s, packing %s, max value %u\n", path.c_str(), r->material().name().c_str(),
              table_extension(r->kind()) + 1 /* without the dot */, packing_name(r->packing()), unsigned{r->max_value()});
  std::printf("  format version %u, positions %llu, %llu blocks of %u, dictionary %u bytes\n",
              unsigned{r->format_version()}, static_cast<unsigned long long>(r->positions()),
              static_cast<unsigned long long>(r->block_count()), r->positions_per_block(), r->dictionary_bytes());
  std::printf("  file %llu bytes, %.4f bits/position; compressed blocks %llu..%llu bytes\n",
              static_cast<unsigned long long>(r->file_bytes()), bits, static_cast<unsigned long long>(smallest),
              static_cast<unsigned long long>(largest));
  // The whole file's hash, as tables/CHECKSUMS lists it: a script can
  // check a table against that list without a directory to discover.
  std::uint64_t hash = 0;
  std::string hash_error;
  if (!gen::file_xxh3(path, hash, hash_error)) {
    std::cerr << "dtb info: " << hash_error << "\n";
    return false;
  }
  std::printf("  xxh3-64 %s\n", gen::format_hash(hash).c_str());
  if (const TableError e = r->verify_all()) {
    std::cerr << "dtb info: " << e.message << "\n";
    return false;
  }
  std::printf("  all block checksums verified\n");
  return true;
}

int run_info(const Args& args) {
  if (args.empty()) return usage_error("info", "expected at least one table file");
  bool ok = true;
  for (const std::string& path : args) ok = print_info(path) && ok;
  return ok ? 0 : 1;
}

}  // namespace

DTB_COMMAND("info", "FILE...", "header, block sizes and checksums of table files",
            "Every block's checksum is verified: the exit status is 1 if a file or a block is damaged", {},
            run_info);

}  // namespace dtb::cli
