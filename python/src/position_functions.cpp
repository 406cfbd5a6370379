#include "position_functions.h"

#include <cstdio>
#include <string>
#include <vector>

#include "move_list.h"
#include "status_error.h"

namespace dtb::python {

namespace py = pybind11;

namespace {

dtb_position parse_fen(const std::string& fen) {
  dtb_position p{};
  dtb_error e{};
  check(dtb_position_from_fen(fen.c_str(), &p, &e), e, "fen");
  return p;
}

// Every position from Python passes through here or parse_fen: the C API
// validates positions on every call, this just reports why early.
dtb_position validated(std::uint64_t white, std::uint64_t black, std::uint64_t kings, int side) {
  const dtb_position p{white, black, kings, static_cast<std::uint32_t>(side)};
  if (side != DTB_WHITE && side != DTB_BLACK) {
    dtb_error e{};
    std::snprintf(e.message, sizeof e.message, "invalid position: side to move %d is neither 0 (white) nor 1 (black)",
                  side);
    throw_status(DTB_INVALID_POSITION, e);
  }
  // dtb_legal_moves is the cheapest call that validates with a message.
  std::size_t count = 0;
  dtb_error e{};
  const dtb_status s = dtb_legal_moves(&p, nullptr, 0, &count, &e);
  if (s == DTB_INVALID_POSITION) throw_status(s, e);
  return p;
}

std::string to_fen(const dtb_position& p) {
  char buffer[256];
  check(dtb_position_to_fen(&p, buffer, sizeof buffer), dtb_error{});
  return buffer;
}

py::list legal_moves(const dtb_position& p) {
  std::vector<dtb_move> moves;
  dtb_error e{};
  check(collect_moves(moves, [&](dtb_move* out, std::size_t capacity, std::size_t* count) {
          return dtb_legal_moves(&p, out, capacity, count, &e);
        }),
        e);
  py::list out;
  for (const dtb_move& m : moves) out.append(move_tuple(p, m));
  return out;
}

py::tuple parse_move(const dtb_position& p, const std::string& text) {
  dtb_move m{};
  dtb_error e{};
  check(dtb_move_from_string(&p, text.c_str(), &m, &e), e, "move");
  return move_tuple(p, m);
}

dtb_position make_move(const dtb_position& p, int from, int to, std::uint64_t captured) {
  const dtb_move m = move_from_parts(from, to, captured);
  dtb_position after{};
  const dtb_status s = dtb_make_move(&p, &m, &after);
  if (s != DTB_OK) {
    dtb_error e{};
    std::snprintf(e.message, sizeof e.message, "%d-%d (captured bitboard %#llx) is not a legal move in %s", from, to,
                  static_cast<unsigned long long>(captured), to_fen(p).c_str());
    throw_status(s, e, "move");
  }
  return after;
}

// Both draw-rule counts after a legal move (dtb_counts_after).
py::tuple counts_after(const dtb_position& p, int from, int to, std::uint64_t captured, int plies_since_conversion,
                       int plies_in_class) {
  const dtb_move m = move_from_parts(from, to, captured);
  int since = 0, in_class = 0;
  if (dtb_counts_after(&p, &m, plies_since_conversion, plies_in_class, &since, &in_class) != DTB_OK) {
    dtb_error e{};
    std::snprintf(e.message, sizeof e.message, "%d-%d is not a legal move in %s", from, to, to_fen(p).c_str());
    throw_status(DTB_INVALID_ARGUMENT, e, "move");
  }
  return py::make_tuple(since, in_class);
}

}  // namespace

dtb_move move_from_parts(int from, int to, std::uint64_t captured) {
  dtb_move m{};
  m.from = static_cast<std::uint8_t>(from < 0 || from > 255 ? 0 : from);  // 0 is no square: never legal
  m.to = static_cast<std::uint8_t>(to < 0 || to > 255 ? 0 : to);
  m.captured = captured;
  return m;
}

py::tuple move_tuple(const dtb_position& before, const dtb_move& move) {
  char text[128];
  check(dtb_move_to_string(&before, &move, text, sizeof text), dtb_error{});
  return py::make_tuple(static_cast<int>(move.from), static_cast<int>(move.to), move.captured, std::string(text));
}

void bind_position_functions(py::module_& m) {
  py::class_<dtb_position>(m, "RawPosition", "dtb_position of the C API: bitboards (bit s-1 = square s) and side")
      .def(py::init(&validated), py::arg("white"), py::arg("black"), py::arg("kings"), py::arg("side_to_move"),
           "Validate and build (InvalidPositionError with the reason otherwise).")
      .def_readonly("white", &dtb_position::white)
      .def_readonly("black", &dtb_position::black)
      .def_readonly("kings", &dtb_position::kings)
      .def_readonly("side_to_move", &dtb_position::side_to_move)
      .def("__eq__",
           [](const dtb_position& a, const dtb_position& b) {
             return a.white == b.white && a.black == b.black && a.kings == b.kings &&
                    a.side_to_move == b.side_to_move;
           })
      .def("__hash__", [](const dtb_position& p) {
        return py::hash(py::make_tuple(p.white, p.black, p.kings, p.side_to_move));
      });
  m.def("parse_fen", &parse_fen, py::arg("fen"), "Parse a PDN FEN (InvalidFenError otherwise).");
  m.def("to_fen", &to_fen, py::arg("position"), "Canonical FEN.");
  m.def("legal_moves", &legal_moves, py::arg("position"), "Legal moves as (from, to, captured, text) tuples.");
  m.def("parse_move", &parse_move, py::arg("position"), py::arg("text"),
        "The legal move that FMJD text names, as (from, to, captured, text) (IllegalMoveError otherwise).");
  m.def("make_move", &make_move, py::arg("position"), py::arg("from_square"), py::arg("to_square"),
        py::arg("captured"), "The position after a legal move (IllegalMoveError otherwise).");
  m.def("class_limit", [](const dtb_position& p) { return dtb_class_limit(&p); }, py::arg("position"),
        "Plies the 6.3/6.4 class of the position allows: 32, 10, or 0 outside them (dtb_class_limit).");
  m.def("counts_after", &counts_after, py::arg("position"), py::arg("from_square"), py::arg("to_square"),
        py::arg("captured"), py::arg("plies_since_conversion"), py::arg("plies_in_class"),
        "(plies_since_conversion, plies_in_class) after a legal move (dtb_counts_after).");
}

}  // namespace dtb::python
