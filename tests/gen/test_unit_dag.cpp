// The unit graph of a distributed build (gen/unit_dag.h) and its cost model
// (cluster/cluster_plan.h): a unit waits for every unit that holds a table it
// may read, the tables it may read are every material a sequence of
// captures and promotions reaches (checked against moves actually played
// out of random positions), and the model's schedule obeys its bounds.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>

#include "cluster/cluster_plan.h"
#include "gen/table_builder.h"
#include "gen/unit_dag.h"
#include "solver/unit_solver.h"
#include "index/position_index.h"
#include "rules/movegen.h"

using namespace dtb;

namespace {

std::vector<Material> units_up_to(int pieces) {
  gen::BuildOptions options;
  options.max_pieces = pieces;
  return gen::units_to_build(options);
}

bool contains(const std::vector<Material>& v, const Material& m) { return std::find(v.begin(), v.end(), m) != v.end(); }

}  // namespace

TEST_CASE("a unit waits only for earlier units, and for every unit it reads", "[unit_dag]") {
  const std::vector<Material> units = units_up_to(5);
  const gen::UnitDag dag = gen::make_unit_dag_structure(units);
  REQUIRE(dag.units.size() == units.size());
  for (std::size_t i = 0; i < units.size(); ++i) {
    for (const std::size_t j : dag.waits_for[i]) CHECK(j < i);
    for (std::size_t j = 0; j < units.size(); ++j) {
      bool reads_j = false;
      for (const Material& t : gen::unit_of(units[j])) reads_j = reads_j || contains(dag.reads[i], t);
      CHECK(reads_j == std::binary_search(dag.waits_for[i].begin(), dag.waits_for[i].end(), j));
    }
    for (const Material& t : gen::unit_of(units[i])) CHECK_FALSE(contains(dag.reads[i], t));
  }
}

TEST_CASE("the tables a unit reads include every material its positions reach by play", "[unit_dag]") {
  // From random positions of a few 4- and 5-piece materials, play random
  // moves; every material met that is not the unit's own must be in reads.
  std::mt19937_64 rng(7);
  for (const char* name : {"KMvKM", "MMvKM", "KKMvMM", "MMMvKK"}) {
    const Material m = *parse_material(name);
    const std::vector<Material> reads = gen::tables_read_by(m);
    const std::vector<Material> own = gen::unit_of(m);
    const PositionIndex index(m);
    for (int game = 0; game < 300; ++game) {
      Position p = index.unrank(rng() % index.size());
      for (int ply = 0; ply < 60; ++ply) {
        MoveList moves;
        generate_moves(p, moves);
        if (moves.size == 0) break;
        p = make_move(p, moves[static_cast<int>(rng() % static_cast<std::uint64_t>(moves.size))]);
        const Material reached = material_of(p);
        if (reached.white_kings + reached.white_men == 0 || reached.black_kings + reached.black_men == 0) break;
        if (!contains(own, reached)) CHECK(contains(reads, reached));
      }
    }
  }
}

TEST_CASE("priority is the longest chain of work behind a unit", "[unit_dag]") {
  const std::vector<Material> units = units_up_to(4);
  const gen::UnitDag dag = gen::make_unit_dag(units, [](const Material& m) {
    std::uint64_t n = 0;
    for (const Material& t : gen::unit_of(m)) n += PositionIndex(t).size();
    return n;
  });
  for (std::size_t i = 0; i < units.size(); ++i) {
    CHECK(dag.priority[i] >= dag.work[i]);
    for (const std::size_t j : dag.waits_for[i]) CHECK(dag.priority[j] >= dag.work[j] + dag.priority[i]);
  }
}

TEST_CASE("the cluster model: one worker does all the work, many never beat the longest chain", "[unit_dag]") {
  const double fast_network = 1e15;
  const std::uint64_t kBudget = std::uint64_t{4} << 30;
  const gen::ClusterPlan one = gen::plan_cluster_build({5, 2, 2, fast_network, kBudget});
  // One worker solves everything but waits while rank 0 writes a unit solved in parts.
  CHECK(one.busy_fraction <= 1 + 1e-9);
  CHECK(one.busy_fraction > 0.8);
  CHECK(one.seconds >= one.critical_path);
  double previous = one.seconds;
  for (const int ranks : {3, 5, 9, 65}) {
    const gen::ClusterPlan p = gen::plan_cluster_build({5, ranks, 2, fast_network, kBudget});
    CHECK(p.seconds >= p.critical_path * (1 - 1e-9));
    CHECK(p.seconds <= previous * 1.05);  // list scheduling: more workers, not much slower
    CHECK(p.bytes_sent >= one.bytes_sent);  // more workers each need their own closures
    previous = p.seconds;
  }
  // From two workers on, the workers check each other's parts: rank 0's
  // writing thread only writes.
  const gen::ClusterPlan two = gen::plan_cluster_build({5, 3, 2, fast_network, kBudget});
  CHECK(two.writer_busy * two.seconds < 0.5 * one.writer_busy * one.seconds);
  // A slow network only adds time.
  CHECK(gen::plan_cluster_build({5, 3, 2, 1e6, kBudget}).seconds >
        gen::plan_cluster_build({5, 3, 2, fast_network, kBudget}).seconds);
}
