#include "drawrules/dtw_builder.h"

#include <algorithm>
#include <chrono>
#include <set>
#include <stdexcept>

#include "drawrules/distance_solve.h"

namespace dtb {

std::vector<Material> dependency_closure(const std::vector<Material>& targets) {
  std::set<Material> seen;
  std::vector<Material> todo;
  int max_pieces = 2;
  for (const Material& m : targets) todo.push_back(m);
  while (!todo.empty()) {
    const Material m = todo.back();
    todo.pop_back();
    for (const Material& x : {m, m.reversed()}) {
      if (!seen.insert(x).second) continue;
      max_pieces = std::max(max_pieces, x.pieces());
      for (const Material& d : direct_dependencies(x)) todo.push_back(d);
    }
  }
  std::vector<Material> ordered;
  for (const Material& m : materials_in_build_order(max_pieces))
    if (seen.count(m)) ordered.push_back(m);
  return ordered;
}

// A unit is M and reversed(M); the build order keeps them adjacent.
static std::vector<std::vector<Material>> units_of(const std::vector<Material>& materials) {
  std::vector<std::vector<Material>> units;
  std::set<Material> done;
  for (const Material& m : materials) {
    if (done.count(m)) continue;
    std::vector<Material> unit{m};
    if (!m.symmetric()) unit.push_back(m.reversed());
    for (const Material& x : unit) done.insert(x);
    units.push_back(unit);
  }
  return units;
}

TableSet build_dtw(const std::vector<Material>& materials, const Progress& progress) {
  TableSet dtw(TableKind::Dtw);
  for (const std::vector<Material>& unit : units_of(materials)) {
    const auto start = std::chrono::steady_clock::now();
    for (const Material& m : unit)
      for (const Material& d : direct_dependencies(m))
        if (!dtw.contains(d))
          throw std::logic_error("build_dtw: " + m.name() + " needs " + d.name() + " first");
    // Every successor outside the unit (capture or promotion) is a solved
    // material: its dtw is final, so it enters the solver as a fixed distance.
    const TableSet& solved = dtw;
    const ExitOutcome exits = [&solved](const Position& w) { return decode_dtw(*solved.lookup(w)); };
    solve_into(unit[0], exits, encode_dtw, dtw);
    if (progress) {
      std::uint64_t positions = 0;
      for (const Material& m : unit) positions += dtw.values(m).size();
      const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress(unit[0].name() + ": " + std::to_string(positions) + " positions, " +
               std::to_string(s) + " s");
    }
  }
  return dtw;
}

TableSet build_dtw_up_to(int max_pieces, const Progress& progress) {
  return build_dtw(materials_in_build_order(max_pieces), progress);
}

}  // namespace dtb
