#include "rules/notation.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace dtb {
namespace {

void set_error(std::string* error, std::string message) {
  if (error) *error = std::move(message);
}

// A tiny cursor over the text, skipping blanks between tokens.
struct Cursor {
  std::string_view s;
  std::size_t i = 0;

  void skip_blanks() {
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  }
  bool at_end() {
    skip_blanks();
    return i >= s.size();
  }
  char peek() {
    skip_blanks();
    return i < s.size() ? s[i] : '\0';
  }
  bool accept(char c) {
    if (peek() != c) return false;
    ++i;
    return true;
  }
  // A decimal number of at most 3 digits; -1 when there is none.
  int number() {
    skip_blanks();
    int value = 0, digits = 0;
    while (i < s.size() && std::isdigit(static_cast<unsigned char>(s[i])) && digits < 4) {
      value = value * 10 + (s[i] - '0');
      ++i;
      ++digits;
    }
    return digits ? value : -1;
  }
};

std::string side_name(Color c) { return c == Color::White ? "white" : "black"; }

// Place one piece, checking the square and the men's legal rows.
bool place(Position& pos, Color c, bool king, int sq, std::string* error) {
  if (sq < 1 || sq > kSquares) {
    set_error(error, "square " + std::to_string(sq) + " is out of range (1-50)");
    return false;
  }
  const Bitboard b = square_bb(sq);
  if (pos.occupied() & b) {
    set_error(error, "square " + std::to_string(sq) + " is used twice");
    return false;
  }
  if (!king && (b & promotion_row(c))) {
    set_error(error, "a " + side_name(c) + " man cannot stand on square " + std::to_string(sq) +
                         " (its promotion row)");
    return false;
  }
  (c == Color::White ? pos.white : pos.black) |= b;
  if (king) pos.kings |= b;
  return true;
}

// One colour's list after its W/B letter: items separated by commas, each an
// optional K then a square or a range of squares.
bool parse_piece_list(Cursor& cur, Position& pos, Color c, std::string* error) {
  if (cur.peek() == ':' || cur.at_end() || cur.peek() == '.') return true;  // no pieces
  for (;;) {
    const bool king = cur.accept('K') || cur.accept('k');
    const int first = cur.number();
    if (first < 0) {
      set_error(error, "expected a square number in " + side_name(c) + "'s list at position " +
                           std::to_string(cur.i + 1));
      return false;
    }
    int last = first;
    if (cur.accept('-')) {
      last = cur.number();
      if (last < 0 || last < first) {
        set_error(error, "bad range starting at square " + std::to_string(first));
        return false;
      }
    }
    for (int sq = first; sq <= last; ++sq)
      if (!place(pos, c, king, sq, error)) return false;
    if (!cur.accept(',')) return true;
  }
}

}  // namespace

std::optional<Position> parse_fen(std::string_view text, std::string* error) {
  // Accept the PDN tag form with surrounding double quotes.
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.remove_suffix(1);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) text.remove_prefix(1);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"') text = text.substr(1, text.size() - 2);

  Cursor cur{text};
  Position pos;
  const char side = cur.peek();
  if (side == 'W' || side == 'w')
    pos.side = Color::White;
  else if (side == 'B' || side == 'b')
    pos.side = Color::Black;
  else {
    set_error(error, "FEN must start with the side to move, W or B");
    return std::nullopt;
  }
  ++cur.i;
  bool seen[2] = {false, false};
  while (cur.accept(':')) {
    const char letter = cur.peek();
    Color c;
    if (letter == 'W' || letter == 'w')
      c = Color::White;
    else if (letter == 'B' || letter == 'b')
      c = Color::Black;
    else {
      set_error(error, "expected W or B after ':' at position " + std::to_string(cur.i + 1));
      return std::nullopt;
    }
    ++cur.i;
    if (seen[static_cast<int>(c)]) {
      set_error(error, side_name(c) + "'s pieces are listed twice");
      return std::nullopt;
    }
    seen[static_cast<int>(c)] = true;
    if (!parse_piece_list(cur, pos, c, error)) return std::nullopt;
  }
  cur.accept('.');
  if (!cur.at_end()) {
    set_error(error, "unexpected text at position " + std::to_string(cur.i + 1) + ": '" +
                         std::string(text.substr(cur.i)) + "'");
    return std::nullopt;
  }
  if (!seen[0] || !seen[1]) {
    set_error(error, "FEN must list both colours (e.g. W:W31,32:B1,2)");
    return std::nullopt;
  }
  return pos;
}

std::string to_fen(const Position& pos) {
  std::string out = pos.side == Color::White ? "W" : "B";
  for (Color c : {Color::White, Color::Black}) {
    out += c == Color::White ? ":W" : ":B";
    bool first = true;
    for (int sq = 1; sq <= kSquares; ++sq) {
      const Bitboard b = square_bb(sq);
      if (!(pos.pieces(c) & b)) continue;
      if (!first) out += ',';
      first = false;
      if (pos.kings & b) out += 'K';
      out += std::to_string(sq);
    }
  }
  return out;
}

namespace {

std::vector<int> captured_squares(const Move& m) {
  std::vector<int> squares;
  for (Bitboard b = m.captured; b;) squares.push_back(square_of_bit(pop_lsb(b)));
  return squares;  // ascending, since square order follows bit order
}

}  // namespace

std::string move_to_string(const Position& pos, const Move& m) {
  std::string out = std::to_string(m.from_square()) + (m.is_capture() ? "x" : "-") +
                    std::to_string(m.to_square());
  if (!m.is_capture()) return out;
  MoveList list;
  generate_moves(pos, list);
  const bool ambiguous = std::any_of(list.begin(), list.end(), [&](const Move& o) {
    return o.from == m.from && o.to == m.to && o.captured != m.captured;
  });
  if (ambiguous) {
    out += '(';
    bool first = true;
    for (int sq : captured_squares(m)) {
      if (!first) out += ',';
      first = false;
      out += std::to_string(sq);
    }
    out += ')';
  }
  return out;
}

std::optional<Move> parse_move(const Position& pos, std::string_view text, std::string* error) {
  Cursor cur{text};
  std::vector<int> path;  // start, landing squares..., end
  std::vector<int> named;  // captured squares in parentheses
  bool capture = false;
  for (;;) {
    const int sq = cur.number();
    if (sq < 1 || sq > kSquares) {
      set_error(error, "bad move '" + std::string(text) + "': expected a square 1-50");
      return std::nullopt;
    }
    path.push_back(sq);
    if (cur.accept('x') || cur.accept('X') || cur.accept(':')) {
      capture = true;
      continue;
    }
    if (path.size() == 1 && cur.accept('-')) continue;
    break;
  }
  if (cur.accept('(')) {
    for (;;) {
      const int sq = cur.number();
      if (sq < 1 || sq > kSquares) {
        set_error(error, "bad captured square list in '" + std::string(text) + "'");
        return std::nullopt;
      }
      named.push_back(sq);
      if (!cur.accept(',')) break;
    }
    if (!cur.accept(')')) {
      set_error(error, "missing ')' in '" + std::string(text) + "'");
      return std::nullopt;
    }
  }
  if (!cur.at_end() || path.size() < 2) {
    set_error(error, "bad move '" + std::string(text) + "'");
    return std::nullopt;
  }
  Bitboard named_bb = 0;
  for (int sq : named) named_bb |= square_bb(sq);

  MoveList list;
  generate_moves(pos, list);
  std::vector<Move> matches;
  for (const Move& m : list) {
    if (m.from_square() != path.front() || m.to_square() != path.back()) continue;
    if (m.is_capture() != capture) continue;
    if (!named.empty() && m.captured != named_bb) continue;
    matches.push_back(m);
  }
  if (matches.size() == 1) return matches.front();
  set_error(error, matches.empty() ? "'" + std::string(text) + "' is not a legal move"
                                   : "'" + std::string(text) +
                                         "' is ambiguous: name the captured squares, e.g. " +
                                         move_to_string(pos, matches.front()));
  return std::nullopt;
}

}  // namespace dtb
