// Small argument helpers shared by the subcommands.
#pragma once

#include <charconv>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

#include "cli/command.h"
#include "rules/notation.h"

namespace dtb::cli {

/// A whole number within [lo, hi], or nullopt.
inline std::optional<long long> parse_int(const std::string& s, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

/// A size in bytes: a whole number with an optional suffix K, M, G or T
/// (powers of 1024; `4G`, `512M`, `1048576`), within [lo, hi] bytes.
inline std::optional<unsigned long long> parse_size(const std::string& s, unsigned long long lo,
                                                    unsigned long long hi) {
  unsigned long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end == s.data()) return std::nullopt;
  const std::string suffix(end, s.data() + s.size());
  int shift = 0;
  if (suffix == "K" || suffix == "k") shift = 10;
  else if (suffix == "M" || suffix == "m") shift = 20;
  else if (suffix == "G" || suffix == "g") shift = 30;
  else if (suffix == "T" || suffix == "t") shift = 40;
  else if (!suffix.empty()) return std::nullopt;
  if (v > (hi >> shift)) return std::nullopt;
  v <<= shift;
  if (v < lo) return std::nullopt;
  return v;
}

/// A FEN, or the word `start` for the initial position.
inline std::optional<Position> parse_fen_or_start(const std::string& s, std::string* error) {
  if (s == "start") return start_position();
  return parse_fen(s, error);
}

/// A block cache size: "64M", "1G", "512K" or a bare number of MiB (the unit
/// a cache is thought of in); at least 1 MiB.
inline std::optional<std::size_t> parse_cache_size(std::string s) {
  int shift = 20;
  if (!s.empty() && std::string("KkMmGg").find(s.back()) != std::string::npos) {
    const char unit = s.back();
    shift = unit == 'K' || unit == 'k' ? 10 : unit == 'M' || unit == 'm' ? 20 : 30;
    s.pop_back();
  }
  const auto n = parse_int(s, 1, (1LL << 50) >> shift);
  if (!n || (static_cast<std::size_t>(*n) << shift) < (std::size_t{1} << 20)) return std::nullopt;
  return static_cast<std::size_t>(*n) << shift;
}

inline constexpr const char* kCacheSizeError =
    "--cache needs a size of at least 1M (e.g. 64M, 1G; a bare number is MiB)";

/// DIR or `--tables DIR` at args[i], for the commands that take either: sets
/// `dir` (empty until then; moving i past the value) and returns "" or what
/// is wrong. nullopt if args[i] is another option.
inline std::optional<std::string> take_table_dir(const std::vector<std::string>& args, std::size_t& i,
                                                 std::string& dir) {
  const std::string& a = args[i];
  if (a.starts_with("--") && a != "--tables") return std::nullopt;
  if (a == "--tables" && ++i == args.size()) return a + " needs a value";
  if (!dir.empty() && dir != args[i])
    return std::string("expected at most one table directory (DIR or --tables DIR)");
  dir = args[i];
  return std::string();
}

/// The table options of the commands that probe (`dtb probe`, `dtb play`):
/// `--tables DIR` (default: $DTB_TABLES, else tables/) and `--cache SIZE`;
/// `--cache-mb N` is the older spelling of `--cache N`, kept for scripts.
struct TableOptions {
  std::string dir;
  std::size_t cache_bytes = std::size_t{64} << 20;

  TableOptions() {
    const char* env_dir = std::getenv("DTB_TABLES");
    dir = env_dir && *env_dir ? env_dir : "tables";
  }
  /// If args[i] is one of these options: takes it and its value (moving i),
  /// and returns "" or what is wrong with the value. Otherwise nullopt.
  std::optional<std::string> take(const std::vector<std::string>& args, std::size_t& i) {
    const std::string& a = args[i];
    if (a != "--tables" && a != "--cache" && a != "--cache-mb") return std::nullopt;
    if (i + 1 == args.size()) return a + " needs a value";
    const std::string& value = args[++i];
    if (a == "--tables") {
      dir = value;
    } else if (a == "--cache") {
      const auto bytes = parse_cache_size(value);
      if (!bytes) return std::string(kCacheSizeError);
      cache_bytes = *bytes;
    } else if (const auto mb = parse_int(value, 1, 1 << 20)) {
      cache_bytes = static_cast<std::size_t>(*mb) << 20;
    } else {
      return std::string("--cache-mb must be a whole number from 1 to 1048576");
    }
    return std::string();
  }
};

/// The help lines of TableOptions, shared by the commands that take them.
inline constexpr Option kTablesOption{"--tables", "DIR[:DIR...]",
                                      "the table directory, or several that hold one set (default: $DTB_TABLES, else "
                                      "tables)"};
inline constexpr Option kCacheOption{"--cache", "SIZE",
                                     "block cache size, e.g. 64M or 1G; a bare number is MiB (default 64M)"};
inline constexpr Option kCacheMbOption{"--cache-mb", "N", "deprecated: the same as --cache N"};

}  // namespace dtb::cli
