// FMJD article 6.2, as RULES.md reads it: when both players have made 25
// successive moves with kings only, without a capture or a man move, the
// game is drawn. The project counts plies since the last conversion (a
// capture or a man move): at 50 the game is drawn, so a probe accepts
// counts 0..49. (6.3 and 6.4, the class limits: index/draw_rule_class.h.)
#pragma once

namespace dtb {

inline constexpr int kArticle62Plies = 50;

/// The largest count a position can have while the game goes on.
inline constexpr int kMaxPliesSinceConversion = kArticle62Plies - 1;

}  // namespace dtb
