// Notation (FMJD article 8): PDN FEN positions and move strings.
//
// FEN: `W:W31,32,K45:B1,2,K3` - side to move, then each colour's pieces with
// kings prefixed by K. Ranges (`W31-35`, `K1-3`), either colour's list first,
// spaces, and a trailing `.` are accepted. Double-quoted FEN (as in PDN tags)
// is accepted too.
//
// Moves: `32-28` for a quiet move, `28x19` for a capture. When two legal
// captures share start and end squares, the written form adds the captured
// squares in ascending order in parentheses: `37x37(14,19,32,41)`. Parsing
// accepts that form and the landing-square form `28x19x10` (start first,
// end last; the squares between must not be needed to tell moves apart).
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "rules/movegen.h"
#include "rules/position.h"

namespace dtb {

/// Parse a FEN. On failure returns nullopt and, if `error` is given, a precise
/// message (which square, which rule).
std::optional<Position> parse_fen(std::string_view text, std::string* error = nullptr);

/// Write a FEN in canonical form: side, White's list then Black's, each
/// in ascending square order, kings prefixed with K (e.g. `W:W31,K45:B1,K3`).
std::string to_fen(const Position& pos);

/// Write a move. `pos` is the position before the move; it is needed to know
/// whether the captured squares must be named to tell the move apart.
std::string move_to_string(const Position& pos, const Move& m);

/// Find the legal move that `text` names. nullopt (with a message) if it names
/// no legal move or more than one.
std::optional<Move> parse_move(const Position& pos, std::string_view text,
                               std::string* error = nullptr);

}  // namespace dtb
