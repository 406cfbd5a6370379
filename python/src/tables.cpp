#include "tables.h"

#include <cstdio>
#include <vector>

#include "move_list.h"
#include "position_functions.h"
#include "status_error.h"

namespace dtb::python {

namespace py = pybind11;

Tables::Tables(const std::string& directory, std::size_t cache_bytes) {
  dtb_tables* raw = nullptr;
  dtb_error e{};
  check(dtb_open(directory.c_str(), cache_bytes, &raw, &e), e);
  handle_.reset(raw, dtb_close);
}

int Tables::max_pieces() const { return dtb_max_pieces(handle().get()); }

std::shared_ptr<dtb_tables> Tables::handle() const {
  if (!handle_) {
    dtb_error e{};
    std::snprintf(e.message, sizeof e.message, "the tablebase is closed");
    throw_status(DTB_INVALID_ARGUMENT, e, "closed");
  }
  return handle_;
}

namespace {

int probe_wdl(const Tables& t, const dtb_position& p) {
  dtb_wdl v;
  dtb_error e{};
  check(dtb_probe_wdl(t.handle().get(), &p, &v, &e), e);
  return signed_wdl(v);
}

// An int of the C API, or None for DTB_UNKNOWN (and DTB_NOT_COUNTED, the
// same -1): Python's spelling of "none".
py::object int_or_none(int v) { return v == DTB_UNKNOWN ? py::object(py::none()) : py::object(py::int_(v)); }

// (wdl, plies) of dtb_probe_dtw, dtb_probe_mtc or dtb_probe_rule_budget; a
// draw's plies None in all three (a draw has no distance).
template <dtb_status (*Probe)(dtb_tables*, const dtb_position*, dtb_wdl*, int*, dtb_error*)>
py::tuple probe_distance(const Tables& t, const dtb_position& p) {
  dtb_wdl v;
  int plies = 0;
  dtb_error e{};
  check(Probe(t.handle().get(), &p, &v, &plies, &e), e);
  return py::make_tuple(signed_wdl(v), int_or_none(plies));
}

int probe_rules(const Tables& t, const dtb_position& p, int plies_since_conversion, int plies_in_class) {
  dtb_wdl v;
  dtb_error e{};
  check(dtb_probe_rules(t.handle().get(), &p, plies_since_conversion, plies_in_class, &v, &e), e);
  return signed_wdl(v);
}

// The move tuple `choose(handle, move, error)` gives (dtb_best_move,
// dtb_best_move_rules or dtb_best_move_rule), or None when the side to move has no legal move.
template <class Choose>
py::object chosen_move(const Tables& t, const dtb_position& p, Choose choose) {
  const std::shared_ptr<dtb_tables> handle = t.handle();
  dtb_move m{};
  dtb_error e{};
  const dtb_status s = choose(handle.get(), m, e);
  if (s == DTB_GAME_OVER) return py::none();
  check(s, e);
  return move_tuple(p, m);
}

py::object best_move(const Tables& t, const dtb_position& p) {
  return chosen_move(t, p, [&](dtb_tables* h, dtb_move& m, dtb_error& e) { return dtb_best_move(h, &p, &m, &e); });
}

// dtb_best_move_counted: in a 6.3/6.4 class the class count decides.
py::object best_move_rules(const Tables& t, const dtb_position& p, int plies_since_conversion, int plies_in_class) {
  const dtb_counts counts{plies_since_conversion, plies_in_class};
  return chosen_move(t, p, [&](dtb_tables* h, dtb_move& m, dtb_error& e) {
    return dtb_best_move_counted(h, &p, &counts, &m, &e);
  });
}

py::object best_move_rule(const Tables& t, const dtb_position& p, int plies_in_class) {
  return chosen_move(t, p, [&](dtb_tables* h, dtb_move& m, dtb_error& e) {
    return dtb_best_move_rule(h, &p, plies_in_class, &m, &e);
  });
}

int probe_rule(const Tables& t, const dtb_position& p, int plies_in_class) {
  dtb_wdl v;
  dtb_error e{};
  check(dtb_probe_rule(t.handle().get(), &p, plies_in_class, &v, &e), e);
  return signed_wdl(v);
}

// One ply more than the distance `Probe` (dtb_probe_dtw or dtb_probe_mtc)
// gives the position `move` leads to: the mover's distance through the move;
// None for a draw or without that table.
template <dtb_status (*Probe)(dtb_tables*, const dtb_position*, dtb_wdl*, int*, dtb_error*)>
py::object one_more_than_after(dtb_tables* tables, const dtb_position& before, const dtb_move& move) {
  dtb_position after{};
  check(dtb_make_move(&before, &move, &after), dtb_error{});
  dtb_wdl v;
  int plies = 0;
  dtb_error e{};
  const dtb_status s = Probe(tables, &after, &v, &plies, &e);
  if (s == DTB_TABLE_MISSING) return py::none();
  check(s, e);
  if (v == DTB_DRAW) return py::none();
  return py::int_(plies + 1);
}

// The mover's plies to the next conversion through `move` (its value `wdl`
// for the mover): 1 if it captures or moves a man, else one more than the
// MTC after it; None for a draw or without that .mtc table.
py::object move_mtc(dtb_tables* tables, const dtb_position& before, const dtb_move& move, dtb_wdl wdl) {
  if (wdl == DTB_DRAW) return py::none();
  const bool man = ((before.kings >> (move.from - 1)) & 1) == 0;
  if (move.captured != 0 || man) return py::int_(1);
  return one_more_than_after<dtb_probe_mtc>(tables, before, move);
}

// A dtb_wdl of the root probe as -1/0/1, None for DTB_UNKNOWN_WDL.
py::object wdl_or_none(dtb_wdl v) {
  return v == DTB_UNKNOWN_WDL ? py::object(py::none()) : py::object(py::int_(signed_wdl(v)));
}

// dtb_probe_root: every legal move, best first, as (from, to, captured,
// text, wdl, keeps_best, mtc, counted wdl, plies_since_conversion after,
// plies_in_class after), the values for the mover and None where unknown
// or not counted. `counted`: whether the counts apply (else NULL counts).
py::list probe_root(const Tables& t, const dtb_position& p, bool counted, int plies_since_conversion,
                    int plies_in_class) {
  const std::shared_ptr<dtb_tables> handle = t.handle();
  const dtb_counts counts{plies_since_conversion, plies_in_class};
  std::vector<dtb_root_move> moves(64);
  std::size_t count = 0;
  dtb_error e{};
  const auto call = [&] {
    return dtb_probe_root(handle.get(), &p, counted ? &counts : nullptr, moves.data(), moves.size(), &count, &e);
  };
  dtb_status s = call();
  if (s == DTB_INVALID_ARGUMENT && count > moves.size()) {  // more moves than room: once more
    moves.resize(count);
    s = call();
  }
  check(s, e);
  py::list out;
  for (std::size_t i = 0; i < count; ++i) {
    const dtb_root_move& m = moves[i];
    const py::tuple move = move_tuple(p, m.move);
    out.append(py::make_tuple(move[0], move[1], move[2], move[3], wdl_or_none(m.move.wdl), m.move.keeps_best != 0,
                              int_or_none(m.mtc), wdl_or_none(m.counted_wdl),
                              int_or_none(m.counts_after.plies_since_conversion),
                              int_or_none(m.counts_after.plies_in_class)));
  }
  return out;
}

// Every legal move as (from, to, captured, text, wdl, keeps_best, dtw, mtc),
// the values from the mover's view; the distances only if asked (each costs
// a probe a move).
py::list probe_moves(const Tables& t, const dtb_position& p, bool with_dtw, bool with_mtc) {
  const std::shared_ptr<dtb_tables> handle = t.handle();
  std::vector<dtb_move> moves;
  dtb_error e{};
  check(collect_moves(moves, [&](dtb_move* out, std::size_t capacity, std::size_t* count) {
          return dtb_probe_moves(handle.get(), &p, out, capacity, count, nullptr, &e);
        }),
        e);
  py::list out;
  for (const dtb_move& m : moves) {
    const py::tuple move = move_tuple(p, m);
    out.append(py::make_tuple(move[0], move[1], move[2], move[3], signed_wdl(m.wdl), m.keeps_best != 0,
                              with_dtw ? one_more_than_after<dtb_probe_dtw>(handle.get(), p, m) : py::none(),
                              with_mtc ? move_mtc(handle.get(), p, m, m.wdl) : py::none()));
  }
  return out;
}

}  // namespace

py::class_<Tables> bind_tables(py::module_& m) {
  py::class_<Tables> tables(m, "Tables", "An open table directory (dtb_tables of the C API).");
  tables.def(py::init<const std::string&, std::size_t>(), py::arg("directory"), py::arg("cache_bytes"))
      .def("close", &Tables::close, "Release the handle (probes still running finish first).")
      .def_property_readonly("closed", &Tables::closed)
      .def_property_readonly("max_pieces", &Tables::max_pieces)
      .def("probe_wdl", &probe_wdl, py::arg("position"), "WDL for the side to move: -1, 0, 1.")
      .def("probe_dtw", &probe_distance<dtb_probe_dtw>, py::arg("position"), "(wdl, plies) from the .dtw tables.")
      .def("probe_rule", &probe_rule, py::arg("position"), py::arg("plies_in_class"),
           "WDL under the 6.3/6.4 draw limits after plies_in_class plies in the class.")
      .def("probe_rule_budget", &probe_distance<dtb_probe_rule_budget>, py::arg("position"),
           "(result, plies): the .rule table's budget of the position.")
      .def("probe_mtc", &probe_distance<dtb_probe_mtc>, py::arg("position"), "(wdl, plies to the next conversion) from the .mtc tables.")
      .def("best_move", &best_move, py::arg("position"),
           "dtb_best_move: (from, to, captured, text) of perfect play, None without a legal move.")
      .def("probe_rules", &probe_rules, py::arg("position"), py::arg("plies_since_conversion"),
           py::arg("plies_in_class"), "WDL under article 6.2 (and 6.3/6.4 in their classes): dtb_probe_rules.")
      .def("best_move_rules", &best_move_rules, py::arg("position"), py::arg("plies_since_conversion"),
           py::arg("plies_in_class"),
           "dtb_best_move_counted: the move of perfect play under the draw rules, None without a legal move.")
      .def("probe_root", &probe_root, py::arg("position"), py::arg("counted"), py::arg("plies_since_conversion"),
           py::arg("plies_in_class"),
           "dtb_probe_root: every legal move best first, as (from, to, captured, text, wdl, keeps_best, mtc, "
           "counted wdl, plies_since_conversion after, plies_in_class after), None where unknown.")
      .def("best_move_rule", &best_move_rule, py::arg("position"), py::arg("plies_in_class"),
           "dtb_best_move_rule: the move of perfect play in a 6.3/6.4 class under its count, None without a "
           "legal move.")
      .def("probe_moves", &probe_moves, py::arg("position"), py::arg("with_dtw"), py::arg("with_mtc"),
           "Legal moves as (from, to, captured, text, wdl, keeps_best, dtw or None, mtc or None), mover's view.");
  return tables;
}

}  // namespace dtb::python
