#include "probe/perfect_play.h"

#include <algorithm>
#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "compress/table_file.h"
#include "index/colour.h"
#include "index/material.h"
#include "probe/capture_check.h"
#include "probe/move_choice.h"
#include "rules/article62.h"
#include "rules/notation.h"

namespace dtb::probe {
namespace {

dtb_status fail(ProbeError* error, dtb_status status, std::string material, std::string message) {
  if (error) *error = ProbeError{status, std::move(material), -1, std::move(message)};
  return status;
}

}  // namespace

PerfectPlay::PerfectPlay(Tablebase& base)
    : base_(base),
      files_(base.cache(), base.locator(), TableKind::Mtc),
      r62_files_(base.cache(), base.locator(), TableKind::Article62) {}

bool PerfectPlay::converts(const Position& p, const Move& m) {
  return m.is_capture() || (p.kings & (Bitboard{1} << m.from)) == 0;
}

dtb_status PerfectPlay::decided_mtc(const Position& p, Wdl v, int& out, ProbeError* error) {
  out = 0;
  if (p.pieces(p.side) == 0) return DTB_OK;  // FMJD 7.2: lost, the game is over
  if (must_capture(p)) {                     // every move converts
    out = 1;
    return DTB_OK;
  }
  // Blocked: lost with no move left. Only a loss can be (a win has a move).
  if (v == Wdl::Loss && count_moves(p) == 0) return DTB_OK;
  const Position w = white_to_move_form(p);
  std::uint16_t stored = 0;
  ProbeError detail;
  if (const dtb_status s = files_.value(w, stored, &detail); s != DTB_OK) {
    // The reader's message names the file; say also what writes it, since a
    // directory built without --mtc is the usual cause.
    if (s == DTB_TABLE_MISSING)
      detail.message = "table file missing: " + base_.locator().path_of(material_of(w).name() + table_extension(TableKind::Mtc)) +
                       " (moves-to-conversion tables are built by `dtb gen --mtc`)";
    if (error) *error = std::move(detail);
    return s;
  }
  // Any position that still has a move needs at least one ply to convert: a
  // stored 0 here is damage (or a file of another meaning), not a distance.
  if (stored == 0)
    return fail(error, DTB_CORRUPTED_TABLE, material_of(w).name(),
                base_.locator().path_of(material_of(w).name() + table_extension(TableKind::Mtc)) +
                    ": MTC 0 stored for a position that has legal moves (" + to_fen(p) + ")");
  out = stored;
  return DTB_OK;
}

dtb_status PerfectPlay::cost(const Position& p, const Move& m, Wdl after_value, int& out, ProbeError* error) {
  if (converts(p, m)) {
    out = 1;
    return DTB_OK;
  }
  int after = 0;
  if (const dtb_status s = decided_mtc(make_move(p, m), after_value, after, error); s != DTB_OK) return s;
  out = 1 + after;
  return DTB_OK;
}

dtb_status PerfectPlay::mtc(const Position& p, Wdl& value, std::optional<int>& mtc, ProbeError* error) {
  mtc.reset();
  if (const dtb_status s = base_.wdl(p, value, error); s != DTB_OK) return s;
  if (value == Wdl::Draw) return DTB_OK;
  int plies = 0;
  if (const dtb_status s = decided_mtc(p, value, plies, error); s != DTB_OK) return s;
  mtc = plies;
  return DTB_OK;
}

dtb_status PerfectPlay::article62(const Position& p, int plies_since_conversion, Wdl& out, ProbeError* error) {
  std::optional<int> plies;
  if (const dtb_status s = mtc(p, out, plies, error); s != DTB_OK) return s;
  // A draw is exact everywhere (6.2 never makes a draw a win), and so is a
  // game already over (MTC 0: nothing left to count).
  if (out == Wdl::Draw || *plies == 0) return DTB_OK;
  return article62_decided(p, plies_since_conversion, *plies, out, error);
}

dtb_status PerfectPlay::article62_fresh(const Position& p, Wdl theoretical, Wdl& out, ProbeError* error) {
  if (popcount(p.occupied()) > base_.max_pieces()) return article62(p, 0, out, error);
  out = theoretical;
  if (out == Wdl::Draw) return DTB_OK;
  int plies = 0;
  if (const dtb_status s = decided_mtc(p, out, plies, error); s != DTB_OK) return s;
  if (plies == 0) return DTB_OK;
  return article62_decided(p, 0, plies, out, error);
}

dtb_status PerfectPlay::article62_decided(const Position& p, int plies_since_conversion, int plies, Wdl& out,
                                          ProbeError* error) {
  if (popcount(p.occupied()) > base_.max_pieces()) return article62_by_captures(p, out, error);
  const Position w = white_to_move_form(p);
  const Material m = material_of(w);
  Article62Facts facts;
  if (const dtb_status s = article62_facts(m, facts, error); s != DTB_OK) return s;
  const int left = kArticle62Plies - plies_since_conversion;
  if (facts.own_table) {
    std::uint16_t stored = 0;
    if (const dtb_status s = r62_files_.value(w, stored, error); s != DTB_OK) return s;
    if (stored > left) out = Wdl::Draw;
    return DTB_OK;
  }
  if (plies > left) out = Wdl::Draw;
  if (out == Wdl::Draw || facts.exact) return DTB_OK;
  return fail(error, DTB_NOT_EXACT, m.name(),
              "article 6.2 value of " + m.name() + " not exact: it converts into " + facts.unclean +
                  ", whose values under 6.2 from a fresh count are not all its theoretical ones, and " + base_.locator().text() +
                  " has no " + m.name() + table_extension(TableKind::Article62) +
                  " (built by `dtb gen --mtc --article62`); theoretical " + std::string(to_string(out)) + " in " +
                  std::to_string(plies) + " plies to the next conversion");
}

dtb_status PerfectPlay::clean(const Material& m, bool& out, ProbeError* error) {
  std::uint16_t longest = 0;
  if (const dtb_status s = files_.max_value(m, longest, error); s != DTB_OK) return s;
  out = longest <= kArticle62Plies;
  return DTB_OK;
}

dtb_status PerfectPlay::article62_exact(const Material& m, bool& exact, std::string& unclean, ProbeError* error) {
  Article62Facts facts;
  if (const dtb_status s = article62_facts(m, facts, error); s != DTB_OK) return s;
  exact = facts.exact;
  unclean = facts.unclean;
  return DTB_OK;
}

dtb_status PerfectPlay::article62_faithful(const Material& m, bool& faithful, ProbeError* error) {
  Article62Facts facts;
  if (const dtb_status s = article62_facts(m, facts, error); s != DTB_OK) return s;
  faithful = facts.faithful;
  return DTB_OK;
}

// Why faithfulness composes: a table's 6.2 values from a fresh count differ
// from its theoretical ones only if some win or loss cannot force its next
// conversion within 50 plies (it is not clean) or converts into a table
// whose values differ (a dependency, or its own unit through a man move,
// that is not faithful). An `.r62` table records its 6.2 values themselves,
// captures included, so its header alone says whether any differs.
dtb_status PerfectPlay::article62_facts(const Material& m, Article62Facts& out, ProbeError* error) {
  {
    std::lock_guard lock(facts_mutex_);
    if (const auto it = facts_.find(m); it != facts_.end()) {
      out = it->second;
      return DTB_OK;
    }
  }
  // Decided without the lock (the recursion takes it); two threads may both
  // decide a material, with the same answer.
  Article62Facts f;
  f.own_table = base_.locator().has(m.name() + table_extension(TableKind::Article62));
  if (f.own_table) {
    std::uint16_t longest = 0;
    if (const dtb_status s = r62_files_.max_value(m, longest, error); s != DTB_OK) return s;
    f.faithful = longest <= kArticle62Plies;
  } else {
    std::vector<Material> own;
    if (m.men() > 0) own = {m, m.reversed()};
    for (const Material& t : own) {
      bool is_clean = true;
      if (const dtb_status s = clean(t, is_clean, error); s != DTB_OK) return s;
      if (!is_clean) f = {false, false, false, t.name()};
      if (!f.exact) break;
    }
    for (const Material& d : direct_dependencies(m)) {
      if (!f.exact) break;
      Article62Facts dependency;
      if (const dtb_status s = article62_facts(d, dependency, error); s != DTB_OK) return s;
      if (!dependency.faithful) f = {false, false, false, dependency.exact ? d.name() : dependency.unclean};
    }
    bool is_clean = true;
    if (f.exact) {
      if (const dtb_status s = clean(m, is_clean, error); s != DTB_OK) return s;
      f.faithful = is_clean;
    }
  }
  std::lock_guard lock(facts_mutex_);
  facts_.emplace(m, f);
  out = f;
  return DTB_OK;
}

dtb_status PerfectPlay::article62_by_captures(const Position& p, Wdl& out, ProbeError* error) {
  // Past the tables the side to move must capture (Tablebase::check_reach),
  // and a capture starts the count again: the value is the best over the
  // captures of each successor's value from a fresh count.
  MoveList captures;
  generate_moves(p, captures);
  out = Wdl::Loss;
  for (int i = 0; i < captures.size; ++i) {
    const Position child = make_move(p, captures[i]);
    Wdl v = Wdl::Loss;  // the last opposing piece taken: the mover has won
    if (child.pieces(child.side) != 0)
      if (const dtb_status s = article62(child, 0, v, error); s != DTB_OK) return s;
    out = std::max(out, negate(v));
  }
  return DTB_OK;
}

dtb_status PerfectPlay::moves_to_choose(const Position& p, MoveList& list, ProbeError* error) {
  generate_moves(p, list);
  // Checked before the size: a game that is over needs no table to say so.
  if (list.size == 0)
    return fail(error, DTB_GAME_OVER, "", "the side to move has no legal move: it has lost, the game is over");
  return base_.check_reach(p, error);
}

dtb_status PerfectPlay::best_move(const Position& p, Move& out, ProbeError* error, Wdl* value) {
  MoveList list;
  if (const dtb_status s = moves_to_choose(p, list, error); s != DTB_OK) return s;

  // The values of the moves first: the position's value is the best of them.
  std::vector<Wdl> values(static_cast<std::size_t>(list.size));
  Wdl top = Wdl::Loss;
  for (int i = 0; i < list.size; ++i) {
    if (const dtb_status s = base_.wdl_after(p, list[i], values[static_cast<std::size_t>(i)], error);
        s != DTB_OK)
      return s;
    top = std::max(top, values[static_cast<std::size_t>(i)]);
  }
  if (value) *value = top;
  int chosen = -1;
  const auto move_cost = [&](int i, int& c) { return cost(p, list[i], negate(top), c, error); };
  if (const dtb_status s = pick_move(list, values, top, move_cost, chosen); s != DTB_OK) return s;
  out = list[chosen];
  return DTB_OK;
}

dtb_status PerfectPlay::article62_plies(const Position& q, Wdl v, int& out, ProbeError* error) {
  out = 0;
  if (q.pieces(q.side) == 0 || (v == Wdl::Loss && count_moves(q) == 0)) return DTB_OK;  // the game is over
  if (must_capture(q)) {  // every move converts
    out = 1;
    return DTB_OK;
  }
  const Position w = white_to_move_form(q);
  Article62Facts facts;
  if (const dtb_status s = article62_facts(material_of(w), facts, error); s != DTB_OK) return s;
  if (!facts.own_table) return decided_mtc(q, v, out, error);
  std::uint16_t stored = 0;
  if (const dtb_status s = r62_files_.value(w, stored, error); s != DTB_OK) return s;
  out = stored;
  return DTB_OK;
}

dtb_status PerfectPlay::best_move_article62(const Position& p, int plies_since_conversion, Move& out,
                                         ProbeError* error, Wdl* value) {
  MoveList list;
  if (const dtb_status s = moves_to_choose(p, list, error); s != DTB_OK) return s;
  // Each move's 6.2 value for the mover: a conversion starts the count
  // again, a king move adds a ply to it (at 50 the game is drawn unless the
  // move has ended it: article62 says so for a count of 50 as well).
  std::vector<Wdl> values(static_cast<std::size_t>(list.size));
  std::vector<Position> after(static_cast<std::size_t>(list.size));
  Wdl top = Wdl::Loss;
  for (int i = 0; i < list.size; ++i) {
    const auto k = static_cast<std::size_t>(i);
    after[k] = make_move(p, list[i]);
    const int count = converts(p, list[i]) ? 0 : plies_since_conversion + 1;
    Wdl v = Wdl::Draw;
    if (const dtb_status s = article62(after[k], count, v, error); s != DTB_OK) return s;
    values[k] = negate(v);
    top = std::max(top, values[k]);
  }
  if (value) *value = top;
  // The cost of a decisive move: 1 if it converts, else 1 + the plies the
  // position reached needs under 6.2 (its .r62 value, or its MTC where MTC
  // decides): the winner's count then never runs out.
  const auto move_cost = [&](int i, int& c) {
    c = 1;
    if (converts(p, list[i])) return DTB_OK;
    int plies = 0;
    const dtb_status s = article62_plies(after[static_cast<std::size_t>(i)], negate(top), plies, error);
    c = 1 + plies;
    return s;
  };
  int chosen = -1;
  if (const dtb_status s = pick_move(list, values, top, move_cost, chosen); s != DTB_OK) return s;
  out = list[chosen];
  return DTB_OK;
}

}  // namespace dtb::probe
