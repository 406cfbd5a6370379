#include "cluster/distributed_build.h"

#include <mpi.h>
#include <omp.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <future>
#include <map>
#include <memory>
#include <optional>
#include <queue>
#include <random>
#include <set>
#include <span>
#include <sstream>
#include <thread>
#include <vector>

#include "cluster/mpi_link.h"
#include "cluster/slice_task.h"
#include "cluster/cluster_plan.h"
#include "gen/cost_model.h"
#include "solver/slice_order.h"
#include "gen/stats_sidecar.h"
#include "support/stopwatch.h"
#include "solver/table_loading.h"
#include "gen/unit_dag.h"
#include "solver/unit_solver.h"
#include "index/position_index.h"
#include "verify/verifier.h"

namespace dtb::cluster {
namespace {

namespace fs = std::filesystem;
using gen::BuildStatus;

// The files of a finished table of `t` in `dir`, as the build writes them.
std::vector<std::string> table_files(const gen::BuildOptions& options, const Material& t) {
  std::vector<std::string> names = {t.name() + ".wdl"};
  names.push_back(t.name() + ".stats");
  if (options.mtc) names.insert(names.end(), {t.name() + ".mtc", t.name() + ".mtc-stats"});
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
    if (units_checked_ > 0) {
      char seconds[32];
      std::snprintf(seconds, sizeof seconds, "%.1f", check_seconds_);
      summary_.notes.push_back(
          std::to_string(units_checked_) + " units solved in parts (" + std::to_string(parts_done_) +
          " parts), each part's XXH3 checked in place and " +
          (spread_checks() ? "each part checked against its successors by another worker than the one that solved "
                             "it, before writing (" + std::string(seconds) + " s of the workers' time)"
                           : "every level against its successors before writing (" + std::string(seconds) + " s)"));
    }
    remove_stale_scratch();
    builder_.progress().finish();
    summary_.total_seconds = total.lap();
    return write_log(error) ? BuildStatus::Ok : BuildStatus::Failed;
  }

 private:
  struct UnitRecord {
    std::set<int> ranks;  // that solved it or parts of it
    int parts = 0;        // 0: solved whole
    double seconds = 0;
    double check_seconds = 0;  // checking its levels before its tables were written (units in parts)
    std::uint64_t bytes_to = 0, bytes_from = 0;            // everything: table files and parts
    std::uint64_t part_bytes_to = 0, part_bytes_from = 0;  // of that, the parts' messages
  };

  // A part solved by one worker, to be checked by another.
  struct PartCheck {
    int level = 0;
    std::vector<std::vector<std::uint32_t>> slices;  // per table, sorted
    int solved_by = 0;
  };

  // A unit with men, its levels spread over the workers in parts
  // (slice_task.h). Rank 0 keeps the values of its finished levels, sends
  // each part what it reads of them, and writes the tables at the end.
  // With two workers or more, each part is checked by a worker other than
  // the one that solved it, against the values in rank 0's arrays (what
  // will be written); the tables wait for every check.
  struct SplitUnit {
    std::vector<PositionIndex> index;  // per table of the unit
    std::vector<gen::SliceLevels> levels;
    gen::UnitSolution solution;   // the values of the finished levels
    int level = 0;                // being solved
    std::deque<SliceTask> parts;  // of that level, not handed out yet (inputs not filled)
    int running = 0;              // handed out, not back
    std::uint64_t positions = 0;  // of the unit, both tables
    std::deque<PartCheck> checks;  // parts solved, not handed out for their check yet
    int checking = 0;              // checks handed out, not back
    bool solved = false;           // every level solved: the tables wait for the checks
  };

  // Parts are checked by the workers when there are two of them at least;
  // with one, rank 0 checks each unit's levels before writing it.
  static bool spread_checks() { return mpi_ranks() >= 3; }

  BuildStatus schedule(std::string& error) {
    const std::size_t n = dag_.units.size();
    waiting_.assign(n, 0);
    waited_by_.assign(n, {});
    for (std::size_t i = 0; i < n; ++i) {
      waiting_[i] = static_cast<int>(dag_.waits_for[i].size());
      for (const std::size_t j : dag_.waits_for[i]) waited_by_[j].push_back(i);
      if (waiting_[i] == 0) ready_.insert(i);
    }
    records_.assign(n, {});
    started_.assign(n, {});
    holds_.assign(static_cast<std::size_t>(mpi_ranks()), {});
    running_on_.assign(static_cast<std::size_t>(mpi_ranks()), n);
    part_on_.assign(static_cast<std::size_t>(mpi_ranks()), n);
    part_slices_.assign(static_cast<std::size_t>(mpi_ranks()), {});
    for (int r = 1; r < mpi_ranks(); ++r) send_text(r, kOpen, std::to_string(summary_.memory.cache));
    // The writing thread checks each unit solved in parts against the
    // finished tables before writing it (check_levels).
    if (writer_.open_finished(summary_.memory.cache, 0, error) != BuildStatus::Ok) return BuildStatus::Failed;
    while (done_ < n) {
      if (!hand_out(error)) return BuildStatus::Failed;
      if (!collect_written(error)) return BuildStatus::Failed;
      const std::optional<Message> received = try_receive_message(MPI_ANY_SOURCE);
      if (!received) {
        std::this_thread::sleep_for(kPollInterval);
        continue;
      }
      const Message& m = *received;
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
        complete(u);
      } else if (m.tag == kPartDone) {
        if (!part_done(m, error)) return BuildStatus::Failed;
      } else if (m.tag == kCheckDone) {
        if (!check_done(m, error)) return BuildStatus::Failed;
      } else if (m.tag == kFailed) {
        error = "rank " + std::to_string(m.source) + " failed: " + m.text;
        return BuildStatus::Failed;
      }
    }
    return BuildStatus::Ok;
  }

  // Unit u is finished: the units waiting for it may be ready.
  void complete(std::size_t u) {
    ++done_;
    for (const std::size_t v : waited_by_[u])
      if (--waiting_[v] == 0) ready_.insert(v);
    update_progress();
  }

  // Keep every idle worker busy while there is work: first the parts of
  // split units (the highest priority first: they hold rank 0's memory and
  // their unit's successors wait), then the ready unit of highest priority
  // (ties: build order), split into parts if it has men.
  bool hand_out(std::string& error) {
    while (!idle_.empty()) {
      std::size_t best = dag_.units.size();
      for (const auto& [u, split] : split_)
        if (!split->parts.empty() && (best == dag_.units.size() || dag_.priority[u] > dag_.priority[best])) best = u;
      if (best < dag_.units.size()) {
        if (!assign_part(best, error)) return false;
        continue;
      }
      if (const auto check = next_check()) {
        if (!assign_check(check->first, check->second, error)) return false;
        continue;
      }
      const std::optional<std::size_t> u = next_ready();
      if (!u) return true;
      ready_.erase(*u);
      started_[*u] = std::chrono::steady_clock::now();
      if (dag_.units[*u].men() > 0) {
        if (!start_split(*u, error)) return false;
      } else if (!assign(*u, error)) {
        return false;
      }
    }
    return true;
  }

  // The ready unit of highest priority (ties: build order) that can start: a
  // unit with men only while this rank has room for its values beside those
  // of the units already in parts and the block cache and mapped pages
  // through which its check reads finished tables (or holds none: the memory
  // check before the build made sure the largest unit fits alone).
  // cluster/cluster_plan.h models the same rule.
  std::optional<std::size_t> next_ready() const {
    const std::uint64_t fixed = gen::kOverheadBytes + gen::kMappedPagesBytes + summary_.memory.cache;
    std::optional<std::size_t> best;
    for (const std::size_t v : ready_) {
      if (dag_.units[v].men() > 0 && !split_.empty() &&
          split_bytes_ + gen::coordinator_unit_bytes(dag_.units[v]) + fixed > summary_.memory.budget)
        continue;
      if (!best || dag_.priority[v] > dag_.priority[*best]) best = v;
    }
    return best;
  }


  // The idle worker that lacks the fewest bytes of unit u's closure (the
  // latest idle on a tie), other than `not_rank`: a unit's parts go where
  // its tables already are, so a closure crosses the network to as few
  // workers as the work allows. -1 if no idle worker may take it.
  int take_idle_worker(std::size_t u, int not_rank = -1) {
    std::optional<std::size_t> best;
    std::uint64_t least = 0;
    for (std::size_t k = idle_.size(); k-- > 0;) {
      if (idle_[k] == not_rank) continue;
      const std::uint64_t missing = distributed_.shared_dir ? 0 : missing_bytes(u, idle_[k]);
      if (!best || missing < least) least = missing, best = k;
      if (least == 0) break;
    }
    if (!best) return -1;
    const int w = idle_[*best];
    idle_.erase(idle_.begin() + static_cast<std::ptrdiff_t>(*best));
    return w;
  }

  std::uint64_t missing_bytes(std::size_t u, int w) const {
    std::uint64_t bytes = 0;
    for (const Material& t : dag_.reads[u]) {
      if (holds_[static_cast<std::size_t>(w)].count(t)) continue;
      std::error_code ec;
      const std::uintmax_t size = fs::file_size(gen::wdl_table_path(options_.out_dir, t), ec);
      // + 1: a table of no bytes still costs a message.
      bytes += ec ? 1 : static_cast<std::uint64_t>(size) + 1;
    }
    return bytes;
  }

  // Send worker w every table of unit u's dependency closure it lacks.
  bool send_closure(std::size_t u, int w, std::string& error) {
    if (distributed_.shared_dir) return true;
    for (const Material& t : dag_.reads[u]) {
      if (!holds_[static_cast<std::size_t>(w)].insert(t).second) continue;
      const std::int64_t bytes = send_file(w, gen::wdl_table_path(options_.out_dir, t), t.name() + ".wdl", error);
      if (bytes < 0) return false;
      records_[u].bytes_to += static_cast<std::uint64_t>(bytes);
      bytes_sent_ += static_cast<double>(bytes);
    }
    return true;
  }

  // Hand the whole unit u to an idle worker.
  bool assign(std::size_t u, std::string& error) {
    const int w = take_idle_worker(u);
    records_[u].ranks.insert(w);
    if (!send_closure(u, w, error)) return false;
    running_on_[static_cast<std::size_t>(w)] = u;
    send_text(w, kAssign, dag_.units[u].name());
    update_progress(dag_.units[u].name() + " to rank " + std::to_string(w));
    return true;
  }

  // Unit u (with men) starts: its values here, its top level cut into parts.
  bool start_split(std::size_t u, std::string& error) {
    auto split = std::make_unique<SplitUnit>();
    for (const Material& t : gen::unit_of(dag_.units[u])) {
      split->index.emplace_back(t);
      split->levels.emplace_back(split->index.back());
      split->solution.materials.push_back(t);
      split->solution.values.push_back(std::make_unique<gen::UnitValues>(split->index.back().size()));
      if (options_.mtc) split->solution.mtc.push_back(std::make_unique<gen::MtcValues>(split->index.back().size()));
      split->positions += split->index.back().size();
    }
    split->level = split->levels.front().levels();
    split->solution.levels = split->level;
    SplitUnit& s = *split;
    split_bytes_ += gen::coordinator_unit_bytes(dag_.units[u]);
    split_[u] = std::move(split);
    return next_level(u, s, error);
  }

  // The level below the one just finished, in parts; after level 0, the
  // tables, once every part is checked.
  bool next_level(std::size_t u, SplitUnit& s, std::string& error) {
    if (s.level == 0) {
      s.solved = true;
      write_when_checked(u, s);
      return true;
    }
    --s.level;
    cut_level(dag_.units[u], s);
    if (s.parts.empty()) return next_level(u, s, error);  // a level with no slice (never, but harmless)
    return true;
  }

  // A unit solved and (when the workers check) every part of it checked:
  // its tables are written while the parts of other units go on.
  void write_when_checked(std::size_t u, SplitUnit& s) {
    if (!s.solved || !s.checks.empty() || s.checking > 0) return;
    auto it = split_.find(u);
    writes_.push_back({u, std::move(it->second)});
    split_.erase(it);
    start_write();
  }

  // Rank 0 writes the tables of a unit solved in parts on a thread of its
  // own, one unit at a time (in the order they were solved), so that parts
  // of other units are handed out and received meanwhile. The writing
  // thread has its own UnitBuilder and summary, merged here when it ends.
  void start_write() {
    if (writing_.valid() || writes_.empty()) return;
    PendingWrite& w = writes_.front();
    writing_ = std::async(std::launch::async, [this, unit = dag_.units[w.unit], split = w.split.get(),
                                               record = &records_[w.unit], threads = omp_get_max_threads()] {
      omp_set_num_threads(threads);  // a new thread starts from the default count, not --threads
      std::string why;
      if (!spread_checks()) {  // (otherwise the workers checked every part)
        gen::Stopwatch watch;
        const bool sound = check_levels(split->solution, why);
        record->check_seconds = watch.lap();
        if (!sound) return std::pair{BuildStatus::Failed, why};
      }
      const BuildStatus status = writer_.write_solved(unit, split->solution, {}, why);
      return std::pair{status, why};
    });
  }

  // Before a unit solved in parts is written, every level of it is checked
  // as `dtb verify` checks a table (verify/verifier.h): each value against
  // its successors, each win and loss for a finite proof, each capture
  // position against the smaller tables, and with --mtc each MTC. Its
  // values came from many ranks over a network: a wrong one, however it got
  // there, fails the build with its unit, level and slice, and no table of
  // the unit is written. Runs on the writing thread, with its finished tables.
  bool check_levels(gen::UnitSolution& solution, std::string& why) const {
    std::vector<const gen::UnitValues*> values;
    std::vector<std::span<const std::uint8_t>> mtc;
    for (const auto& v : solution.values) values.push_back(v.get());
    for (const auto& m : solution.mtc) mtc.push_back(m->bytes());
    if (gen::verify_unit_in_memory(solution.materials, values, mtc, writer_.finished(), why)) return true;
    why = "its values, solved in parts, fail the check of its levels, so none of its tables is written: " + why;
    return false;
  }

  // The write in flight, if it has ended: its unit is complete.
  bool collect_written(std::string& error) {
    if (!writing_.valid() || writing_.wait_for(std::chrono::seconds(0)) != std::future_status::ready) return true;
    const auto [status, why] = writing_.get();
    const std::size_t u = writes_.front().unit;
    writes_.pop_front();
    if (status != BuildStatus::Ok) {
      error = dag_.units[u].name() + ": " + why;
      return false;
    }
    summary_.tables_built += write_summary_.tables_built;
    summary_.positions_solved += write_summary_.positions_solved;
    summary_.write_seconds += write_summary_.write_seconds;
    summary_.tables.insert(summary_.tables.end(), write_summary_.tables.begin(), write_summary_.tables.end());
    write_summary_ = gen::BuildSummary{};
    records_[u].seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_[u]).count();
    check_seconds_ += records_[u].check_seconds;
    ++units_checked_;
    split_bytes_ -= gen::coordinator_unit_bytes(dag_.units[u]);
    complete(u);
    start_write();
    return true;
  }

  // Level s.level of the unit in parts of about `target` positions, each a
  // set of closed pairs (a slice of the first table and its colour reversal).
  void cut_level(const Material& unit, SplitUnit& s) const {
    const std::size_t tables = s.index.size();
    const std::size_t other = tables == 1 ? 0 : 1;
    std::uint64_t level_positions = 0;
    for (const auto& l : s.levels) level_positions += l.positions(s.level);
    const std::uint64_t target = gen::part_positions_target(level_positions, mpi_ranks() - 1);
    std::set<std::uint32_t> taken;  // a symmetric unit meets each pair twice
    SliceTask part;
    std::uint64_t in_part = 0;
    const auto close_part = [&] {
      for (auto& list : part.slices) std::sort(list.begin(), list.end());
      s.parts.push_back(std::move(part));
      part = SliceTask{};
      in_part = 0;
    };
    for (const std::uint32_t slice : s.levels[0].level(s.level)) {
      if (taken.count(slice)) continue;
      const auto [white, black] = s.index[0].unrank_men(slice);
      const auto twin = static_cast<std::uint32_t>(s.index[other].rank_men(rotate_bb(black), rotate_bb(white)));
      if (part.slices.empty()) {
        part.unit = unit;
        part.level = s.level;
        part.slices.resize(tables);
      }
      part.slices[0].push_back(slice);
      in_part += s.index[0].kings_per_slice();
      if (tables == 2 || twin != slice) {
        part.slices[other].push_back(twin);
        in_part += s.index[other].kings_per_slice();
      }
      if (tables == 1) taken.insert(twin);
      if (in_part >= target) close_part();
    }
    if (!part.slices.empty()) close_part();
  }

  // Hand the next part of unit u to an idle worker, with the values it reads.
  bool assign_part(std::size_t u, std::string& error) {
    SplitUnit& s = *split_.at(u);
    SliceTask part = std::move(s.parts.front());
    s.parts.pop_front();
    part.inputs = part_inputs(s, part.slices);
    const int w = take_idle_worker(u);
    if (!send_closure(u, w, error)) return false;
    const std::vector<std::uint8_t> bytes = encode(part);
    send_data(w, kAssignPart, bytes);
    part_on_[static_cast<std::size_t>(w)] = u;
    part_slices_[static_cast<std::size_t>(w)] = std::move(part.slices);
    ++s.running;
    UnitRecord& r = records_[u];
    r.ranks.insert(w);
    ++r.parts;
    r.bytes_to += bytes.size();
    r.part_bytes_to += bytes.size();
    bytes_sent_ += static_cast<double>(bytes.size());
    update_progress(dag_.units[u].name() + " level " + std::to_string(s.level) + " to rank " + std::to_string(w));
    return true;
  }

  // The values of the level above that the man moves of a part reach.
  static std::vector<SliceValues> part_inputs(const SplitUnit& s, const std::vector<std::vector<std::uint32_t>>& slices) {
    std::vector<SliceValues> inputs;
    const std::size_t tables = s.index.size();
    for (std::size_t t = 0; t < tables; ++t) {
      const std::size_t o = tables == 1 ? 0 : 1 - t;
      std::set<std::uint32_t> reads;
      for (const std::uint32_t slice : slices[t])
        for (const std::uint32_t next : gen::man_move_slices(s.index[t], s.index[o], slice)) reads.insert(next);
      for (const std::uint32_t next : reads)
        inputs.push_back(read_slice(*s.solution.values[o], nullptr, static_cast<std::uint8_t>(o), next,
                                    s.index[o].kings_per_slice()));
    }
    return inputs;
  }

  // The check to hand out next and the idle worker for it (one that did not
  // solve the part), from the unit of highest priority; nullopt if none.
  std::optional<std::pair<std::size_t, int>> next_check() {
    std::optional<std::size_t> best;
    for (const auto& [u, split] : split_) {
      if (split->checks.empty() || (best && dag_.priority[u] <= dag_.priority[*best])) continue;
      if (std::any_of(idle_.begin(), idle_.end(), [&](int w) { return w != split->checks.front().solved_by; }))
        best = u;
    }
    if (!best) return std::nullopt;
    return std::pair{*best, take_idle_worker(*best, split_.at(*best)->checks.front().solved_by)};
  }

  // Hand the next check of unit u to worker w: the part's values and MTC as
  // they stand in this rank's arrays, with the values of the level above it reads.
  bool assign_check(std::size_t u, int w, std::string& error) {
    SplitUnit& s = *split_.at(u);
    PartCheck check = std::move(s.checks.front());
    s.checks.pop_front();
    SliceTask task{dag_.units[u], check.level, check.slices, part_inputs(s, check.slices), {}};
    for (std::size_t t = 0; t < check.slices.size(); ++t)
      for (const std::uint32_t slice : check.slices[t])
        task.claimed.push_back(read_slice(*s.solution.values[t], options_.mtc ? s.solution.mtc[t].get() : nullptr,
                                          static_cast<std::uint8_t>(t), slice, s.index[t].kings_per_slice()));
    if (!send_closure(u, w, error)) return false;
    const std::vector<std::uint8_t> bytes = encode(task);
    send_data(w, kAssignCheck, bytes);
    check_on_[static_cast<std::size_t>(w)] = {u, std::move(check)};
    ++s.checking;
    UnitRecord& r = records_[u];
    r.ranks.insert(w);
    r.bytes_to += bytes.size();
    r.part_bytes_to += bytes.size();
    bytes_sent_ += static_cast<double>(bytes.size());
    update_progress(dag_.units[u].name() + " level " + std::to_string(task.level) + " check to rank " +
                    std::to_string(w));
    return true;
  }

  // A check is back: a failure fails the build, naming the unit, level and
  // part; a unit whose last check passed is written.
  bool check_done(const Message& m, std::string& error) {
    const std::string from = "rank " + std::to_string(m.source);
    auto at = check_on_.find(static_cast<std::size_t>(m.source));
    if (at == check_on_.end() || !split_.count(at->second.first)) {
      error = from + " returned a check it was not given";
      return false;
    }
    const auto [u, check] = std::move(at->second);
    check_on_.erase(at);
    const std::vector<std::string> fields = split_tabs(m.text);
    const bool ok = fields.size() == 2 && fields[0] == "ok";
    const std::string what = from + "'s check of rank " + std::to_string(check.solved_by) + "'s part of " +
                             dag_.units[u].name() + " level " + std::to_string(check.level) + " (" +
                             describe_slices(check.slices) + ")";
    if (!ok) {
      error = what + " failed, so no table of " + dag_.units[u].name() + " is written: " +
              (fields.size() >= 3 && fields[0] == "failed" ? fields[2] : "'" + m.text + "'");
      return false;
    }
    records_[u].check_seconds += std::stod(fields[1]);
    idle_.push_back(m.source);
    SplitUnit& s = *split_.at(u);
    --s.checking;
    write_when_checked(u, s);
    return true;
  }

  // A part is back: its values go in place; a level complete starts the next.
  bool part_done(const Message& m, std::string& error) {
    const std::size_t u = part_on_[static_cast<std::size_t>(m.source)];
    const std::string from = "rank " + std::to_string(m.source);
    if (u >= dag_.units.size() || !split_.count(u)) {
      error = from + " returned a part it was not given";
      return false;
    }
    SplitUnit& s = *split_.at(u);
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(m.text.data()), m.text.size());
    const auto result = decode_result(bytes, error);
    if (!result || result->unit != dag_.units[u] || result->level != s.level) {
      error = from + " returned " + (result ? "a part of another unit or level" : error);
      return false;
    }
    const std::vector<std::vector<std::uint32_t>>& given = part_slices_[static_cast<std::size_t>(m.source)];
    const std::string what = from + "'s part of " + dag_.units[u].name() + " level " + std::to_string(s.level) +
                             " (" + describe_slices(given) + ")";
    if (returned_slices(*result, given.size()) != given) {
      error = what + " came back with other slices than it was given";
      return false;
    }
    std::uint64_t positions = 0;
    for (const SliceValues& v : result->values) {
      const bool fits = v.table < s.index.size() && write_slice(v, *s.solution.values[v.table],
                                                                options_.mtc ? s.solution.mtc[v.table].get() : nullptr,
                                                                s.index[v.table].kings_per_slice());
      if (!fits || (options_.mtc && v.mtc.empty())) {
        error = from + " returned slice " + std::to_string(v.slice) + " of table " + std::to_string(v.table) + " of " +
                dag_.units[u].name() + " in a form that does not fit it";
        return false;
      }
      positions += v.positions;
    }
    if (const PartChecksum in_place = checksum_in_place(s, given); !(in_place == result->checksum)) {
      error = what + ": its values in place are not those it solved (XXH3 " + hex(in_place.values) + " / " +
              hex(in_place.mtc) + ", solved " + hex(result->checksum.values) + " / " + hex(result->checksum.mtc) +
              "), so no table of " + dag_.units[u].name() + " is written";
      return false;
    }
    if (spread_checks()) s.checks.push_back({s.level, given, m.source});
    s.solution.rounds = std::max(s.solution.rounds, result->rounds);
    summary_.solve_seconds += result->seconds;
    records_[u].bytes_from += bytes.size();
    records_[u].part_bytes_from += bytes.size();
    bytes_sent_ += static_cast<double>(bytes.size());
    part_on_[static_cast<std::size_t>(m.source)] = dag_.units.size();
    idle_.push_back(m.source);
    --s.running;
    ++parts_done_;
    slices_done_ += result->values.size();
    const double share = static_cast<double>(positions) / static_cast<double>(s.positions);
    builder_.progress().advance(
        static_cast<std::uint64_t>(share * static_cast<double>(gen::UnitBuilder::solve_work(dag_.units[u]))));
    if (s.parts.empty() && s.running == 0) return next_level(u, s, error);
    return true;
  }

  // The slices of a result, per table, sorted as a task lists them.
  static std::vector<std::vector<std::uint32_t>> returned_slices(const SliceResult& result, std::size_t tables) {
    std::vector<std::vector<std::uint32_t>> slices(tables);
    for (const SliceValues& v : result.values)
      if (v.table < tables) slices[v.table].push_back(v.slice);
    for (auto& list : slices) std::sort(list.begin(), list.end());
    return slices;
  }

  // The checksum of a part as its values now stand in the unit's arrays
  // (slice_task.h, PartChecksum).
  PartChecksum checksum_in_place(const SplitUnit& s, const std::vector<std::vector<std::uint32_t>>& slices) const {
    std::vector<const gen::UnitValues*> values;
    std::vector<const gen::MtcValues*> mtc;
    std::vector<std::uint64_t> kings_per_slice;
    for (std::size_t t = 0; t < s.index.size(); ++t) {
      values.push_back(s.solution.values[t].get());
      if (options_.mtc) mtc.push_back(s.solution.mtc[t].get());
      kings_per_slice.push_back(s.index[t].kings_per_slice());
    }
    return part_checksum(values, mtc, slices, kings_per_slice);
  }

  // "12 slices from slice 3 of table 0": enough to find a part again.
  static std::string describe_slices(const std::vector<std::vector<std::uint32_t>>& slices) {
    std::size_t count = 0;
    for (const auto& list : slices) count += list.size();
    std::string text = std::to_string(count) + " slices";
    for (std::size_t t = 0; t < slices.size(); ++t)
      if (!slices[t].empty()) return text + " from slice " + std::to_string(slices[t].front()) + " of table " +
                                     std::to_string(t);
    return text;
  }

  static std::string hex(std::uint64_t v) {
    char text[17];
    std::snprintf(text, sizeof text, "%016llx", static_cast<unsigned long long>(v));
    return text;
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
    // A worker's unit arrives solved and written.
    builder_.progress().advance(builder_.unit_work(dag_.units[u]));
    return u;
  }

  // The one progress line of the job: units done, parts and slices done,
  // units running, bytes sent, and the latest hand-out.
  void update_progress(const std::string& latest = "") {
    std::size_t running = split_.size();
    for (const std::size_t u : running_on_) running += u < dag_.units.size();
    builder_.progress().set_item(std::to_string(done_) + "/" + std::to_string(dag_.units.size()) + " units, " +
                                 std::to_string(parts_done_) + " parts (" + std::to_string(slices_done_) +
                                 " slices), " + std::to_string(running) + " running, " + megabytes(bytes_sent_) +
                                 " sent" + (latest.empty() ? "" : "; " + latest));
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
    std::fprintf(f, "unit\tranks\tparts\tpositions\tseconds\tbytes_to_ranks\tbytes_from_ranks\tpart_bytes_to"
                    "\tpart_bytes_from\tcheck_seconds\n");
    for (std::size_t u = 0; u < dag_.units.size(); ++u) {
      std::uint64_t positions = 0;
      for (const Material& t : gen::unit_of(dag_.units[u])) positions += PositionIndex(t).size();
      const UnitRecord& r = records_[u];
      std::string ranks;
      for (const int rank : r.ranks) ranks += (ranks.empty() ? "" : ",") + std::to_string(rank);
      std::fprintf(f, "%s\t%s\t%d\t%llu\t%.3f\t%llu\t%llu\t%llu\t%llu\t%.3f\n", dag_.units[u].name().c_str(),
                   ranks.c_str(), r.parts, static_cast<unsigned long long>(positions), r.seconds,
                   static_cast<unsigned long long>(r.bytes_to), static_cast<unsigned long long>(r.bytes_from),
                   static_cast<unsigned long long>(r.part_bytes_to), static_cast<unsigned long long>(r.part_bytes_from),
                   r.check_seconds);
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
  std::vector<std::set<Material>> holds_;                    // per rank: the tables it has
  std::vector<std::size_t> running_on_;                      // per rank: its whole unit (n: none)
  std::vector<std::size_t> part_on_;                         // per rank: the unit of its part (n: none)
  std::vector<std::vector<std::vector<std::uint32_t>>> part_slices_;  // per rank: the slices of that part
  std::map<std::size_t, std::pair<std::size_t, PartCheck>> check_on_;  // per rank: the unit and part it checks
  struct PendingWrite {
    std::size_t unit;
    std::unique_ptr<SplitUnit> split;
  };
  std::map<std::size_t, std::unique_ptr<SplitUnit>> split_;  // units being solved in parts
  std::deque<PendingWrite> writes_;                         // solved, their tables to write (front: in flight)
  gen::BuildSummary write_summary_;                         // of the write in flight
  gen::UnitBuilder writer_{options_, write_summary_};
  std::future<std::pair<BuildStatus, std::string>> writing_;
  std::uint64_t split_bytes_ = 0;                            // what rank 0 holds of those and of writes_
  std::vector<int> waiting_;                                 // per unit: unfinished units it waits for
  std::vector<std::vector<std::size_t>> waited_by_;
  std::size_t done_ = 0;
  std::uint64_t parts_done_ = 0, slices_done_ = 0;
  std::vector<UnitRecord> records_;
  std::vector<std::chrono::steady_clock::time_point> started_;
  double bytes_sent_ = 0;
  double check_seconds_ = 0;  // checking the levels of units solved in parts
  int units_checked_ = 0;
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
      if (m.tag == kOpen && !open(m.text, error)) return fail(error);
      if (m.tag == kFileHeader && receive_file(0, m.text, options_.out_dir, error) < 0) return fail(error);
      if (m.tag == kAssign && !solve(m.text, error)) return fail(error);
      if (m.tag == kAssignPart && !solve_part(m.text, error)) return fail(error);
      if (m.tag == kAssignCheck && !check_part(m.text, error)) return fail(error);
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

  // The finished tables, read through a block cache of the bytes rank 0 says.
  bool open(const std::string& text, std::string& error) {
    std::uint64_t cache = 0;
    try {
      cache = std::stoull(text);
    } catch (const std::exception&) {
      error = "unexpected cache size '" + text + "'";
      return false;
    }
    return builder_.open_finished(cache, 0, error) == BuildStatus::Ok;
  }

  bool solve(const std::string& text, std::string& error) {
    const auto unit = parse_material(text);
    if (!unit) {
      error = "unexpected assignment '" + text + "'";
      return false;
    }
    const double solve_before = summary_.solve_seconds, write_before = summary_.write_seconds;
    if (builder_.build(*unit, {}, error) != BuildStatus::Ok) {
      error = unit->name() + ": " + error;
      return false;
    }
    hooks_.delay();
    if (!shared_)
      for (const Material& t : gen::unit_of(*unit))
        for (const std::string& name : table_files(options_, t))
          if (send_file(0, options_.out_dir + "/" + name, name, error) < 0) return false;
    send_text(0, kDone, unit->name() + "\t" + std::to_string(summary_.solve_seconds - solve_before) + "\t" +
                            std::to_string(summary_.write_seconds - write_before));
    return true;
  }

  // A task's message decoded, this worker's arrays ready for its unit;
  // nullopt with `error` if the message is not one (`kind`: for the error).
  std::optional<SliceTask> open_task(const std::string& text, const std::string& kind, std::string& error) {
    const auto bytes = std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
    auto task = decode_task(bytes, error);
    if (!task) return std::nullopt;
    if (!part_unit_ || *part_unit_ != task->unit) start_unit(task->unit);
    if (task->slices.size() != part_.values.size()) {
      error = task->unit.name() + " level " + std::to_string(task->level) + ": " + kind + " for " +
              std::to_string(task->slices.size()) + " tables";
      return std::nullopt;
    }
    return task;
  }

  // A part of a level (slice_task.h): the values it reads go into this
  // worker's arrays for the unit (as large as the unit's tables, but only
  // the pages a part touches take memory, and they are given back after
  // it), the part is solved with the generator's solver, its values go back.
  bool solve_part(const std::string& text, std::string& error) {
    const auto task = open_task(text, "a part", error);
    if (!task) return false;
    const std::string what = task->unit.name() + " level " + std::to_string(task->level);
    for (const SliceValues& v : task->inputs)
      if (v.table >= kings_per_slice_.size() ||
          !write_slice(v, *part_.values[v.table], nullptr, kings_per_slice_[v.table])) {
        error = what + ": an input slice that does not fit the unit";
        return false;
      }
    gen::Stopwatch watch;
    part_.rounds = 0;
    gen::SolveStatus status = gen::SolveStatus::Failed;
    try {
      status = gen::solve_slices(task->unit, builder_.finished(), task->level, task->slices, part_);
    } catch (const std::exception& e) {
      part_.error = e.what();
    }
    if (status != gen::SolveStatus::Ok) {
      error = what + ": " + (status == gen::SolveStatus::Interrupted ? std::string("interrupted") : part_.error);
      return false;
    }
    SliceResult result{task->unit, task->level, part_.rounds, watch.lap(), {}, {}};
    hooks_.alter(*task, TestHooks::kSolved, *this);
    result.checksum = part_checksum(pointers(part_.values), pointers(part_.mtc), task->slices, kings_per_slice_);
    hooks_.alter(*task, TestHooks::kSent, *this);
    for (std::size_t t = 0; t < task->slices.size(); ++t)
      for (const std::uint32_t slice : task->slices[t])
        result.values.push_back(read_slice(*part_.values[t], part_.mtc.empty() ? nullptr : part_.mtc[t].get(),
                                           static_cast<std::uint8_t>(t), slice, kings_per_slice_[t]));
    hooks_.delay();
    send_data(0, kPartDone, encode(result));
    for (auto& v : part_.values) v->clear();
    for (auto& m : part_.mtc) m->release();
    return true;
  }

  // A part another worker solved (slice_task.h, SliceTask::claimed): its
  // values and the values of the level above it reads go into this worker's
  // arrays, and the verifier checks the part against its successors
  // (verify_part_in_memory). Rank 0 hears "ok" or what failed.
  bool check_part(const std::string& text, std::string& error) {
    const auto task = open_task(text, "a check", error);
    if (!task) return false;
    const std::string what = task->unit.name() + " level " + std::to_string(task->level);
    for (const bool claimed : {false, true})
      for (const SliceValues& v : claimed ? task->claimed : task->inputs) {
        gen::MtcValues* mtc = claimed && options_.mtc ? part_.mtc[v.table].get() : nullptr;
        if (v.table >= kings_per_slice_.size() || (mtc && v.mtc.empty()) ||
            !write_slice(v, *part_.values[v.table], mtc, kings_per_slice_[v.table])) {
          error = what + ": a slice to check that does not fit the unit";
          return false;
        }
      }
    std::vector<std::span<const std::uint8_t>> mtc;
    for (auto& m : part_.mtc) mtc.push_back(m->bytes());
    gen::Stopwatch watch;
    std::string why;
    const bool sound = gen::verify_part_in_memory(gen::unit_of(task->unit), task->level, task->slices,
                                                  pointers(part_.values), mtc, builder_.finished(), why);
    const std::string seconds = std::to_string(watch.lap());
    for (auto& v : part_.values) v->clear();
    for (auto& m : part_.mtc) m->release();
    if (!sound && why == "interrupted") {
      error = what + ": interrupted";
      return false;
    }
    hooks_.delay();
    send_text(0, kCheckDone, sound ? "ok\t" + seconds : "failed\t" + seconds + "\t" + why);
    return true;
  }

  // Arrays for the parts of a new unit: zero, costing nothing until touched.
  void start_unit(const Material& unit) {
    part_unit_ = unit;
    part_ = gen::UnitSolution{};
    kings_per_slice_.clear();
    for (const Material& t : gen::unit_of(unit)) {
      const PositionIndex index(t);
      kings_per_slice_.push_back(index.kings_per_slice());
      part_.values.push_back(std::make_unique<gen::UnitValues>(index.size(), gen::UnitValues::Unset{}));
      part_.values.back()->clear();
      if (options_.mtc) {
        part_.mtc.push_back(std::make_unique<gen::MtcValues>(index.size()));
        part_.mtc.back()->release();  // small pages, nothing touched yet
      }
    }
  }

  // Rank 0 ends the job when it reads the failure; until then it may be
  // sending this worker more (the next chunk of a file), so the worker keeps
  // receiving: a rank blocked on a send to a worker that stopped listening
  // never reads the failure, and the job hangs.
  void fail(const std::string& error) {
    send_text(0, kFailed, error);
    discard_until(0, kStop);
  }

  template <class T>
  static std::vector<const T*> pointers(const std::vector<std::unique_ptr<T>>& arrays) {
    std::vector<const T*> out;
    for (const auto& a : arrays) out.push_back(a.get());
    return out;
  }

  // Test hooks, read from the environment once; unset, they do nothing.
  //  - DTB_TEST_PART_DELAY_MS=N: sleep a random 0..N ms before sending each
  //    part's values or a unit's files, so that parts come back in an order
  //    the schedule did not plan (scripts/mpi-stress).
  //  - DTB_TEST_ALTER_PART=UNIT:LEVEL:WHEN: in the first part of that unit
  //    and level this worker solves, change one value of a position that
  //    need not capture, WHEN "solved" (before the part's checksum: as a
  //    wrong solve would, which only rank 0's check of the levels can see)
  //    or "sent" (after it: as damage between the worker's arrays and rank
  //    0's would). tests/cluster/mpi_check.sh: the build must fail, naming
  //    the unit, and write no table of it.
  class TestHooks {
   public:
    enum When { kSolved, kSent };

    TestHooks() : random_(std::random_device{}()) {
      if (const char* ms = std::getenv("DTB_TEST_PART_DELAY_MS"); ms && *ms) delay_ms_ = std::atoi(ms);
      const char* alter = std::getenv("DTB_TEST_ALTER_PART");
      if (!alter || !*alter) return;
      std::stringstream in(alter);
      std::string unit, level, when;
      std::getline(in, unit, ':');
      std::getline(in, level, ':');
      std::getline(in, when);
      alter_unit_ = parse_material(unit);
      alter_level_ = std::atoi(level.c_str());
      alter_when_ = when == "sent" ? kSent : kSolved;
    }

    void delay() {
      if (delay_ms_ <= 0) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(std::uniform_int_distribution<int>(0, delay_ms_)(random_)));
    }

    void alter(const SliceTask& task, When when, Worker& worker) {
      if (!alter_unit_ || *alter_unit_ != task.unit || alter_level_ != task.level || alter_when_ != when) return;
      if (worker.change_one_quiet_value(task)) alter_unit_.reset();  // once
    }

   private:
    int delay_ms_ = 0;
    std::mt19937 random_;
    std::optional<Material> alter_unit_;
    int alter_level_ = -1;
    When alter_when_ = kSolved;
  };

  // For DTB_TEST_ALTER_PART: the first position of the part's first table
  // that need not capture gets another value. False if it has none.
  bool change_one_quiet_value(const SliceTask& task) {
    gen::UnitValues& values = *part_.values[0];
    for (const std::uint32_t slice : task.slices[0])
      for (std::uint64_t i = slice * kings_per_slice_[0]; i < (slice + 1) * kings_per_slice_[0]; ++i) {
        if (values.capture(i)) continue;
        // Rewrite the word of 64 positions that holds i (UnitValues sets whole words or ORs).
        const std::uint64_t word = i / 64;
        std::uint64_t half[2] = {0, 0}, captures = 0;
        for (std::uint64_t k = 0; k < 64 && word * 64 + k < values.size(); ++k) {
          const std::uint64_t j = word * 64 + k;
          auto v = static_cast<std::uint64_t>(values.value(j));
          if (j == i) v = (v + 1) % 3;
          half[k / 32] |= v << ((k % 32) * 2);
          captures |= std::uint64_t{values.capture(j)} << k;
        }
        values.set_words(word, half[0], half[1], captures);
        return true;
      }
    return false;
  }

  gen::BuildOptions options_;
  bool shared_;
  TestHooks hooks_;
  gen::BuildSummary summary_;
  gen::UnitBuilder builder_{options_, summary_};
  std::optional<Material> part_unit_;           // the unit of the parts solved here
  gen::UnitSolution part_;                      // its value (and MTC) arrays
  std::vector<std::uint64_t> kings_per_slice_;  // per table of that unit
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
