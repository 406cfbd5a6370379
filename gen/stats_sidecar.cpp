#include "gen/stats_sidecar.h"

#include <xxhash.h>

#include <filesystem>
#include <fstream>
#include <span>
#include <sstream>

#include "compress/atomic_file.h"
#include "gen/checksums.h"
#include "gen/table_loading.h"

namespace dtb::gen {
namespace {

constexpr const char* kTag = "draughts-tb-stats";
constexpr int kVersion = 1;

std::string counts_text(const MaterialStats& s, std::uint64_t table_hash) {
  std::ostringstream o;
  o << kTag << ' ' << kVersion << ' ' << s.material.name() << ' ' << s.positions << ' ' << s.captures << ' '
    << s.win << ' ' << s.draw << ' ' << s.loss << ' ' << s.quiet_win << ' ' << s.quiet_draw << ' '
    << s.quiet_loss << ' ' << format_hash(table_hash);
  return o.str();
}

std::string line_hash(const std::string& text) { return format_hash(XXH3_64bits(text.data(), text.size())); }

}  // namespace

std::string stats_sidecar_path(const std::string& dir, const Material& m) { return dir + "/" + m.name() + ".stats"; }

bool write_stats_sidecar(const std::string& dir, const MaterialStats& s, std::string& error) {
  std::uint64_t table_hash = 0;
  if (!file_xxh3(wdl_table_path(dir, s.material), table_hash, error)) return false;
  const std::string text = counts_text(s, table_hash);
  const std::string line = text + ' ' + line_hash(text) + '\n';
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
  const std::span<const std::uint8_t> parts[] = {bytes};
  if (TableError e = write_file_atomically(stats_sidecar_path(dir, s.material), parts)) {
    error = e.message;
    return false;
  }
  return true;
}

std::optional<MaterialStats> read_stats_sidecar(const std::string& dir, const Material& m) {
  std::ifstream in(stats_sidecar_path(dir, m));
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  const std::size_t last = line.rfind(' ');
  if (last == std::string::npos) return std::nullopt;
  const std::string text = line.substr(0, last);
  if (line.substr(last + 1) != line_hash(text)) return std::nullopt;  // damaged
  std::istringstream fields(text);
  std::string tag, name, hash;
  int version = 0;
  MaterialStats s;
  s.material = m;
  if (!(fields >> tag >> version >> name >> s.positions >> s.captures >> s.win >> s.draw >> s.loss >> s.quiet_win >>
        s.quiet_draw >> s.quiet_loss >> hash) ||
      tag != kTag || version != kVersion || name != m.name())
    return std::nullopt;
  std::uint64_t table_hash = 0;
  std::string error;
  const std::string path = wdl_table_path(dir, m);
  if (!file_xxh3(path, table_hash, error) || format_hash(table_hash) != hash) return std::nullopt;  // stale
  std::error_code ec;
  s.bytes = std::filesystem::file_size(path, ec);
  return s;
}

}  // namespace dtb::gen
