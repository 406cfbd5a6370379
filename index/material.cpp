// Material signatures: canonical names and the material of a position.
#include "index/material.h"

namespace dtb {

namespace {

void append_side(std::string& out, int kings, int men) {
  out.append(static_cast<std::size_t>(kings), 'K');
  out.append(static_cast<std::size_t>(men), 'M');
}

void set_error(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}

// One colour's part of a name: kings (K) first, then men (M), at least one piece.
// Returns false (with a message) for anything else.
bool parse_side(std::string_view text, const char* colour, int& kings, int& men,
                std::string* error) {
  kings = men = 0;
  std::size_t i = 0;
  while (i < text.size() && text[i] == 'K') ++kings, ++i;
  while (i < text.size() && text[i] == 'M') ++men, ++i;
  if (i < text.size()) {
    const char c = text[i];
    if (c == 'K')
      set_error(error, std::string(colour) + "'s kings (K) must come before the men (M)");
    else
      set_error(error, std::string("unexpected character '") + c + "' in " + colour +
                           "'s pieces (only K and M are allowed)");
    return false;
  }
  if (kings + men == 0) {
    set_error(error, std::string(colour) + " has no pieces");
    return false;
  }
  return true;
}

}  // namespace

std::string Material::name() const {
  std::string out;
  append_side(out, white_kings, white_men);
  out += 'v';
  append_side(out, black_kings, black_men);
  return out;
}

std::optional<Material> parse_material(std::string_view text, std::string* error) {
  const std::string quoted = "'" + std::string(text) + "': ";
  const std::size_t v = text.find('v');
  if (v == std::string_view::npos || text.find('v', v + 1) != std::string_view::npos) {
    set_error(error, quoted + "a material is White's pieces, 'v', Black's pieces (e.g. KKMvK)");
    return std::nullopt;
  }
  int wk = 0, wm = 0, bk = 0, bm = 0;
  std::string why;
  if (!parse_side(text.substr(0, v), "White", wk, wm, &why) ||
      !parse_side(text.substr(v + 1), "Black", bk, bm, &why)) {
    set_error(error, quoted + why);
    return std::nullopt;
  }
  // Men have 45 legal squares each colour; the board has 50.
  if (wk + wm + bk + bm > kSquares || wm > 45 || bm > 45) {
    set_error(error, quoted + "more pieces than the board has squares for");
    return std::nullopt;
  }
  return Material{static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(wm),
                  static_cast<std::uint8_t>(bk), static_cast<std::uint8_t>(bm)};
}

Material material_of(const Position& pos) {
  return Material{static_cast<std::uint8_t>(popcount(pos.white & pos.kings)),
                  static_cast<std::uint8_t>(popcount(pos.white & ~pos.kings)),
                  static_cast<std::uint8_t>(popcount(pos.black & pos.kings)),
                  static_cast<std::uint8_t>(popcount(pos.black & ~pos.kings))};
}

}  // namespace dtb
