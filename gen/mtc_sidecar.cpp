#include "gen/mtc_sidecar.h"

#include <optional>
#include <sstream>
#include <vector>

#include "gen/checksums.h"
#include "solver/mtc_values.h"
#include "gen/sidecar_line.h"
#include "solver/table_loading.h"

namespace dtb::gen {
namespace {

// One tag per kind: a `.r62-stats` line is never read as a `.mtc-stats` one.
const char* tag_of(TableKind kind) {
  return kind == TableKind::Article62 ? "draughts-tb-r62-stats" : "draughts-tb-mtc-stats";
}

std::string table_path(const std::string& dir, const Material& m, TableKind kind) {
  return kind == TableKind::Article62 ? r62_table_path(dir, m) : mtc_table_path(dir, m);
}
constexpr int kVersion = 1;

// "<.wdl XXH3> <.mtc (or .r62) XXH3>" of m's tables as they are now, or nothing.
std::optional<std::string> table_hashes(const std::string& dir, const Material& m, TableKind kind,
                                        std::string& error) {
  std::uint64_t wdl = 0, mtc = 0;
  if (!file_xxh3(wdl_table_path(dir, m), wdl, error) || !file_xxh3(table_path(dir, m, kind), mtc, error))
    return std::nullopt;
  return format_hash(wdl) + ' ' + format_hash(mtc);
}

std::string counts_text(const MtcTableReport& r, TableKind kind, const std::string& hashes) {
  std::ostringstream o;
  o << tag_of(kind) << ' ' << kVersion << ' ' << r.material.name() << ' ' << r.positions << ' ' << r.win << ' ' << r.draw
    << ' ' << r.loss << ' ' << r.longest_win << ' ' << r.longest_win_index << ' ' << r.longest_loss << ' '
    << r.longest_loss_index << " W";
  for (std::uint64_t c : r.win_mtc) o << ' ' << c;
  o << " L";
  for (std::uint64_t c : r.loss_mtc) o << ' ' << c;
  o << ' ' << hashes;
  return o.str();
}

// A histogram of `longest + 1` counts after its letter; empty if longest is -1.
bool read_histogram(std::istringstream& fields, char letter, int longest, std::vector<std::uint64_t>& out) {
  std::string mark;
  if (!(fields >> mark) || mark != std::string(1, letter) || longest < -1 || longest > kMaxMtc) return false;
  out.assign(static_cast<std::size_t>(longest + 1), 0);
  for (std::uint64_t& c : out)
    if (!(fields >> c)) return false;
  return true;
}

// The counts agree with themselves: histograms sum to the totals, the
// totals to the table's size, and each longest value has positions.
bool consistent(const MtcTableReport& r) {
  std::uint64_t win = 0, loss = 0;
  for (std::uint64_t c : r.win_mtc) win += c;
  for (std::uint64_t c : r.loss_mtc) loss += c;
  const auto has_longest = [](const std::vector<std::uint64_t>& h) { return h.empty() || h.back() > 0; };
  return win == r.win && loss == r.loss && r.win + r.draw + r.loss == r.positions && has_longest(r.win_mtc) &&
         has_longest(r.loss_mtc) && r.longest_win_index < r.positions && r.longest_loss_index < r.positions;
}

}  // namespace

std::string mtc_sidecar_path(const std::string& dir, const Material& m, TableKind kind) {
  return table_path(dir, m, kind) + "-stats";
}

bool write_mtc_sidecar(const std::string& dir, const MtcTableReport& r, std::string& error, TableKind kind) {
  const auto hashes = table_hashes(dir, r.material, kind, error);
  if (!hashes) return false;
  return write_checked_line(mtc_sidecar_path(dir, r.material, kind), counts_text(r, kind, *hashes), error);
}

std::optional<MtcTableReport> read_mtc_sidecar(const std::string& dir, const Material& m, TableKind kind) {
  const auto text = read_checked_line(mtc_sidecar_path(dir, m, kind));
  if (!text) return std::nullopt;  // missing or damaged
  std::istringstream fields(*text);
  std::string tag, name, wdl_hash, mtc_hash;
  int version = 0;
  MtcTableReport r;
  r.material = m;
  if (!(fields >> tag >> version >> name >> r.positions >> r.win >> r.draw >> r.loss >> r.longest_win >>
        r.longest_win_index >> r.longest_loss >> r.longest_loss_index) ||
      tag != tag_of(kind) || version != kVersion || name != m.name() ||
      !read_histogram(fields, 'W', r.longest_win, r.win_mtc) ||
      !read_histogram(fields, 'L', r.longest_loss, r.loss_mtc) || !(fields >> wdl_hash >> mtc_hash) ||
      !consistent(r))
    return std::nullopt;
  std::string error;
  const auto hashes = table_hashes(dir, m, kind, error);
  if (!hashes || *hashes != wdl_hash + ' ' + mtc_hash) return std::nullopt;  // stale
  return r;
}

}  // namespace dtb::gen
