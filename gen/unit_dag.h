// The units of a build as a graph of who waits for whom, for schedulers that
// solve independent units at the same time: the distributed build
// (cluster/distributed_build.h) and its cost model (cluster/cluster_plan.h).
//
// A unit reads, while it is solved, its direct dependencies (captures and
// promotions lead there) and, through them, whatever the probe reads to
// resolve their "don't care" capture positions: the closure of its
// dependencies. So a unit waits for every unit to build that holds a
// material of that closure, and a process that solves it needs every table
// of the closure (`reads`), not only the direct ones.
#pragma once

#include <cstdint>
#include <vector>

#include "index/material.h"

namespace dtb::gen {

struct UnitDag {
  std::vector<Material> units;                      // in build order, each unit's first material
  std::vector<std::vector<std::size_t>> waits_for;  // per unit: indices of the units it reads
  std::vector<std::vector<Material>> reads;         // per unit: the tables it may read (not its own)
  std::vector<double> work;                         // per unit: its cost, in the scheduler's measure
  /// Per unit: its work plus the most work of any chain of units that wait
  /// for it. Scheduling the ready unit with the largest first keeps the
  /// longest chain moving (critical-path list scheduling).
  std::vector<double> priority;
};

/// The graph of `units` (each unit's first material, in build order), with
/// `work_of` giving each unit's cost.
template <typename WorkOf>
UnitDag make_unit_dag(const std::vector<Material>& units, WorkOf work_of);

/// The materials of the closure of `m`'s dependencies, without m's own unit.
std::vector<Material> tables_read_by(const Material& m);

/// Fill dag.priority from dag.work and dag.waits_for.
void set_priorities(UnitDag& dag);

/// The graph of `units` without costs (work 1 each).
UnitDag make_unit_dag_structure(const std::vector<Material>& units);

template <typename WorkOf>
UnitDag make_unit_dag(const std::vector<Material>& units, WorkOf work_of) {
  UnitDag dag = make_unit_dag_structure(units);
  for (std::size_t i = 0; i < units.size(); ++i) dag.work[i] = static_cast<double>(work_of(units[i]));
  set_priorities(dag);
  return dag;
}

}  // namespace dtb::gen
