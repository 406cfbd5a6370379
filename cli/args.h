// Small argument helpers shared by the subcommands.
#pragma once

#include <charconv>
#include <optional>
#include <string>

#include "rules/notation.h"

namespace dtb::cli {

/// A whole number within [lo, hi], or nullopt.
inline std::optional<long long> parse_int(const std::string& s, long long lo, long long hi) {
  long long v = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

/// A FEN, or the word `start` for the initial position.
inline std::optional<Position> parse_fen_or_start(const std::string& s, std::string* error) {
  if (s == "start") return start_position();
  return parse_fen(s, error);
}

}  // namespace dtb::cli
