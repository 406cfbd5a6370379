#include "cluster/cluster_plan.h"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <optional>
#include <queue>
#include <set>
#include <vector>

#include "gen/cost_model.h"
#include "solver/slice_order.h"
#include "gen/table_builder.h"
#include "gen/unit_dag.h"
#include "solver/unit_solver.h"
#include "index/plan.h"
#include "index/position_index.h"

namespace dtb::gen {
namespace {

// A table file crosses the network in chunks of this size (cluster/mpi_link.h):
// rank 0 holds one at a time.
constexpr std::uint64_t kChunkInTransit = std::uint64_t{64} << 20;

double table_bytes(const Material& m) {
  return static_cast<double>(PositionIndex(m).size()) * disk_bits_per_position(m.pieces()) / 8;
}

double positions_of_unit(const Material& m) { return static_cast<double>(unit_positions(unit_of(m))); }

// The mean number of level + 1 slices that White's man moves from one slice
// of `t` reach (solver/slice_order.h, man_move_slices), over up to 512 slices
// spread over the table: what a part of t reads, per position, from the
// level above.
double man_move_fanout(const Material& t) {
  const PositionIndex from(t), to(t.reversed());
  const std::uint64_t n = from.slice_count();
  const std::uint64_t samples = std::min<std::uint64_t>(n, 512);
  double total = 0;
  for (std::uint64_t k = 0; k < samples; ++k)
    total += static_cast<double>(man_move_slices(from, to, static_cast<std::uint32_t>(k * n / samples)).size());
  return samples ? total / static_cast<double>(samples) : 0;
}

// Ready units in the order the coordinator takes them: highest priority
// first, ties in build order.
struct HighestFirst {
  const UnitDag* dag;
  bool operator()(std::size_t a, std::size_t b) const {
    if (dag->priority[a] != dag->priority[b]) return dag->priority[a] > dag->priority[b];
    return a < b;
  }
};

// What the model knows of one unit.
struct UnitShape {
  bool split = false;                   // has men: solved in parts
  std::vector<double> level_positions;  // both tables, level a at [a]
  double fanout = 0;                    // level + 1 positions read per position solved
  std::uint64_t coordinator_bytes = 0;  // rank 0's share while it is in parts
};

UnitShape shape_of(const Material& m) {
  UnitShape s;
  s.split = m.men() > 0;
  if (!s.split) return s;
  const std::vector<Material> tables = unit_of(m);
  for (const Material& t : tables) {
    const std::vector<std::uint64_t> levels = positions_by_advancement(t);
    s.level_positions.resize(levels.size());
    for (std::size_t a = 0; a < levels.size(); ++a) s.level_positions[a] += static_cast<double>(levels[a]);
    s.fanout += man_move_fanout(t) / static_cast<double>(tables.size());
  }
  s.coordinator_bytes = coordinator_unit_bytes(m);
  return s;
}

enum class EventKind { PartSolved, PartReturned, PartChecked, WholeUnitDone, UnitWritten };

struct Event {
  double time;
  EventKind kind;
  int worker;  // -1: rank 0's write
  std::size_t unit;
  double positions;  // of a part
  bool operator>(const Event& o) const { return time > o.time; }
};

// A unit being solved in parts.
struct Split {
  int level = 0;
  std::uint64_t parts_left = 0;
  double part_positions = 0;
  int running = 0;
  std::deque<std::pair<double, int>> checks;  // parts to check: positions, the worker that solved it
  int checking = 0;
  bool solved = false;  // every level: the write waits for the checks
};

}  // namespace

std::uint64_t part_positions_target(std::uint64_t level_positions, int workers) {
  const auto w = static_cast<std::uint64_t>(std::max(1, workers));
  return std::clamp<std::uint64_t>(level_positions / (4 * w), std::uint64_t{1} << 12, std::uint64_t{1} << 22);
}

ClusterPlan plan_cluster_build(const ClusterSetup& setup) {
  const int max_pieces = setup.max_pieces, ranks = setup.ranks, threads = setup.threads;
  const double bandwidth = setup.bandwidth;
  ClusterPlan plan;
  plan.ranks = ranks, plan.threads = threads;
  BuildOptions options;
  options.max_pieces = max_pieces;
  const std::vector<Material> units = units_to_build(options);
  const double rate = kSolvePositionsPerThreadSecond * threads;
  const auto write_rate = [&](const Material& m) { return write_positions_per_thread_second(m.pieces()) * threads; };
  // With two workers or more each part is checked by another worker than
  // the one that solved it; with one, rank 0's writing thread checks a unit
  // solved in parts before it writes it.
  const bool spread_checks = ranks >= 3;
  const double check_rate = kCheckPositionsPerThreadSecond * threads;
  const auto check_and_write = [&](const Material& m) {
    return (spread_checks ? 0.0 : positions_of_unit(m) / check_rate) + positions_of_unit(m) / write_rate(m);
  };
  const UnitDag dag = make_unit_dag(
      units, [&](const Material& m) { return positions_of_unit(m) / rate + positions_of_unit(m) / write_rate(m); });
  plan.units = static_cast<int>(units.size());
  const int workers = std::max(1, ranks - 1);
  std::vector<UnitShape> shapes;
  for (const Material& m : units) shapes.push_back(shape_of(m));

  // How a level is cut, and the longest chain when every level is one part
  // deep.
  const auto cut = [&](double level) {
    const double target = static_cast<double>(part_positions_target(static_cast<std::uint64_t>(level), workers));
    const double parts = std::max(1.0, std::ceil(level / target));
    return std::pair{static_cast<std::uint64_t>(parts), level / parts};
  };
  {
    UnitDag chain = dag;
    for (std::size_t u = 0; u < units.size(); ++u) {
      if (!shapes[u].split) continue;
      double seconds = check_and_write(units[u]);
      for (const double level : shapes[u].level_positions)
        seconds += cut(level).second / rate + (spread_checks ? cut(level).second / check_rate : 0.0);
      chain.work[u] = seconds;
    }
    set_priorities(chain);
    for (const double p : chain.priority) plan.critical_path = std::max(plan.critical_path, p);
  }

  std::vector<std::set<Material>> holds(static_cast<std::size_t>(workers));
  std::vector<int> waiting(units.size());
  std::vector<std::vector<std::size_t>> waited_by(units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    waiting[i] = static_cast<int>(dag.waits_for[i].size());
    for (const std::size_t j : dag.waits_for[i]) waited_by[j].push_back(i);
  }
  std::set<std::size_t, HighestFirst> ready(HighestFirst{&dag});
  for (std::size_t i = 0; i < units.size(); ++i)
    if (waiting[i] == 0) ready.insert(i);
  std::map<std::size_t, Split> split;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> events;
  // Idle workers: a stack with lazy deletion (is_idle says who still is),
  // and per unit in parts a stack of the idle workers that hold its closure,
  // which the coordinator prefers (cluster/distributed_build.cpp).
  std::vector<char> is_idle(static_cast<std::size_t>(workers), 1);
  std::size_t idle_count = static_cast<std::size_t>(workers);
  std::vector<int> idle;
  for (int w = workers; w-- > 0;) idle.push_back(w);
  std::vector<std::vector<char>> holder(units.size());  // per unit: which workers hold its closure
  std::map<std::size_t, std::vector<int>> idle_holders;
  const auto take_idle = [&](std::size_t u) {
    int w = -1;
    if (auto it = idle_holders.find(u); it != idle_holders.end())
      while (w < 0 && !it->second.empty()) {
        const int h = it->second.back();
        it->second.pop_back();
        if (is_idle[static_cast<std::size_t>(h)]) w = h;
      }
    while (w < 0) {
      const int h = idle.back();
      idle.pop_back();
      if (is_idle[static_cast<std::size_t>(h)]) w = h;
    }
    is_idle[static_cast<std::size_t>(w)] = 0;
    --idle_count;
    return w;
  };
  const auto make_idle = [&](int w) {
    is_idle[static_cast<std::size_t>(w)] = 1;
    ++idle_count;
    idle.push_back(w);
    for (auto& [u, stack] : idle_holders)
      if (holder[u][static_cast<std::size_t>(w)]) stack.push_back(w);
  };
  // An idle worker for unit u other than `not_w`, if there is one (-1).
  const auto take_idle_except = [&](std::size_t u, int not_w) {
    if (idle_count == 0 || (idle_count == 1 && is_idle[static_cast<std::size_t>(not_w)])) return -1;
    int w = take_idle(u);
    if (w == not_w) {
      w = take_idle(u);
      make_idle(not_w);
    }
    return w;
  };
  double now = 0, busy = 0, coordinator_free = 0, coordinator_busy = 0, writer_free = 0, writer_busy = 0;
  std::uint64_t coordinator_held = 0, coordinator_peak = 0, worker_peak = 0;
  std::size_t done = 0;

  // Rank 0 sends `bytes` (or writes for `seconds`) when it is free.
  const auto coordinator_does = [&](double seconds) {
    const double start = std::max(now, coordinator_free);
    coordinator_free = start + seconds;
    coordinator_busy += seconds;
    return coordinator_free;
  };
  const auto closure_bytes = [&](std::size_t u, int w) {
    double bytes = 0;
    if (holder[u].empty()) holder[u].assign(static_cast<std::size_t>(workers), 0);
    if (holder[u][static_cast<std::size_t>(w)]) return bytes;
    holder[u][static_cast<std::size_t>(w)] = 1;
    if (setup.shared_dir) return bytes;
    for (const Material& t : dag.reads[u])
      if (holds[static_cast<std::size_t>(w)].insert(t).second) bytes += table_bytes(t);
    return bytes;
  };
  const auto start_level = [&](Split& s, std::size_t u) {
    const auto [parts, positions] = cut(shapes[u].level_positions[static_cast<std::size_t>(s.level)]);
    s.parts_left = parts;
    s.part_positions = positions;
    const auto target = static_cast<std::uint64_t>(positions);
    // A part's working state (a byte and a bit a position), the value pages it
    // and its inputs touch.
    worker_peak = std::max<std::uint64_t>(
        worker_peak, target + target / 8 + static_cast<std::uint64_t>((1 + shapes[u].fanout) * positions * 3 / 8));
  };
  // The ready unit of highest priority that can start: a unit in parts only
  // while rank 0 has room for its values (or holds no other) beside the
  // block cache and mapped pages its checks read finished tables through.
  constexpr std::uint64_t kCoordinatorFixed = kOverheadBytes + kMappedPagesBytes + kMinCacheBytes;
  const auto next_ready = [&]() -> std::optional<std::size_t> {
    for (const std::size_t u : ready)
      if (!shapes[u].split || split.empty() ||
          coordinator_held + shapes[u].coordinator_bytes + kCoordinatorFixed <= setup.coordinator_budget)
        return u;
    return std::nullopt;
  };

  // Rank 0's writing thread, one unit at a time, beside its link.
  const auto write_when_checked = [&](Split& s, std::size_t u) {
    if (!s.solved || !s.checks.empty() || s.checking > 0) return;
    const double write = check_and_write(units[u]);
    writer_free = std::max(now, writer_free) + write;
    writer_busy += write;
    events.push({writer_free, EventKind::UnitWritten, -1, u, 0});
  };
  // The check of highest priority that an idle worker other than its
  // solver can take, handed out; false if none.
  const auto hand_out_check = [&] {
    std::optional<std::size_t> pick;
    for (const auto& [u, s] : split)
      if (!s.checks.empty() && (!pick || dag.priority[u] > dag.priority[*pick])) pick = u;
    if (!pick) return false;
    Split& s = split[*pick];
    const int w = take_idle_except(*pick, s.checks.front().second);
    if (w < 0) return false;
    const double positions = s.checks.front().first;
    s.checks.pop_front();
    // Its inputs and the part's values out; a line back.
    const double bytes =
        closure_bytes(*pick, w) + positions * (shapes[*pick].fanout + 1) * kPartBytesPerPosition;
    plan.bytes_sent += bytes;
    const double start = coordinator_does(bytes / bandwidth);
    busy += positions / check_rate;
    events.push({start + positions / check_rate, EventKind::PartChecked, w, *pick, positions});
    ++s.checking;
    return true;
  };

  while (done < units.size()) {
    while (idle_count > 0) {
      std::optional<std::size_t> pick;
      for (const auto& [u, s] : split)
        if (s.parts_left > 0 && (!pick || dag.priority[u] > dag.priority[*pick])) pick = u;
      if (!pick && hand_out_check()) continue;
      if (pick) {
        Split& s = split[*pick];
        const int w = take_idle(*pick);
        const double bytes = closure_bytes(*pick, w) + s.part_positions * shapes[*pick].fanout * kPartBytesPerPosition;
        plan.bytes_sent += bytes;
        const double start = coordinator_does(bytes / bandwidth);
        busy += s.part_positions / rate;
        events.push({start + s.part_positions / rate, EventKind::PartSolved, w, *pick, s.part_positions});
        --s.parts_left;
        ++s.running;
        ++plan.parts;
        continue;
      }
      const std::optional<std::size_t> u = next_ready();
      if (!u) break;
      ready.erase(*u);
      if (shapes[*u].split) {
        Split& s = split[*u];
        idle_holders[*u];
        s.level = static_cast<int>(shapes[*u].level_positions.size()) - 1;
        start_level(s, *u);
        coordinator_held += shapes[*u].coordinator_bytes;
        coordinator_peak = std::max(coordinator_peak, coordinator_held);
        continue;
      }
      const int w = take_idle(*u);
      double bytes = closure_bytes(*u, w);  // the closure's files the worker
                                            // lacks, then the unit's tables back
      for (const Material& t : unit_of(units[*u])) {
        if (!setup.shared_dir) holds[static_cast<std::size_t>(w)].insert(t);
        bytes += setup.shared_dir ? 0 : table_bytes(t);
      }
      plan.bytes_sent += bytes;
      const double start = coordinator_does(bytes / bandwidth);
      busy += dag.work[*u];
      events.push({start + dag.work[*u], EventKind::WholeUnitDone, w, *u, 0});
      worker_peak = std::max(worker_peak, unit_memory(units[*u]).total());
    }
    if (events.empty()) break;  // cannot happen: build order is topological
    const Event e = events.top();
    events.pop();
    now = e.time;
    switch (e.kind) {
      case EventKind::PartSolved: {  // its values go back through rank 0's link
        const double bytes = e.positions * kPartBytesPerPosition;
        plan.bytes_sent += bytes;
        events.push({coordinator_does(bytes / bandwidth), EventKind::PartReturned, e.worker, e.unit, e.positions});
        break;
      }
      case EventKind::PartReturned: {
        make_idle(e.worker);
        Split& s = split[e.unit];
        if (spread_checks) s.checks.emplace_back(e.positions, e.worker);
        if (--s.running > 0 || s.parts_left > 0) break;
        if (s.level > 0) {
          --s.level;
          start_level(s, e.unit);
        } else {
          s.solved = true;
          write_when_checked(s, e.unit);
        }
        break;
      }
      case EventKind::PartChecked: {
        make_idle(e.worker);
        Split& s = split[e.unit];
        --s.checking;
        write_when_checked(s, e.unit);
        break;
      }
      case EventKind::WholeUnitDone:
        make_idle(e.worker);
        [[fallthrough]];
      case EventKind::UnitWritten:
        if (e.kind == EventKind::UnitWritten) {
          coordinator_held -= shapes[e.unit].coordinator_bytes;
          split.erase(e.unit);
          idle_holders.erase(e.unit);
          holder[e.unit] = {};
        }
        ++done;
        for (const std::size_t v : waited_by[e.unit])
          if (--waiting[v] == 0) ready.insert(v);
        break;
    }
  }
  plan.seconds = now;
  plan.busy_fraction = now > 0 ? busy / (now * workers) : 0;
  plan.coordinator_busy = now > 0 ? coordinator_busy / now : 0;
  plan.writer_busy = now > 0 ? writer_busy / now : 0;
  plan.worker_memory = worker_peak + kOverheadBytes + kMappedPagesBytes + kMinCacheBytes;
  plan.coordinator_memory = coordinator_peak + kCoordinatorFixed + kChunkInTransit;
  return plan;
}

}  // namespace dtb::gen
