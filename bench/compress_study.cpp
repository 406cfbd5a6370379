// Size and decode-cost study of table-file encodings on real WDL tables
// (compress/FORMAT.md, "Measurements"). Not a Google Benchmark loop: it
// re-encodes every table of a directory under each variant and prints, per
// variant, the total size, the bits per position and the block decode time.
//
//   bench_compress_study DIR [--variants NAME,NAME...]
//
// The don't-care positions are recomputed from the positions themselves
// (side to move must capture), so variants that fill them differently can be
// compared on the same true information.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "compress/table_file.h"
#include "index/position_index.h"
#include "rules/movegen.h"

namespace fs = std::filesystem;
using namespace dtb;

namespace {

struct Table {
  Material material;
  std::vector<std::uint16_t> values;  // as stored (don't-care already filled)
  std::vector<std::uint8_t> dont_care;
};

struct Variant {
  std::string name;
  WriteOptions options;
  bool zero_fill = false;  // store 0 at don't-care positions instead of the writer's fill
};

std::vector<Variant> all_variants() {
  std::vector<Variant> v;
  auto add = [&](std::string name, Packing p, std::uint32_t block, int level, std::uint32_t dict, bool zero) {
    WriteOptions o;
    o.packing = p;
    o.positions_per_block = block;
    o.zstd_level = level;
    o.dictionary_bytes = dict;
    v.push_back({std::move(name), o, zero});
  };
  v.push_back({"default", WriteOptions{}, false});  // what write_table does unless told otherwise
  add("no-dict", Packing::Bits2, kDefaultPositionsPerBlock, kDefaultZstdLevel, 0, false);
  add("base3", Packing::Base3, kDefaultPositionsPerBlock, kDefaultZstdLevel, 0, false);
  add("bits8", Packing::Bits8, kDefaultPositionsPerBlock, kDefaultZstdLevel, 0, false);
  add("runs", Packing::Runs, kDefaultPositionsPerBlock, kDefaultZstdLevel, 0, false);
  add("zero-fill", Packing::Bits2, kDefaultPositionsPerBlock, kDefaultZstdLevel, 0, true);
  for (std::uint32_t block : {4096u, 8192u, 32768u, 65536u})
    add("block" + std::to_string(block), Packing::Bits2, block, kDefaultZstdLevel, 0, false);
  add("level9", Packing::Bits2, kDefaultPositionsPerBlock, 9, 0, false);
  add("level22", Packing::Bits2, kDefaultPositionsPerBlock, 22, 0, false);
  add("dict4k", Packing::Bits2, kDefaultPositionsPerBlock, kDefaultZstdLevel, 4096, false);
  add("dict16k", Packing::Bits2, kDefaultPositionsPerBlock, kDefaultZstdLevel, 16384, false);
  add("block4096-dict4k", Packing::Bits2, 4096, kDefaultZstdLevel, 4096, false);
  add("block8192-dict4k", Packing::Bits2, 8192, kDefaultZstdLevel, 4096, false);
  add("block8192-dict16k", Packing::Bits2, 8192, kDefaultZstdLevel, 16384, false);
  add("block16384", Packing::Bits2, 16384, kDefaultZstdLevel, 0, false);
  add("block16384-dict4k", Packing::Bits2, 16384, kDefaultZstdLevel, 4096, false);
  add("block32768-dict4k", Packing::Bits2, 32768, kDefaultZstdLevel, 4096, false);
  for (int level : {9, 12, 15})  // the generator's block size, with and without a dictionary
    for (std::uint32_t dict : {0u, 4096u})
      add("block16384-" + (dict ? std::string("dict4k-") : std::string()) + "level" + std::to_string(level),
          Packing::Bits2, 16384, level, dict, false);
  for (int level : {6, 9, 12, 15, 17, 19})
    add("block8192-dict4k-level" + std::to_string(level), Packing::Bits2, 8192, level, 4096, false);
  return v;
}

bool load(const fs::path& file, Table* t) {
  TableError e;
  const auto r = TableReader::open(file.string(), &e);
  if (!r || r->kind() != TableKind::Wdl) {
    std::cerr << "skipping " << file << ": " << e.message << "\n";
    return false;
  }
  t->material = r->material();
  t->values.clear();
  std::vector<std::uint16_t> block;
  for (std::uint64_t b = 0; b < r->block_count(); ++b) {
    if ((e = r->decode_block(b, block))) {
      std::cerr << e.message << "\n";
      return false;
    }
    t->values.insert(t->values.end(), block.begin(), block.end());
  }
  const PositionIndex index(t->material);
  if (index.size() != t->values.size()) {
    std::cerr << file << ": " << t->values.size() << " values for " << index.size() << " positions\n";
    return false;
  }
  t->dont_care.resize(t->values.size());
  for (std::uint64_t i = 0; i < index.size(); ++i) t->dont_care[i] = has_capture(index.unrank(i)) ? 1 : 0;
  return true;
}

struct Result {
  std::uint64_t bytes = 0, positions = 0, blocks = 0;
  std::vector<double> decode_ns;  // one per block
  double write_s = 0;
};

void run_variant(const Variant& v, const std::vector<Table>& tables, const fs::path& scratch, Result* out) {
  for (const Table& t : tables) {
    std::vector<std::uint16_t> values = t.values;
    if (v.zero_fill)
      for (std::size_t i = 0; i < values.size(); ++i)
        if (t.dont_care[i]) values[i] = 0;
    const std::string path = (scratch / (t.material.name() + ".wdl")).string();
    const auto start = std::chrono::steady_clock::now();
    const TableContents contents{t.material, TableKind::Wdl, values,
                                 v.zero_fill ? std::span<const std::uint8_t>() : std::span<const std::uint8_t>(t.dont_care)};
    if (TableError e = write_table(path, contents, v.options)) {
      std::cerr << e.message << "\n";
      std::exit(1);
    }
    out->write_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    TableError e;
    const auto r = TableReader::open(path, &e);
    if (!r) {
      std::cerr << e.message << "\n";
      std::exit(1);
    }
    out->bytes += r->file_bytes();
    out->positions += r->positions();
    out->blocks += r->block_count();
    std::vector<std::uint8_t> packed;
    for (std::uint64_t b = 0; b < r->block_count(); ++b) {
      const auto t0 = std::chrono::steady_clock::now();
      if ((e = r->decode_block_packed2(b, packed))) {
        std::cerr << e.message << "\n";
        std::exit(1);
      }
      out->decode_ns.push_back(std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0).count());
      for (std::uint32_t i = 0; i < r->block_values(b); ++i)  // the study must not measure a wrong encoding
        if (!t.dont_care[b * r->positions_per_block() + i] &&
            packed2_value(packed.data(), i) != t.values[b * r->positions_per_block() + i]) {
          std::cerr << "MISMATCH in " << path << "\n";
          std::exit(1);
        }
    }
    fs::remove(path);
  }
}

double percentile(std::vector<double> v, double q) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[static_cast<std::size_t>(q * static_cast<double>(v.size() - 1))];
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::cerr << "usage: bench_compress_study DIR [--variants NAME,NAME...]\n";
    return 2;
  }
  std::vector<std::string> wanted;
  if (argc >= 4 && std::string(argv[2]) == "--variants") {
    std::stringstream list(argv[3]);
    for (std::string name; std::getline(list, name, ',');) wanted.push_back(name);
  }
  std::vector<Table> tables;
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(argv[1]))
    if (entry.path().extension() == ".wdl") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::uint64_t dont_care = 0, positions = 0;
  for (const auto& f : files) {
    Table t;
    if (!load(f, &t)) return 1;
    dont_care += static_cast<std::uint64_t>(std::count(t.dont_care.begin(), t.dont_care.end(), 1));
    positions += t.values.size();
    tables.push_back(std::move(t));
  }
  std::printf("%zu tables, %llu positions, %.1f%% don't-care (capture) positions\n", tables.size(),
              static_cast<unsigned long long>(positions), 100.0 * static_cast<double>(dont_care) / static_cast<double>(positions));
  const fs::path scratch = fs::temp_directory_path() / ("dtb-study-" + std::to_string(::getpid()));
  fs::create_directories(scratch);
  std::printf("%-18s %12s %10s %8s %12s %12s %9s\n", "variant", "bytes", "bits/pos", "blocks", "decode p50",
              "decode p99", "write s");
  for (const Variant& v : all_variants()) {
    if (!wanted.empty() && std::find(wanted.begin(), wanted.end(), v.name) == wanted.end()) continue;
    Result r;
    run_variant(v, tables, scratch, &r);
    std::printf("%-18s %12llu %10.4f %8llu %9.0f ns %9.0f ns %9.2f\n", v.name.c_str(),
                static_cast<unsigned long long>(r.bytes), 8.0 * static_cast<double>(r.bytes) / static_cast<double>(r.positions),
                static_cast<unsigned long long>(r.blocks), percentile(r.decode_ns, 0.5), percentile(r.decode_ns, 0.99),
                r.write_s);
    std::fflush(stdout);
  }
  fs::remove_all(scratch);
  return 0;
}
