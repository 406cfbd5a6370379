#include "draw_counts.h"

static int popcount(uint64_t x) {
  int n = 0;
  for (; x; x &= x - 1) ++n;
  return n;
}

/* The class of "this strong side against a lone king" (index/draw_rule_class.cpp). */
static int class_of_strong_side(int kings, int men) {
  if (kings < 1) return 0; /* MMvK, MMMvK: no class until a man promotes */
  if (kings + men == 3) return 3;
  if (kings + men <= 2) return 4;
  return 0;
}

static int class_against(uint64_t strong, uint64_t lone, uint64_t kings) {
  const int lone_king = popcount(lone) == 1 && (lone & kings) != 0;
  return lone_king ? class_of_strong_side(popcount(strong & kings), popcount(strong & ~kings)) : 0;
}

int draw_class(const dtb_position* pos) {
  const int white_strong = class_against(pos->white, pos->black, pos->kings);
  return white_strong ? white_strong : class_against(pos->black, pos->white, pos->kings);
}

draw_counts draw_counts_start(const dtb_position* pos) {
  const draw_counts counts = {0, draw_class(pos) ? 0 : -1};
  return counts;
}

static int converts(const dtb_position* before, const dtb_move* move) {
  const int man_moved = (before->kings & ((uint64_t)1 << (move->from - 1))) == 0;
  return move->captured != 0 || man_moved;
}

draw_counts draw_counts_after(draw_counts counts, const dtb_position* before, const dtb_move* move,
                              const dtb_position* after) {
  draw_counts next;
  next.plies_since_conversion = converts(before, move) ? 0 : counts.plies_since_conversion + 1;
  const int was = draw_class(before), now = draw_class(after);
  if (now == 0)
    next.plies_in_class = -1;
  else
    next.plies_in_class = now == was && counts.plies_in_class >= 0 ? counts.plies_in_class + 1 : 0;
  return next;
}
