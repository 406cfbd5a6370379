#include "gen/unit_dag.h"

#include <algorithm>
#include <map>
#include <set>

#include "solver/unit_solver.h"

namespace dtb::gen {

std::vector<Material> tables_read_by(const Material& m) {
  const std::vector<Material> own = unit_of(m);
  std::set<Material> seen;
  std::vector<Material> todo;
  for (const Material& t : own)
    for (const Material& d : direct_dependencies(t)) todo.push_back(d);
  while (!todo.empty()) {
    const Material d = todo.back();
    todo.pop_back();
    if (std::find(own.begin(), own.end(), d) != own.end() || !seen.insert(d).second) continue;
    for (const Material& e : direct_dependencies(d)) todo.push_back(e);
  }
  return {seen.begin(), seen.end()};
}

UnitDag make_unit_dag_structure(const std::vector<Material>& units) {
  UnitDag dag;
  dag.units = units;
  std::map<Material, std::size_t> unit_index;
  for (std::size_t i = 0; i < units.size(); ++i)
    for (const Material& t : unit_of(units[i])) unit_index[t] = i;
  for (std::size_t i = 0; i < units.size(); ++i) {
    dag.reads.push_back(tables_read_by(units[i]));
    std::set<std::size_t> waits;
    for (const Material& t : dag.reads.back())
      if (const auto it = unit_index.find(t); it != unit_index.end()) waits.insert(it->second);
    dag.waits_for.emplace_back(waits.begin(), waits.end());
  }
  dag.work.assign(units.size(), 1.0);
  set_priorities(dag);
  return dag;
}

void set_priorities(UnitDag& dag) {
  // Build order is a topological order (a unit comes after all it reads),
  // so one backward sweep sees every waiting unit before the unit it waits for.
  dag.priority = dag.work;
  for (std::size_t i = dag.units.size(); i-- > 0;)
    for (const std::size_t j : dag.waits_for[i])
      dag.priority[j] = std::max(dag.priority[j], dag.work[j] + dag.priority[i]);
}

}  // namespace dtb::gen
