#include "gen/cluster_plan.h"

#include <algorithm>
#include <queue>
#include <set>
#include <vector>

#include "gen/cost_model.h"
#include "gen/table_builder.h"
#include "gen/unit_dag.h"
#include "gen/unit_solver.h"
#include "index/plan.h"
#include "index/position_index.h"

namespace dtb::gen {
namespace {

double table_bytes(const Material& m) {
  return static_cast<double>(PositionIndex(m).size()) * kDiskBitsPerPosition / 8;
}

double positions_of_unit(const Material& m) { return static_cast<double>(unit_positions(unit_of(m))); }

struct Event {
  double time;
  int worker;
  std::size_t unit;
  bool operator>(const Event& o) const { return time > o.time; }
};

// Ready units, highest priority first, ties in build order.
struct ByPriority {
  const UnitDag* dag;
  bool operator()(std::size_t a, std::size_t b) const {
    if (dag->priority[a] != dag->priority[b]) return dag->priority[a] < dag->priority[b];
    return a > b;
  }
};

}  // namespace

ClusterPlan plan_cluster_build(int max_pieces, int ranks, int threads, double bandwidth) {
  ClusterPlan plan;
  plan.ranks = ranks, plan.threads = threads;
  BuildOptions options;
  options.max_pieces = max_pieces;
  const std::vector<Material> units = units_to_build(options);
  const double rate = kSolvePositionsPerThreadSecond * threads, write_rate = kWritePositionsPerThreadSecond * threads;
  const UnitDag dag = make_unit_dag(units, [&](const Material& m) {
    return positions_of_unit(m) / rate + positions_of_unit(m) / write_rate;
  });
  plan.units = static_cast<int>(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) plan.critical_path = std::max(plan.critical_path, dag.priority[i]);

  const int workers = std::max(1, ranks - 1);
  std::vector<std::set<Material>> holds(static_cast<std::size_t>(workers));
  std::vector<int> waiting(units.size());
  std::vector<std::vector<std::size_t>> waited_by(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    waiting[i] = static_cast<int>(dag.waits_for[i].size());
    for (const std::size_t j : dag.waits_for[i]) waited_by[j].push_back(i);
  }
  std::priority_queue<std::size_t, std::vector<std::size_t>, ByPriority> ready(ByPriority{&dag});
  for (std::size_t i = 0; i < units.size(); ++i)
    if (waiting[i] == 0) ready.push(i);
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> running;
  std::vector<int> idle;
  for (int w = workers; w-- > 0;) idle.push_back(w);
  double now = 0, busy = 0, coordinator_free = 0;
  std::size_t done = 0;
  while (done < units.size()) {
    while (!idle.empty() && !ready.empty()) {
      const std::size_t u = ready.top();
      ready.pop();
      const int w = idle.back();
      idle.pop_back();
      double bytes = 0;  // the closure's files the worker lacks, then the unit's tables back
      for (const Material& t : dag.reads[u])
        if (holds[static_cast<std::size_t>(w)].insert(t).second) bytes += table_bytes(t);
      for (const Material& t : unit_of(units[u])) {
        holds[static_cast<std::size_t>(w)].insert(t);
        bytes += table_bytes(t);
      }
      plan.bytes_sent += bytes;
      // The coordinator sends one file at a time: transfers queue behind it.
      const double start = std::max(now, coordinator_free) + bytes / bandwidth;
      coordinator_free = start;
      busy += dag.work[u];
      running.push({start + dag.work[u], w, u});
    }
    if (running.empty()) break;  // cannot happen: build order is topological
    const Event e = running.top();
    running.pop();
    now = e.time;
    idle.push_back(e.worker);
    ++done;
    for (const std::size_t v : waited_by[e.unit])
      if (--waiting[v] == 0) ready.push(v);
  }
  plan.seconds = now;
  plan.busy_fraction = now > 0 ? busy / (now * workers) : 0;
  std::uint64_t largest = 0;
  double largest_table = 0;
  for (const Material& m : units) {
    largest = std::max(largest, unit_memory(m).total());
    for (const Material& t : unit_of(m)) largest_table = std::max(largest_table, table_bytes(t));
  }
  plan.worker_memory = largest + kOverheadBytes + kMinCacheBytes;
  plan.coordinator_memory = kOverheadBytes + static_cast<std::uint64_t>(largest_table);
  return plan;
}

}  // namespace dtb::gen
