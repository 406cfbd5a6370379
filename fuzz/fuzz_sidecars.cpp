// The readers of the text sidecars the generator writes beside its tables
// (gen/stats_sidecar.h: `.stats`; gen/mtc_sidecar.h: `.mtc-stats` and
// `.r62-stats`) on arbitrary lines. The line's own checksum would stop
// nearly every input before its fields are read, so when the first byte is
// even the harness appends the right one; `$W` and `$M` in the text stand for
// the XXH3 of the `.wdl` and of the `.mtc`/`.r62` file beside it, so that a
// line can also match its tables. A sidecar the reader accepts must be
// consistent: its counts add up to the table's positions, the histograms to
// the counts, the longest values have positions.
#include <xxhash.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "gen/checksums.h"
#include "gen/mtc_sidecar.h"
#include "gen/stats_sidecar.h"
#include "index/material.h"

namespace {

const dtb::Material kMaterial{1, 0, 1, 0};  // KvK
std::string dir;
std::string wdl_hash, mtc_hash, r62_hash;

[[noreturn]] void fail(const std::string& what, const std::string& line) {
  std::fprintf(stderr, "fuzz_sidecars: %s\nline: %s\n", what.c_str(), line.c_str());
  std::abort();
}

void write_file(const std::string& path, const std::string& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << bytes;
  if (!out) fail("cannot write " + path, "");
}

std::string hash_of(const std::string& bytes) { return dtb::gen::format_hash(XXH3_64bits(bytes.data(), bytes.size())); }

std::string substitute(std::string text, const std::string& table_hash) {
  for (const auto& [mark, value] : {std::pair<std::string, std::string>{"$W", wdl_hash}, {"$M", table_hash}})
    for (std::size_t at = 0; (at = text.find(mark, at)) != std::string::npos; at += value.size())
      text.replace(at, mark.size(), value);
  return text;
}

void write_sidecar(const std::string& path, const std::string& text, bool add_checksum) {
  write_file(path, add_checksum ? text + ' ' + hash_of(text) + '\n' : text);
}

void check_mtc(const std::optional<dtb::gen::MtcTableReport>& r, const std::string& line) {
  if (!r) return;
  std::uint64_t win = 0, loss = 0;
  for (std::uint64_t c : r->win_mtc) win += c;
  for (std::uint64_t c : r->loss_mtc) loss += c;
  if (win != r->win || loss != r->loss) fail("accepted histograms that do not sum to the counts", line);
  if (r->win + r->draw + r->loss != r->positions || r->win > r->positions || r->loss > r->positions)
    fail("accepted counts that do not sum to the positions", line);
  if (static_cast<int>(r->win_mtc.size()) != r->longest_win + 1 ||
      static_cast<int>(r->loss_mtc.size()) != r->longest_loss + 1)
    fail("accepted histograms of the wrong length", line);
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  char pattern[] = "/tmp/fuzz_sidecars.XXXXXX";
  if (!mkdtemp(pattern)) fail("mkdtemp failed", "");
  dir = pattern;
  // The hashes tie a sidecar to its tables' bytes; what the bytes are does not matter here.
  const std::string name = dir + "/" + kMaterial.name();
  write_file(name + ".wdl", "wdl table");
  write_file(name + ".mtc", "mtc table");
  write_file(name + ".r62", "r62 table");
  wdl_hash = hash_of("wdl table");
  mtc_hash = hash_of("mtc table");
  r62_hash = hash_of("r62 table");
  std::atexit([] { std::filesystem::remove_all(dir); });
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const bool add_checksum = data[0] % 2 == 0;
  const std::string text(reinterpret_cast<const char*>(data + 1), size - 1);
  namespace gen = dtb::gen;

  write_sidecar(gen::stats_sidecar_path(dir, kMaterial), substitute(text, mtc_hash), add_checksum);
  if (const auto s = gen::read_stats_sidecar(dir, kMaterial)) {
    if (s->win + s->draw + s->loss != s->positions || s->win > s->positions || s->draw > s->positions)
      fail("accepted WDL counts that do not sum to the positions", text);
    if (s->captures > s->positions || s->quiet_win > s->win || s->quiet_draw > s->draw || s->quiet_loss > s->loss ||
        s->quiet_win + s->quiet_draw + s->quiet_loss != s->positions - s->captures)
      fail("accepted quiet counts that do not fit the counts", text);
  }

  write_sidecar(gen::mtc_sidecar_path(dir, kMaterial), substitute(text, mtc_hash), add_checksum);
  check_mtc(gen::read_mtc_sidecar(dir, kMaterial), text);
  write_sidecar(gen::mtc_sidecar_path(dir, kMaterial, dtb::TableKind::Article62), substitute(text, r62_hash),
                add_checksum);
  check_mtc(gen::read_mtc_sidecar(dir, kMaterial, dtb::TableKind::Article62), text);
  return 0;
}
