#include "gen/stats_sidecar.h"

#include <filesystem>
#include <sstream>

#include "gen/checksums.h"
#include "gen/sidecar_line.h"
#include "solver/table_loading.h"

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

// The counts agree with themselves, as counting a table makes them: the
// values sum to the positions, the quiet ones to the positions that do not
// capture. A line can pass its checksum and still break this (written by
// hand, or by a faulty build), and `dtb stats` must not print such counts.
bool consistent(const MaterialStats& s) {
  return s.win <= s.positions && s.draw <= s.positions - s.win && s.loss == s.positions - s.win - s.draw &&
         s.captures <= s.positions && s.quiet_win <= s.win && s.quiet_draw <= s.draw && s.quiet_loss <= s.loss &&
         s.quiet_win + s.quiet_draw + s.quiet_loss == s.positions - s.captures;
}

}  // namespace

std::string stats_sidecar_path(const std::string& dir, const Material& m) { return dir + "/" + m.name() + ".stats"; }

bool write_stats_sidecar(const std::string& dir, const MaterialStats& s, std::string& error) {
  std::uint64_t table_hash = 0;
  if (!file_xxh3(wdl_table_path(dir, s.material), table_hash, error)) return false;
  return write_checked_line(stats_sidecar_path(dir, s.material), counts_text(s, table_hash), error);
}

std::optional<MaterialStats> read_stats_sidecar(const std::string& dir, const Material& m) {
  const auto text = read_checked_line(stats_sidecar_path(dir, m));
  if (!text) return std::nullopt;  // missing or damaged
  std::istringstream fields(*text);
  std::string tag, name, hash;
  int version = 0;
  MaterialStats s;
  s.material = m;
  if (!(fields >> tag >> version >> name >> s.positions >> s.captures >> s.win >> s.draw >> s.loss >> s.quiet_win >>
        s.quiet_draw >> s.quiet_loss >> hash) ||
      tag != kTag || version != kVersion || name != m.name() || !consistent(s))
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
