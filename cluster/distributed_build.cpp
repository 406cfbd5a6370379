#include "cluster/distributed_build.h"

#include <mpi.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <queue>
#include <set>
#include <sstream>
#include <vector>

#include "cluster/mpi_link.h"
#include "gen/stats_sidecar.h"
#include "gen/stopwatch.h"
#include "gen/table_loading.h"
#include "gen/unit_dag.h"
#include "gen/unit_solver.h"
#include "index/position_index.h"

namespace dtb::cluster {
namespace {

namespace fs = std::filesystem;
using gen::BuildStatus;

// The files of a finished table of `t` in `dir`, as the build writes them.
std::vector<std::string> table_files(const gen::BuildOptions& options, const Material& t) {
  std::vector<std::string> names = {t.name() + ".wdl"};
  if (options.mtc) names.push_back(t.name() + ".mtc");
  names.push_back(t.name() + ".stats");
  return names;
}

std::vector<std::string> split_tabs(const std::string& text) {
  std::vector<std::string> fields;
  std::stringstream in(text);
  for (std::string field; std::getline(in, field, '\t');) fields.push_back(field);
  return fields;
}

std::string megabytes(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f MB", bytes / 1e6);
  return text;
}

// Rank 0: the schedule, the files, the progress line.
class Coordinator {
 public:
  Coordinator(const gen::BuildOptions& options, const DistributedOptions& distributed, gen::BuildSummary& summary)
      : options_(options), distributed_(distributed), summary_(summary), builder_(options, summary) {}

  BuildStatus run(std::string& error) {
    gen::Stopwatch total;
    std::vector<Material> missing;
    const BuildStatus status = builder_.prepare(missing, error);
    if (status == BuildStatus::Ok && !missing.empty()) {
      dag_ = gen::make_unit_dag(missing, gen::UnitBuilder::solve_work);
      const BuildStatus s = schedule(error);
      if (s != BuildStatus::Ok) return s;  // the caller aborts the job: workers may be mid-unit
    }
    for (int r = 1; r < mpi_ranks(); ++r) send_text(r, kStop, "");
    if (status != BuildStatus::Ok) return status;
    remove_stale_scratch();
    builder_.progress().finish();
    summary_.total_seconds = total.lap();
    return write_log(error) ? BuildStatus::Ok : BuildStatus::Failed;
  }

 private:
  struct UnitRecord {
    int rank = 0;
    double seconds = 0;
    std::uint64_t bytes_to = 0, bytes_from = 0;
  };

  BuildStatus schedule(std::string& error) {
    const std::size_t n = dag_.units.size();
    std::vector<int> waiting(n);
    std::vector<std::vector<std::size_t>> waited_by(n);
    for (std::size_t i = 0; i < n; ++i) {
      waiting[i] = static_cast<int>(dag_.waits_for[i].size());
      for (const std::size_t j : dag_.waits_for[i]) waited_by[j].push_back(i);
      if (waiting[i] == 0) ready_.insert(i);
    }
    records_.assign(n, {});
    started_.assign(n, {});
    holds_.assign(static_cast<std::size_t>(mpi_ranks()), {});
    running_on_.assign(static_cast<std::size_t>(mpi_ranks()), n);
    std::size_t done = 0;
    while (done < n) {
      while (!idle_.empty() && !ready_.empty())
        if (!assign(error)) return BuildStatus::Failed;
      const Message m = receive_message(MPI_ANY_SOURCE);
      if (m.tag == kReady) {
        idle_.push_back(m.source);
      } else if (m.tag == kFileHeader) {
        const std::int64_t bytes = receive_file(m.source, m.text, options_.out_dir, error);
        if (bytes < 0) return BuildStatus::Failed;
        if (const std::size_t u = running_on_[static_cast<std::size_t>(m.source)]; u < n)
          records_[u].bytes_from += static_cast<std::uint64_t>(bytes);
        bytes_sent_ += static_cast<double>(bytes);
      } else if (m.tag == kDone) {
        const std::size_t u = finished(m, error);
        if (u == n) return BuildStatus::Failed;
        ++done;
        for (const std::size_t v : waited_by[u])
          if (--waiting[v] == 0) ready_.insert(v);
        update_progress(done);
      } else if (m.tag == kFailed) {
        error = "rank " + std::to_string(m.source) + " failed: " + m.text;
        return BuildStatus::Failed;
      }
    }
    return BuildStatus::Ok;
  }

  // Hand the ready unit of highest priority (ties: build order) to an idle worker.
  bool assign(std::string& error) {
    std::size_t u = *ready_.begin();
    for (const std::size_t v : ready_)
      if (dag_.priority[v] > dag_.priority[u]) u = v;
    ready_.erase(u);
    const int w = idle_.back();
    idle_.pop_back();
    UnitRecord& r = records_[u];
    r.rank = w;
    if (!distributed_.shared_dir)
      for (const Material& t : dag_.reads[u]) {
        if (!holds_[static_cast<std::size_t>(w)].insert(t).second) continue;
        const std::int64_t bytes = send_file(w, gen::wdl_table_path(options_.out_dir, t), t.name() + ".wdl", error);
        if (bytes < 0) return false;
        r.bytes_to += static_cast<std::uint64_t>(bytes);
        bytes_sent_ += static_cast<double>(bytes);
      }
    running_on_[static_cast<std::size_t>(w)] = u;
    started_[u] = std::chrono::steady_clock::now();
    send_text(w, kAssign, dag_.units[u].name() + "\t" + std::to_string(summary_.memory.cache));
    builder_.progress().set_item(dag_.units[u].name() + " to rank " + std::to_string(w));
    return true;
  }

  // A worker's unit is done: its files are in (they came before kDone).
  std::size_t finished(const Message& m, std::string& error) {
    const std::size_t u = running_on_[static_cast<std::size_t>(m.source)];
    const std::vector<std::string> fields = split_tabs(m.text);
    if (u >= dag_.units.size() || fields.size() != 3 || fields[0] != dag_.units[u].name()) {
      error = "rank " + std::to_string(m.source) + " reported '" + m.text + "', not the unit it was given";
      return dag_.units.size();
    }
    running_on_[static_cast<std::size_t>(m.source)] = dag_.units.size();
    idle_.push_back(m.source);
    records_[u].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_[u]).count();
    summary_.solve_seconds += std::stod(fields[1]);
    summary_.write_seconds += std::stod(fields[2]);
    for (const Material& t : gen::unit_of(dag_.units[u])) {
      holds_[static_cast<std::size_t>(m.source)].insert(t);
      const auto stats = gen::read_stats_sidecar(options_.out_dir, t);
      if (!stats) {
        error = "rank " + std::to_string(m.source) + " finished " + t.name() + " without its table files";
        return dag_.units.size();
      }
      summary_.tables.push_back(*stats);
      summary_.positions_solved += stats->positions;
      ++summary_.tables_built;
    }
    builder_.progress().advance(gen::UnitBuilder::solve_work(dag_.units[u]));
    return u;
  }

  void update_progress(std::size_t done) {
    int running = 0;
    for (const std::size_t u : running_on_) running += u < dag_.units.size();
    builder_.progress().set_item(std::to_string(done) + "/" + std::to_string(dag_.units.size()) + " units, " +
                                 std::to_string(running) + " running, " + megabytes(bytes_sent_) + " sent");
  }

  // Scratch directories that a killed run with more ranks left in the
  // output directory (a shared file system): no worker of this job owns them.
  void remove_stale_scratch() const {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(options_.out_dir, ec)) {
      const std::string name = entry.path().filename().string();
      if (!name.starts_with(".rank-")) continue;
      int rank = 0;
      try {
        rank = std::stoi(name.substr(6));
      } catch (const std::exception&) {
        continue;
      }
      if (rank >= mpi_ranks()) fs::remove_all(entry.path(), ec);
    }
  }

  bool write_log(std::string& error) const {
    if (distributed_.log_path.empty()) return true;
    std::FILE* f = std::fopen(distributed_.log_path.c_str(), "w");
    if (!f) {
      error = "cannot write " + distributed_.log_path;
      return false;
    }
    std::fprintf(f, "unit\trank\tpositions\tseconds\tbytes_to_rank\tbytes_from_rank\n");
    for (std::size_t u = 0; u < dag_.units.size(); ++u) {
      std::uint64_t positions = 0;
      for (const Material& t : gen::unit_of(dag_.units[u])) positions += PositionIndex(t).size();
      const UnitRecord& r = records_[u];
      std::fprintf(f, "%s\t%d\t%llu\t%.3f\t%llu\t%llu\n", dag_.units[u].name().c_str(), r.rank,
                   static_cast<unsigned long long>(positions), r.seconds,
                   static_cast<unsigned long long>(r.bytes_to), static_cast<unsigned long long>(r.bytes_from));
    }
    return std::fclose(f) == 0;
  }

  const gen::BuildOptions& options_;
  const DistributedOptions& distributed_;
  gen::BuildSummary& summary_;
  gen::UnitBuilder builder_;
  gen::UnitDag dag_;
  std::set<std::size_t> ready_;
  std::vector<int> idle_;
  std::vector<std::set<Material>> holds_;  // per rank: the tables it has
  std::vector<std::size_t> running_on_;    // per rank: its unit (n: none)
  std::vector<UnitRecord> records_;
  std::vector<std::chrono::steady_clock::time_point> started_;
  double bytes_sent_ = 0;
};

// Ranks 1..R-1: solve what rank 0 hands out.
class Worker {
 public:
  Worker(const gen::BuildOptions& options, const DistributedOptions& distributed)
      : options_(options), shared_(distributed.shared_dir) {
    options_.show_progress = false;
    if (!shared_)
      options_.out_dir = distributed.scratch.empty() ? options.out_dir + "/.rank-" + std::to_string(mpi_rank())
                                                     : distributed.scratch;
  }

  void run() {
    std::string error;
    if (!prepare_directory(error)) return fail(error);
    send_text(0, kReady, "");
    for (;;) {
      const Message m = receive_message(0);
      if (m.tag == kStop) break;
      if (m.tag == kFileHeader && receive_file(0, m.text, options_.out_dir, error) < 0) return fail(error);
      if (m.tag == kAssign && !solve(m.text, error)) return fail(error);
    }
    if (!shared_) fs::remove_all(options_.out_dir);
  }

 private:
  // A fresh scratch directory: what it held before may be from another build.
  bool prepare_directory(std::string& error) {
    std::error_code ec;
    if (!shared_) fs::remove_all(options_.out_dir, ec);
    fs::create_directories(options_.out_dir, ec);
    if (!fs::is_directory(options_.out_dir)) {
      error = "cannot create directory " + options_.out_dir + ": " + ec.message();
      return false;
    }
    return true;
  }

  bool solve(const std::string& text, std::string& error) {
    const std::vector<std::string> fields = split_tabs(text);
    const auto unit = fields.size() == 2 ? parse_material(fields[0]) : std::nullopt;
    if (!unit) {
      error = "unexpected assignment '" + text + "'";
      return false;
    }
    if (!opened_ && builder_.open_finished(std::stoull(fields[1]), 0, error) != BuildStatus::Ok) return false;
    opened_ = true;
    const double solve_before = summary_.solve_seconds, write_before = summary_.write_seconds;
    if (builder_.build(*unit, {}, error) != BuildStatus::Ok) {
      error = unit->name() + ": " + error;
      return false;
    }
    if (!shared_)
      for (const Material& t : gen::unit_of(*unit))
        for (const std::string& name : table_files(options_, t))
          if (send_file(0, options_.out_dir + "/" + name, name, error) < 0) return false;
    send_text(0, kDone, unit->name() + "\t" + std::to_string(summary_.solve_seconds - solve_before) + "\t" +
                            std::to_string(summary_.write_seconds - write_before));
    return true;
  }

  void fail(const std::string& error) { send_text(0, kFailed, error); }

  gen::BuildOptions options_;
  bool shared_;
  gen::BuildSummary summary_;
  gen::UnitBuilder builder_{options_, summary_};
  bool opened_ = false;
};

}  // namespace

bool launched_by_mpirun() {
  return std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK");
}

int mpi_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

int mpi_ranks() {
  int ranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  return ranks;
}

gen::BuildStatus build_distributed(const gen::BuildOptions& options, const DistributedOptions& distributed,
                                   gen::BuildSummary& summary, std::string& error) {
  if (mpi_rank() != 0) {
    Worker(options, distributed).run();
    return BuildStatus::Ok;
  }
  return Coordinator(options, distributed, summary).run(error);
}

MpiSession::MpiSession() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
}

MpiSession::~MpiSession() { MPI_Finalize(); }

void abort_job(int code) {
  MPI_Abort(MPI_COMM_WORLD, code);
  std::exit(code);  // not reached: MPI_Abort ends every rank
}

}  // namespace dtb::cluster
