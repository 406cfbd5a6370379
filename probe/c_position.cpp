#include "probe/c_position.h"

namespace dtb::probe {
namespace {

constexpr std::uint64_t kDenseBoard = (std::uint64_t{1} << kSquares) - 1;

dtb_status invalid(std::string* why, const char* message) {
  if (why) *why = message;
  return DTB_INVALID_POSITION;
}

}  // namespace

dtb_status from_c(const dtb_position& in, Position& out, std::string* why) {
  if ((in.white | in.black | in.kings) & ~kDenseBoard)
    return invalid(why, "a bitboard has bits beyond square 50 (bit s-1 is square s)");
  if (in.white & in.black) return invalid(why, "a square holds a white and a black piece");
  if (in.kings & ~(in.white | in.black)) return invalid(why, "a king stands on an empty square");
  if (in.side_to_move != DTB_WHITE && in.side_to_move != DTB_BLACK)
    return invalid(why, "side_to_move is neither DTB_WHITE nor DTB_BLACK");
  Position p{from_dense(in.white), from_dense(in.black), from_dense(in.kings),
             in.side_to_move == DTB_WHITE ? Color::White : Color::Black};
  if (p.men_of(Color::White) & kWhitePromotionRow)
    return invalid(why, "a white man stands on its promotion row (squares 1-5)");
  if (p.men_of(Color::Black) & kBlackPromotionRow)
    return invalid(why, "a black man stands on its promotion row (squares 46-50)");
  if (p.pieces(opposite(p.side)) == 0 && p.pieces(p.side) != 0)
    return invalid(why, "the side not to move has no pieces: the game ended before this position");
  if (p.occupied() == 0) return invalid(why, "the board is empty");
  out = p;
  return DTB_OK;
}

dtb_position to_c(const Position& p) {
  return dtb_position{to_dense(p.white), to_dense(p.black), to_dense(p.kings),
                      p.side == Color::White ? std::uint32_t{DTB_WHITE} : std::uint32_t{DTB_BLACK}};
}

dtb_move to_c(const Move& m) {
  dtb_move out{};
  out.from = static_cast<std::uint8_t>(m.from_square());
  out.to = static_cast<std::uint8_t>(m.to_square());
  out.captured = to_dense(m.captured);
  out.wdl = DTB_LOSS;
  out.keeps_best = 0;
  return out;
}

bool find_move(const Position& p, const dtb_move& m, Move& out) {
  MoveList moves;
  generate_moves(p, moves);
  for (const Move& candidate : moves) {
    if (candidate.from_square() == m.from && candidate.to_square() == m.to &&
        to_dense(candidate.captured) == m.captured) {
      out = candidate;
      return true;
    }
  }
  return false;
}

}  // namespace dtb::probe
