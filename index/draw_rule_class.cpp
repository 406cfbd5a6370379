#include "index/draw_rule_class.h"

#include <algorithm>

namespace dtb {
namespace {

// The class of "this strong side against a lone king", or None.
RuleClass class_of_strong_side(int kings, int men) {
  const int pieces = kings + men;
  if (kings < 1) return RuleClass::None;  // the strong side always keeps a king
  if (pieces == 3 && men <= 2) return RuleClass::SixteenMoves;  // KKK, KKM, KMM
  if (pieces <= 2 && men <= 1) return RuleClass::FiveMoves;     // KK, KM, K
  return RuleClass::None;
}

bool is_lone_king(int kings, int men) { return kings == 1 && men == 0; }

}  // namespace

RuleClass rule_class(const Material& m) {
  if (is_lone_king(m.black_kings, m.black_men)) {
    const RuleClass c = class_of_strong_side(m.white_kings, m.white_men);
    if (c != RuleClass::None) return c;
  }
  if (is_lone_king(m.white_kings, m.white_men))
    return class_of_strong_side(m.black_kings, m.black_men);
  return RuleClass::None;
}

int plies_in_class_after(const Position& before, int plies_in_class, const Move& m) {
  const Position next = make_move(before, m);
  if (next.white == 0 || next.black == 0) return -1;
  const RuleClass was = rule_class(material_of(before)), now = rule_class(material_of(next));
  if (now == RuleClass::None) return -1;
  return (now == was && plies_in_class >= 0) ? plies_in_class + 1 : 0;
}

int class_count_of(const Material& m, int plies_since_conversion, int plies_in_class) {
  if (rule_class(m) == RuleClass::None) return -1;
  return std::max(plies_in_class, plies_since_conversion);
}

int limit_plies(RuleClass c) {
  switch (c) {
    case RuleClass::SixteenMoves: return 32;
    case RuleClass::FiveMoves: return 10;
    case RuleClass::None: break;
  }
  return 0;
}

const char* article_of(RuleClass c) {
  return c == RuleClass::SixteenMoves ? "6.3" : c == RuleClass::FiveMoves ? "6.4" : "-";
}

std::vector<Material> class_materials_white_strong() {
  // Written out rather than derived: these six are the whole of articles 6.3
  // and 6.4, and the order is the dependency order (captures and promotions
  // only lead to materials listed earlier).
  auto m = [](int wk, int wm) {
    return Material{static_cast<std::uint8_t>(wk), static_cast<std::uint8_t>(wm), 1, 0};
  };
  return {m(1, 0), m(2, 0), m(1, 1), m(3, 0), m(2, 1), m(1, 2)};
}

}  // namespace dtb
