#include "gen/finished_tables.h"

#include <limits>
#include <set>
#include <stdexcept>

#include "gen/cost_model.h"
#include "solver/table_loading.h"
#include "solver/unit_solver.h"
#include "probe/capture_check.h"
#include "probe/tablebase.h"

namespace dtb::gen {
std::set<Material> FinishedTables::tables_read_by(const Material& unit) {
  std::set<Material> reads;
  for (const Material& t : unit_of(unit))
    for (const Material& d : direct_dependencies(t)) {
      reads.insert(d);
      for (const Material& e : direct_dependencies(d)) reads.insert(e);
    }
  return reads;
}

FinishedTables::FinishedTables(const std::string& dir, int max_pieces, std::uint64_t cache_bytes,
                               std::uint64_t resident_bytes)
    : resident_budget_(resident_bytes) {
  probe::ProbeError error;
  if (probe::Tablebase::open_expecting(dir, cache_bytes, max_pieces, tables_, &error) != DTB_OK)
    throw std::runtime_error(error.message);
  pages_.emplace(*tables_);
}

FinishedTables::~FinishedTables() = default;

int FinishedTables::slot(const Material& m) {
  return ((m.white_kings * 8 + m.white_men) * 8 + m.black_kings) * 8 + m.black_men;
}

const FinishedTables::Resident* FinishedTables::resident_of(const Material& m) const {
  if (m.white_kings >= 8 || m.white_men >= 8 || m.black_kings >= 8 || m.black_men >= 8) return nullptr;
  return resident_[static_cast<std::size_t>(slot(m))].get();
}

bool FinishedTables::is_resident(const Material& m) const { return resident_of(m) != nullptr; }

bool FinishedTables::is_resident_resolved(const Material& m) const {
  const Resident* r = resident_of(m);
  return r && r->captures == Captures::Resolved;
}

Wdl FinishedTables::value(const Position& p) const {
  if (p.pieces(p.side) == 0) return Wdl::Loss;  // RULES 7.2
  const Position w = p.side == Color::White ? p : colour_reversed(p);
  const Material m = material_of(w);
  if (const Resident* r = resident_of(m)) {
    if (r->captures == Captures::ResolvedOnLookup && probe::must_capture(w)) {
      // A list of its own: this lookup may come from inside resolve_captures
      // (a capture of a larger table leading here), whose per-thread list
      // is still being walked.
      MoveList list;
      return resolve_captures(w, *this, list);
    }
    return r->values->value(r->index.rank(w));
  }
  return probe_value(p);
}

Wdl FinishedTables::probe_value(const Position& p) const {
  Wdl v = Wdl::Draw;
  probe::ProbeError error;
  const dtb_status status = tables_->wdl(p, v, &error);
  pages_->after_probe();
  if (status == DTB_OK) return v;
  if (!failed_.exchange(true)) {
    std::lock_guard<std::mutex> guard(error_mutex_);
    error_ = error.message;
  }
  return Wdl::Draw;
}

std::optional<std::string> FinishedTables::error() const {
  if (!failed_.load()) return std::nullopt;
  std::lock_guard<std::mutex> guard(error_mutex_);
  return error_;
}

void FinishedTables::keep(const Material& m, std::unique_ptr<UnitValues> values,
                          const std::vector<Material>& remaining_units, Captures captures) {
  if (m.pieces() > 7 || m.white_kings >= 8 || m.black_kings >= 8) return;
  if (values->file()) return;  // spilled (unit_values.h): what did not fit memory is not kept in it
  auto& r = resident_[static_cast<std::size_t>(slot(m))];
  if (r) resident_bytes_ -= r->values->memory_bytes();
  values->drop_capture_flags();  // lookups need the values only
  resident_bytes_ += values->memory_bytes();
  r = std::make_unique<Resident>(Resident{PositionIndex(m), std::move(values), captures});
  evict_until_within_budget(remaining_units);
}

void FinishedTables::release_unread(const std::vector<Material>& remaining_units) {
  evict_until_within_budget(remaining_units);  // within the budget already: only the unread go
}

void FinishedTables::set_resident_budget(std::uint64_t bytes, const std::vector<Material>& remaining_units) {
  resident_budget_ = bytes;
  evict_until_within_budget(remaining_units);
}

void FinishedTables::evict_until_within_budget(const std::vector<Material>& remaining_units) {
  // When each resident table is next read: the first remaining unit that reads it.
  constexpr std::size_t kNever = std::numeric_limits<std::size_t>::max();
  std::map<Material, std::size_t> next_read;
  for (std::size_t k = remaining_units.size(); k-- > 0;)
    for (const Material& d : tables_read_by(remaining_units[k])) next_read[d] = k;
  const auto next_read_of = [&](std::size_t s) {
    const auto it = next_read.find(resident_[s]->index.material());
    return it == next_read.end() ? kNever : it->second;
  };
  const auto evict = [&](std::size_t s) {
    resident_bytes_ -= resident_[s]->values->memory_bytes();
    resident_[s].reset();
  };
  // What no remaining unit reads goes at once, budget or not.
  for (std::size_t s = 0; s < resident_.size(); ++s)
    if (resident_[s] && next_read_of(s) == kNever) evict(s);
  while (resident_bytes_ > resident_budget_) {
    std::size_t victim = 0, latest = 0;
    bool found = false;
    for (std::size_t s = 0; s < resident_.size(); ++s) {
      if (!resident_[s]) continue;
      if (const std::size_t when = next_read_of(s); !found || when > latest) victim = s, latest = when, found = true;
    }
    if (!found) return;
    evict(victim);
  }
}

}  // namespace dtb::gen
