// The C API (dtb/dtb.h) over the C++ probe. Nothing may throw across this
// boundary: every entry point catches and turns exceptions into statuses.
#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "index/colour.h"
#include "index/draw_rule_class.h"
#include "index/material.h"
#include "probe/c_position.h"
#include "probe/counted_play.h"
#include "probe/handle.h"
#include "probe/root_probe.h"
#include "rules/article62.h"
#include "rules/notation.h"

namespace {

using dtb::probe::ProbeError;

void copy_text(char* dst, std::size_t size, const std::string& src) {
  const std::size_t n = std::min(size - 1, src.size());
  std::memcpy(dst, src.data(), n);
  dst[n] = '\0';
}

dtb_status report(dtb_error* error, dtb_status status, const std::string& message,
                  const std::string& material = "", std::int64_t block = -1) {
  if (error) {
    error->status = status;
    copy_text(error->material, sizeof error->material, material);
    error->block = block;
    copy_text(error->message, sizeof error->message, message);
  }
  return status;
}

dtb_status report(dtb_error* error, const ProbeError& e) {
  return report(error, e.status, e.message, e.material, e.block);
}

dtb_status out_of_memory(dtb_error* error) {
  return report(error, DTB_OUT_OF_MEMORY, "out of memory");
}

// Validate a position from outside; fills `error` when it is not valid.
dtb_status checked_position(const dtb_position* in, dtb::Position& out, dtb_error* error) {
  if (!in) return report(error, DTB_INVALID_ARGUMENT, "position is NULL");
  std::string why;
  if (const dtb_status s = dtb::probe::from_c(*in, out, error ? &why : nullptr); s != DTB_OK)
    return report(error, s, "invalid position: " + why);
  return DTB_OK;
}

dtb_wdl to_c(dtb::Wdl v) { return static_cast<dtb_wdl>(static_cast<int>(v)); }

// The legal moves of `p` into `list` and their number into *count, or
// DTB_INVALID_ARGUMENT if they do not fit in `capacity` (*count still set).
dtb_status generate_within(const dtb::Position& p, std::size_t capacity, dtb::MoveList& list,
                           std::size_t* count, dtb_error* error, const char* function) {
  dtb::generate_moves(p, list);
  *count = static_cast<std::size_t>(list.size);
  if (static_cast<std::size_t>(list.size) <= capacity) return DTB_OK;
  return report(error, DTB_INVALID_ARGUMENT,
                std::string(function) + ": " + std::to_string(list.size) + " moves, capacity " +
                    std::to_string(capacity));
}

// The shared body of the probes that answer a result with a distance
// (dtb_probe_dtw, dtb_probe_rule_budget): `lookup(position, outcome, detail)`.
// A draw has no distance: DTB_UNKNOWN, as every distance the API cannot give.
template <class Lookup>
dtb_status outcome_probe(const char* function, dtb_tables* tables, const dtb_position* pos,
                         dtb_wdl* wdl, int* plies, dtb_error* error, Lookup lookup) {
  if (!tables || !wdl || !plies)
    return report(error, DTB_INVALID_ARGUMENT, std::string(function) + ": NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    if (tables->base->check_size(p, &detail) != DTB_OK) return report(error, detail);
    dtb::Outcome o;
    if (lookup(p, o, detail) != DTB_OK) return report(error, detail);
    *wdl = to_c(o.value);
    *plies = o.value == dtb::Wdl::Draw ? DTB_UNKNOWN : o.plies;
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

// A material from its canonical name, with the index of its positions.
dtb_status material_index(const char* name, std::optional<dtb::PositionIndex>& out, dtb_error* error) {
  if (!name) return report(error, DTB_INVALID_ARGUMENT, "material is NULL");
  try {
    std::string why;
    const auto m = dtb::parse_material(name, &why);
    if (!m) return report(error, DTB_INVALID_ARGUMENT, "bad material \"" + std::string(name) + "\": " + why);
    out.emplace(*m);
    return DTB_OK;
  } catch (const std::invalid_argument& e) {  // a material that cannot stand on the board
    return report(error, DTB_INVALID_ARGUMENT, e.what());
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

// dtb_best_move, dtb_best_move_rules and dtb_best_move_rule: the position checked, the move
// chosen by `choose` (a PerfectPlay member), and its public form.
template <class Choose>
dtb_status played_move(const dtb_position* pos, dtb_move* move, dtb_error* error, Choose choose) {
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    dtb::Move m;
    dtb::Wdl kept;
    if (choose(p, m, detail, kept) != DTB_OK) return report(error, detail);
    *move = dtb::probe::to_c(m);
    move->wdl = to_c(kept);
    move->keeps_best = 1;
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

// The shared body of dtb_probe_wdl and dtb_probe_wdl_cached.
dtb_status probe_wdl(const char* function, dtb_tables* tables, const dtb_position* pos, dtb_wdl* wdl,
                     dtb_error* error, dtb::probe::Tablebase::Lookup lookup) {
  if (!tables || !wdl) return report(error, DTB_INVALID_ARGUMENT, std::string(function) + ": NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    dtb::Wdl v;
    // Without `error` the detail is not filled in (no message to build): the
    // status is s itself, not detail's.
    const dtb_status s = tables->base->wdl(p, v, error ? &detail : nullptr, lookup);
    if (s != DTB_OK) return error ? report(error, detail) : s;
    *wdl = to_c(v);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

// dtb_probe_counted and its deprecated form dtb_probe_rules, `function`
// naming the caller in messages.
dtb_status counted_probe(const char* function, dtb_tables* tables, const dtb_position* pos,
                         const dtb_counts* counts, dtb_wdl* wdl, dtb_error* error) {
  if (!tables || !counts || !wdl) return report(error, DTB_INVALID_ARGUMENT, std::string(function) + ": NULL argument");
  try {
    ProbeError detail;
    if (dtb::probe::check_counts(*counts, function, &detail) != DTB_OK) return report(error, detail);
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    dtb::Wdl v;
    if (dtb::probe::counted_value(*tables, p, *counts, v, &detail) != DTB_OK) return report(error, detail);
    *wdl = to_c(v);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

// dtb_probe_root after its arguments are checked: the moves into `moves` if
// they fit in `capacity` (DTB_INVALID_ARGUMENT with *count needed if not).
dtb_status root_moves(dtb_tables& tables, const dtb::Position& p, const dtb_counts* counts, dtb_root_move* moves,
                      std::size_t capacity, std::size_t* count, dtb_error* error) {
  dtb::MoveList list;
  if (const dtb_status s = generate_within(p, capacity, list, count, error, "dtb_probe_root"); s != DTB_OK)
    return s;
  ProbeError detail;
  std::vector<dtb_root_move> found;
  if (dtb::probe::probe_root(tables, p, counts, found, &detail) != DTB_OK) return report(error, detail);
  std::copy(found.begin(), found.end(), moves);
  return DTB_OK;
}

}  // namespace

extern "C" {

const char* dtb_status_string(dtb_status status) {
  switch (status) {
    case DTB_OK: return "ok";
    case DTB_TABLE_MISSING: return "table missing";
    case DTB_TOO_MANY_PIECES: return "too many pieces";
    case DTB_INVALID_POSITION: return "invalid position";
    case DTB_CORRUPTED_TABLE: return "corrupted table";
    case DTB_OUT_OF_MEMORY: return "out of memory";
    case DTB_IO_ERROR: return "i/o error";
    case DTB_INVALID_ARGUMENT: return "invalid argument";
    case DTB_NOT_IN_CLASS: return "not in a draw-limit class";
    case DTB_GAME_OVER: return "game over (no legal move)";
    case DTB_NOT_EXACT: return "not exact (article 6.2)";
    case DTB_NOT_CACHED: return "not cached";
  }
  return "unknown status";
}

dtb_status dtb_open(const char* dir, size_t cache_bytes, dtb_tables** out, dtb_error* error) {
  return dtb_open_limited(dir, cache_bytes, 0, out, error);
}

dtb_status dtb_open_limited(const char* dirs, size_t cache_bytes, int max_pieces, dtb_tables** out,
                            dtb_error* error) {
  if (!dirs || !out) return report(error, DTB_INVALID_ARGUMENT, "dtb_open: dir and out must not be NULL");
  *out = nullptr;
  if (max_pieces < 0) return report(error, DTB_INVALID_ARGUMENT, "dtb_open_limited: max_pieces must be 0 or more");
  try {
    auto handle = std::make_unique<dtb_tables>();
    ProbeError e;
    if (dtb::probe::Tablebase::open(dirs, cache_bytes, max_pieces, handle->base, &e) != DTB_OK)
      return report(error, e);
    handle->dtw = std::make_unique<dtb::probe::DtwTables>(handle->base->cache(), handle->base->locator());
    handle->rules = std::make_unique<dtb::probe::RuleTables>(*handle->base);
    handle->play = std::make_unique<dtb::probe::PerfectPlay>(*handle->base);
    *out = handle.release();
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  } catch (const std::exception& e) {
    return report(error, DTB_IO_ERROR, e.what());
  }
}

void dtb_close(dtb_tables* tables) { delete tables; }

int dtb_max_pieces(const dtb_tables* tables) { return tables ? tables->base->max_pieces() : 0; }

dtb_status dtb_probe_rule(dtb_tables* tables, const dtb_position* pos, int plies_in_class,
                          dtb_wdl* wdl, dtb_error* error) {
  if (!tables || !wdl) return report(error, DTB_INVALID_ARGUMENT, "dtb_probe_rule: NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    dtb::Wdl v;
    const dtb_status s = tables->rules->rule_value(p, plies_in_class, v, &detail);
    if (s != DTB_OK) return report(error, detail);
    *wdl = to_c(v);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_probe_wdl(dtb_tables* tables, const dtb_position* pos, dtb_wdl* wdl, dtb_error* error) {
  return probe_wdl("dtb_probe_wdl", tables, pos, wdl, error, dtb::probe::Tablebase::Lookup::Load);
}

dtb_status dtb_probe_wdl_cached(dtb_tables* tables, const dtb_position* pos, dtb_wdl* wdl, dtb_error* error) {
  return probe_wdl("dtb_probe_wdl_cached", tables, pos, wdl, error, dtb::probe::Tablebase::Lookup::CacheOnly);
}

dtb_status dtb_probe_moves(dtb_tables* tables, const dtb_position* pos, dtb_move* moves,
                           size_t capacity, size_t* count, dtb_wdl* best, dtb_error* error) {
  if (!tables || !count || (capacity > 0 && !moves))
    return report(error, DTB_INVALID_ARGUMENT, "dtb_probe_moves: NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    if (tables->base->check_reach(p, &detail) != DTB_OK) return report(error, detail);
    dtb::MoveList list;
    if (const dtb_status s = generate_within(p, capacity, list, count, error, "dtb_probe_moves");
        s != DTB_OK)
      return s;
    dtb::Wdl top = dtb::Wdl::Loss;  // no legal move: lost (FMJD 7.2)
    for (int i = 0; i < list.size; ++i) {
      dtb::Wdl v;
      const dtb_status s = tables->base->wdl_after(p, list[i], v, error ? &detail : nullptr);
      if (s != DTB_OK) return error ? report(error, detail) : s;
      moves[i] = dtb::probe::to_c(list[i]);
      moves[i].wdl = to_c(v);
      top = std::max(top, v);
    }
    for (int i = 0; i < list.size; ++i) moves[i].keeps_best = moves[i].wdl == to_c(top);
    if (best) *best = to_c(top);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_position_from_fen(const char* fen, dtb_position* out, dtb_error* error) {
  if (!fen || !out) return report(error, DTB_INVALID_ARGUMENT, "dtb_position_from_fen: NULL argument");
  try {
    std::string why;
    const auto p = dtb::parse_fen(fen, &why);
    if (!p) return report(error, DTB_INVALID_ARGUMENT, "bad FEN: " + why);
    *out = dtb::probe::to_c(*p);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_position_to_fen(const dtb_position* pos, char* buffer, size_t size) {
  if (!buffer || size == 0) return DTB_INVALID_ARGUMENT;
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, nullptr); s != DTB_OK) return s;
    const std::string fen = dtb::to_fen(p);
    if (fen.size() >= size) return DTB_INVALID_ARGUMENT;
    copy_text(buffer, size, fen);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return DTB_OUT_OF_MEMORY;
  }
}

dtb_status dtb_move_to_string(const dtb_position* pos, const dtb_move* move, char* buffer,
                              size_t size) {
  if (!move || !buffer || size == 0) return DTB_INVALID_ARGUMENT;
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, nullptr); s != DTB_OK) return s;
    dtb::Move m;
    if (!dtb::probe::find_move(p, *move, m)) return DTB_INVALID_ARGUMENT;
    const std::string text = dtb::move_to_string(p, m);
    if (text.size() >= size) return DTB_INVALID_ARGUMENT;
    copy_text(buffer, size, text);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return DTB_OUT_OF_MEMORY;
  }
}

dtb_status dtb_make_move(const dtb_position* pos, const dtb_move* move, dtb_position* after) {
  if (!move || !after) return DTB_INVALID_ARGUMENT;
  dtb::Position p;
  if (const dtb_status s = checked_position(pos, p, nullptr); s != DTB_OK) return s;
  dtb::Move m;
  if (!dtb::probe::find_move(p, *move, m)) return DTB_INVALID_ARGUMENT;
  *after = dtb::probe::to_c(dtb::make_move(p, m));
  return DTB_OK;
}

dtb_status dtb_legal_moves(const dtb_position* pos, dtb_move* moves, size_t capacity,
                           size_t* count, dtb_error* error) {
  if (!count || (capacity > 0 && !moves))
    return report(error, DTB_INVALID_ARGUMENT, "dtb_legal_moves: NULL argument");
  dtb::Position p;
  if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
  dtb::MoveList list;
  if (const dtb_status s = generate_within(p, capacity, list, count, error, "dtb_legal_moves"); s != DTB_OK)
    return s;
  for (int i = 0; i < list.size; ++i) moves[i] = dtb::probe::to_c(list[i]);
  return DTB_OK;
}

dtb_status dtb_move_from_string(const dtb_position* pos, const char* text, dtb_move* out,
                                dtb_error* error) {
  if (!text || !out) return report(error, DTB_INVALID_ARGUMENT, "dtb_move_from_string: NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    std::string why;
    const auto m = dtb::parse_move(p, text, &why);
    if (!m) return report(error, DTB_INVALID_ARGUMENT, "bad move \"" + std::string(text) + "\": " + why);
    *out = dtb::probe::to_c(*m);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_probe_dtw(dtb_tables* tables, const dtb_position* pos, dtb_wdl* wdl, int* plies,
                         dtb_error* error) {
  return outcome_probe("dtb_probe_dtw", tables, pos, wdl, plies, error,
                       [&](const dtb::Position& p, dtb::Outcome& o, ProbeError& detail) {
                         return tables->dtw->dtw(p, o, &detail);
                       });
}

dtb_status dtb_probe_rule_budget(dtb_tables* tables, const dtb_position* pos, dtb_wdl* result,
                                 int* plies, dtb_error* error) {
  return outcome_probe("dtb_probe_rule_budget", tables, pos, result, plies, error,
                       [&](const dtb::Position& p, dtb::Outcome& o, ProbeError& detail) {
                         return tables->rules->budget(p, o, &detail);
                       });
}

dtb_status dtb_material_size(const char* material, uint64_t* size, dtb_error* error) {
  if (!size) return report(error, DTB_INVALID_ARGUMENT, "dtb_material_size: NULL argument");
  std::optional<dtb::PositionIndex> index;
  if (const dtb_status s = material_index(material, index, error); s != DTB_OK) return s;
  *size = index->size();
  return DTB_OK;
}

dtb_status dtb_material_positions(const char* material, dtb_side side, uint64_t first,
                                  dtb_position* out, size_t count, dtb_error* error) {
  if (count > 0 && !out) return report(error, DTB_INVALID_ARGUMENT, "dtb_material_positions: NULL argument");
  if (side != DTB_WHITE && side != DTB_BLACK)
    return report(error, DTB_INVALID_ARGUMENT, "dtb_material_positions: side is neither DTB_WHITE nor DTB_BLACK");
  std::optional<dtb::PositionIndex> index;
  if (const dtb_status s = material_index(material, index, error); s != DTB_OK) return s;
  // Black to move: the colour reversals of the reversed material's table.
  if (side == DTB_BLACK) index.emplace(index->material().reversed());
  if (first > index->size() || count > index->size() - first)
    return report(error, DTB_INVALID_ARGUMENT,
                  "dtb_material_positions: positions " + std::to_string(first) + ".." +
                      std::to_string(first + count) + " run past the " + std::to_string(index->size()) +
                      " positions of " + material);
  const dtb::Color to_move = side == DTB_WHITE ? dtb::Color::White : dtb::Color::Black;
  for (size_t i = 0; i < count; ++i) out[i] = dtb::probe::to_c(dtb::table_unrank(*index, first + i, to_move));
  return DTB_OK;
}

dtb_status dtb_probe_mtc(dtb_tables* tables, const dtb_position* pos, dtb_wdl* wdl, int* mtc,
                         dtb_error* error) {
  if (!tables || !wdl || !mtc) return report(error, DTB_INVALID_ARGUMENT, "dtb_probe_mtc: NULL argument");
  try {
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    ProbeError detail;
    dtb::Wdl v;
    std::optional<int> plies;
    if (tables->play->mtc(p, v, plies, &detail) != DTB_OK) return report(error, detail);
    *wdl = to_c(v);
    *mtc = plies.value_or(DTB_UNKNOWN);
    return DTB_OK;
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_probe_counted(dtb_tables* tables, const dtb_position* pos, const dtb_counts* counts,
                             dtb_wdl* wdl, dtb_error* error) {
  return counted_probe("dtb_probe_counted", tables, pos, counts, wdl, error);
}

dtb_status dtb_probe_rules(dtb_tables* tables, const dtb_position* pos, int plies_since_conversion,
                           int plies_in_class, dtb_wdl* wdl, dtb_error* error) {
  const dtb_counts counts{plies_since_conversion, plies_in_class};
  return counted_probe("dtb_probe_rules", tables, pos, &counts, wdl, error);
}

dtb_status dtb_best_move(dtb_tables* tables, const dtb_position* pos, dtb_move* move, dtb_error* error) {
  if (!tables || !move) return report(error, DTB_INVALID_ARGUMENT, "dtb_best_move: NULL argument");
  return played_move(pos, move, error, [&](const dtb::Position& p, dtb::Move& m, ProbeError& d, dtb::Wdl& kept) {
    return tables->play->best_move(p, m, &d, &kept);
  });
}

dtb_status dtb_best_move_rules(dtb_tables* tables, const dtb_position* pos, int plies_since_conversion,
                               dtb_move* move, dtb_error* error) {
  if (!tables || !move) return report(error, DTB_INVALID_ARGUMENT, "dtb_best_move_rules: NULL argument");
  if (plies_since_conversion < 0 || plies_since_conversion > dtb::kMaxPliesSinceConversion)
    return report(error, DTB_INVALID_ARGUMENT,
                  "dtb_best_move_rules: plies_since_conversion must be 0..49 (at 50 the game is drawn)");
  return played_move(pos, move, error, [&](const dtb::Position& p, dtb::Move& m, ProbeError& d, dtb::Wdl& kept) {
    return tables->play->best_move_article62(p, plies_since_conversion, m, &d, &kept);
  });
}

dtb_status dtb_best_move_counted(dtb_tables* tables, const dtb_position* pos, const dtb_counts* counts,
                                 dtb_move* move, dtb_error* error) {
  if (!tables || !counts || !move)
    return report(error, DTB_INVALID_ARGUMENT, "dtb_best_move_counted: NULL argument");
  ProbeError detail;
  if (dtb::probe::check_counts(*counts, "dtb_best_move_counted", &detail) != DTB_OK) return report(error, detail);
  return played_move(pos, move, error, [&](const dtb::Position& p, dtb::Move& m, ProbeError& d, dtb::Wdl& kept) {
    return dtb::probe::counted_best_move(*tables, p, *counts, m, &d, &kept);
  });
}

dtb_status dtb_probe_root(dtb_tables* tables, const dtb_position* pos, const dtb_counts* counts,
                          dtb_root_move* moves, size_t capacity, size_t* count, dtb_error* error) {
  if (!tables || !count || (capacity > 0 && !moves))
    return report(error, DTB_INVALID_ARGUMENT, "dtb_probe_root: NULL argument");
  try {
    ProbeError detail;
    if (counts && dtb::probe::check_counts(*counts, "dtb_probe_root", &detail) != DTB_OK)
      return report(error, detail);
    dtb::Position p;
    if (const dtb_status s = checked_position(pos, p, error); s != DTB_OK) return s;
    return root_moves(*tables, p, counts, moves, capacity, count, error);
  } catch (const std::bad_alloc&) {
    return out_of_memory(error);
  }
}

dtb_status dtb_best_move_rule(dtb_tables* tables, const dtb_position* pos, int plies_in_class, dtb_move* move,
                              dtb_error* error) {
  if (!tables || !move) return report(error, DTB_INVALID_ARGUMENT, "dtb_best_move_rule: NULL argument");
  return played_move(pos, move, error, [&](const dtb::Position& p, dtb::Move& m, ProbeError& d, dtb::Wdl& kept) {
    return tables->rules->best_move(p, plies_in_class, m, &d, &kept);
  });
}

int dtb_class_limit(const dtb_position* pos) {
  dtb::Position p;
  if (checked_position(pos, p, nullptr) != DTB_OK) return 0;
  return dtb::limit_plies(dtb::rule_class(dtb::material_of(p)));
}

dtb_status dtb_counts_after(const dtb_position* pos, const dtb_move* move, int plies_since_conversion,
                            int plies_in_class, int* plies_since_conversion_after, int* plies_in_class_after) {
  if (!move) return DTB_INVALID_ARGUMENT;
  dtb::Position p;
  if (const dtb_status s = checked_position(pos, p, nullptr); s != DTB_OK) return s;
  dtb::Move m;
  if (!dtb::probe::find_move(p, *move, m)) return DTB_INVALID_ARGUMENT;
  if (plies_since_conversion_after)
    *plies_since_conversion_after = dtb::probe::PerfectPlay::converts(p, m) ? 0 : plies_since_conversion + 1;
  if (plies_in_class_after) *plies_in_class_after = dtb::plies_in_class_after(p, plies_in_class, m);
  return DTB_OK;
}

}  // extern "C"
