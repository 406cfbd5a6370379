// The C and C++ halves of the cross-interface check (cross_check.py): a fixed
// list of positions with draw-rule counts, and what the C API (dtb/dtb.h)
// and the C++ layer (dtb/dtb.hpp) answer for each, as one JSON line a case:
//
//   {"fen", "kind", "plies_since_conversion", "plies_in_class", "c": ANSWERS, "cpp": ANSWERS}
//
// ANSWERS holds the vocabulary's values (docs/engine-guide.md#vocabulary)
// in its JSON spelling: wdl, mtc, dtw, rule_wdl, rules_wdl, best_move,
// rules_best_move and the root probe's moves (move, wdl, mtc, rules_wdl),
// null wherever the API says unknown. The counts are those `dtb probe
// --plies-since-conversion C --plies-in-class N` takes: no N means class
// count 0 for the 6.3/6.4 value and DTB_NOT_COUNTED for the rules.
//
// Only the public headers: this is what an engine sees.
//
// usage: interface_answers TABLES   (a directory, or DIR:DIR)
#include <algorithm>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "dtb/dtb.h"
#include "dtb/dtb.hpp"

namespace {

// ---- One case: a position and the counts it is asked with.

struct Case {
  std::string fen;
  std::string kind;  // quiet, capture, class 6.3, class 6.4
  dtb_position pos{};
  int since = -1;     // plies_since_conversion, -1: not given
  int in_class = -1;  // plies_in_class, -1: not given
};

std::string kind_of(const dtb_position& pos) {
  const int limit = dtb_class_limit(&pos);
  if (limit == 32) return "class 6.3";
  if (limit == 10) return "class 6.4";
  dtb_move moves[64];
  std::size_t n = 0;
  dtb_legal_moves(&pos, moves, 64, &n, nullptr);
  return n > 0 && moves[0].captured != 0 ? "capture" : "quiet";
}

// The counts of the k-th case of a kind: none, several 6.2 counts, and in
// the classes several class counts up to the limit itself.
void set_counts(Case& c, int k, int limit) {
  static const int kSince[] = {-1, 0, 7, 17, 45, 49};
  c.since = kSince[k % 6];
  if (limit == 0) return;
  const int in_class[] = {-1, 0, limit / 3, limit - 1, limit};
  c.in_class = in_class[(k / 6) % 5];
  if (c.in_class >= 0 && c.since < 0) c.since = 0;  // a class count goes with a 6.2 count
  if (c.in_class >= 0 && c.in_class < c.since) c.since = c.in_class;  // never above the class count
}

// `per_side` positions of `material` for each side to move, spread over its
// table (a prime stride), each with its counts.
void add_material(dtb_tables* tables, const char* material, int per_side, std::vector<Case>& out) {
  std::uint64_t size = 0;
  if (dtb_material_size(material, &size, nullptr) != DTB_OK || size == 0) return;
  int k = 0;
  for (const dtb_side side : {DTB_WHITE, DTB_BLACK}) {
    const auto wanted = static_cast<std::uint64_t>(per_side);
    for (std::uint64_t i = 0, taken = 0; i < 4 * wanted && taken < wanted; ++i) {
      Case c;
      if (dtb_material_positions(material, side, (i * 7919 + 13) % size, &c.pos, 1, nullptr) != DTB_OK) continue;
      dtb_wdl v;
      char fen[256];
      if (dtb_probe_wdl(tables, &c.pos, &v, nullptr) != DTB_OK) continue;  // not answered by the set
      if (dtb_position_to_fen(&c.pos, fen, sizeof fen) != DTB_OK) continue;
      c.fen = fen;
      c.kind = kind_of(c.pos);
      set_counts(c, k++, dtb_class_limit(&c.pos));
      out.push_back(c);
      ++taken;
    }
  }
}

std::vector<Case> cases(dtb_tables* tables) {
  std::vector<Case> out;
  // Outside the classes: quiet positions and captures, 2 to 4 pieces.
  for (const char* m : {"KvM", "MvM", "KKvM", "KMvM", "MMvK", "KvKM", "KKvKK", "KMvKM", "KKvMM", "MMvMM", "KMvMM",
                        "KKKvM", "MMvKK"})
    add_material(tables, m, 12, out);
  // The classes: 6.4 and 6.3, at several class counts.
  for (const char* m : {"KvK", "KKvK", "KMvK", "KKKvK", "KKMvK", "KMMvK"}) add_material(tables, m, 16, out);
  return out;
}

// ---- The answers, in the JSON spelling.

const char* word(dtb_wdl v) { return v == DTB_WIN ? "win" : v == DTB_DRAW ? "draw" : v == DTB_LOSS ? "loss" : nullptr; }

std::string json_text(const char* s) { return s ? std::string("\"") + s + "\"" : "null"; }
std::string json_number(std::optional<int> v) { return v ? std::to_string(*v) : "null"; }

struct RootMove {
  std::string move;
  dtb_wdl wdl;
  int mtc;
  dtb_wdl rules_wdl;
};

struct Answers {
  dtb_wdl wdl = DTB_UNKNOWN_WDL;
  std::optional<int> mtc, dtw;
  dtb_wdl rule_wdl = DTB_UNKNOWN_WDL, rules_wdl = DTB_UNKNOWN_WDL;
  std::string best_move, rules_best_move;  // "": none
  std::vector<RootMove> moves;
  std::string failure;  // a call failed where the vocabulary knows no "unknown"
};

std::string json(const Answers& a) {
  if (!a.failure.empty()) return "{\"failure\":" + json_text(a.failure.c_str()) + "}";
  std::string out = std::string("{\"wdl\":") + json_text(word(a.wdl)) + ",\"mtc\":" + json_number(a.mtc) +
                    ",\"dtw\":" + json_number(a.dtw) + ",\"rule_wdl\":" + json_text(word(a.rule_wdl)) +
                    ",\"rules_wdl\":" + json_text(word(a.rules_wdl)) +
                    ",\"best_move\":" + json_text(a.best_move.empty() ? nullptr : a.best_move.c_str()) +
                    ",\"rules_best_move\":" +
                    json_text(a.rules_best_move.empty() ? nullptr : a.rules_best_move.c_str()) + ",\"moves\":[";
  for (std::size_t i = 0; i < a.moves.size(); ++i) {
    const RootMove& m = a.moves[i];
    out += std::string(i ? "," : "") + "{\"move\":" + json_text(m.move.c_str()) + ",\"wdl\":" + json_text(word(m.wdl)) +
           ",\"mtc\":" + json_number(m.mtc == DTB_UNKNOWN ? std::nullopt : std::optional<int>(m.mtc)) +
           ",\"rules_wdl\":" + json_text(word(m.rules_wdl)) + "}";
  }
  return out + "]}";
}

// ---- The two interfaces behind one face, so that the same questions are
// asked of each: CApi calls dtb.h, CppApi dtb::Tablebase.

struct CApi {
  dtb_tables* t;
  dtb_status wdl(const dtb_position& p, dtb_wdl& v) const { return dtb_probe_wdl(t, &p, &v, nullptr); }
  dtb_status mtc(const dtb_position& p, dtb_wdl& v, int& n) const { return dtb_probe_mtc(t, &p, &v, &n, nullptr); }
  dtb_status dtw(const dtb_position& p, dtb_wdl& v, int& n) const { return dtb_probe_dtw(t, &p, &v, &n, nullptr); }
  dtb_status rule(const dtb_position& p, int k, dtb_wdl& v) const { return dtb_probe_rule(t, &p, k, &v, nullptr); }
  dtb_status counted(const dtb_position& p, const dtb_counts& c, dtb_wdl& v) const {
    return dtb_probe_counted(t, &p, &c, &v, nullptr);
  }
  dtb_status best(const dtb_position& p, dtb_move& m) const { return dtb_best_move(t, &p, &m, nullptr); }
  dtb_status best_counted(const dtb_position& p, const dtb_counts& c, dtb_move& m) const {
    return dtb_best_move_counted(t, &p, &c, &m, nullptr);
  }
  dtb_status root(const dtb_position& p, const dtb_counts* c, std::vector<dtb_root_move>& out) const {
    std::size_t n = 0;
    out.resize(128);
    const dtb_status s = dtb_probe_root(t, &p, c, out.data(), out.size(), &n, nullptr);
    out.resize(s == DTB_OK ? n : 0);
    return s;
  }
};

struct CppApi {
  const dtb::Tablebase& tb;
  dtb_status wdl(const dtb_position& p, dtb_wdl& v) const { return tb.probe(p, v); }
  dtb_status mtc(const dtb_position& p, dtb_wdl& v, int& n) const { return tb.mtc(p, v, n); }
  dtb_status dtw(const dtb_position& p, dtb_wdl& v, int& n) const { return tb.dtw(p, v, n); }
  dtb_status rule(const dtb_position& p, int k, dtb_wdl& v) const { return tb.rule(p, k, v); }
  dtb_status counted(const dtb_position& p, const dtb_counts& c, dtb_wdl& v) const { return tb.counted(p, c, v); }
  dtb_status best(const dtb_position& p, dtb_move& m) const { return tb.best_move(p, m); }
  dtb_status best_counted(const dtb_position& p, const dtb_counts& c, dtb_move& m) const {
    return tb.best_move_counted(p, c, m);
  }
  dtb_status root(const dtb_position& p, const dtb_counts* c, std::vector<dtb_root_move>& out) const {
    return tb.root(p, c, out);
  }
};

// A distance: the number, null for DTB_UNKNOWN or a missing table.
template <class Probe>
std::optional<int> distance(Probe probe, std::string& failure) {
  dtb_wdl v;
  int n = 0;
  const dtb_status s = probe(v, n);
  if (s == DTB_TABLE_MISSING) return std::nullopt;
  if (s != DTB_OK) failure = dtb_status_string(s);
  return s == DTB_OK && n != DTB_UNKNOWN ? std::optional<int>(n) : std::nullopt;
}

// A move's text, "" for none (no legal move, a table missing, a class count
// that has run out).
template <class Choose>
std::string move_text(const dtb_position& pos, Choose choose, std::string& failure) {
  dtb_move m{};
  const dtb_status s = choose(m);
  if (s == DTB_OK) return dtb::Tablebase::move_text(pos, m);
  if (s != DTB_GAME_OVER && s != DTB_TABLE_MISSING && s != DTB_NOT_EXACT && s != DTB_INVALID_ARGUMENT)
    failure = dtb_status_string(s);
  return "";
}

// The class count of the 6.3/6.4 value as the JSON answers define it: the
// one given (0 if none) without a 6.2 count; with one, the count the draw
// rules read (never below the 6.2 count), at most the class's limit.
int rule_count(const Case& c) {
  const int given = c.in_class >= 0 ? c.in_class : 0;
  const int limit = dtb_class_limit(&c.pos);
  if (c.since < 0 || limit == 0) return given;
  return std::max(given, std::min(std::max(c.in_class, c.since), limit));
}

template <class Api>
void add_rule_values(const Api& api, const Case& c, Answers& a) {
  dtb_wdl v;
  if (api.rule(c.pos, rule_count(c), v) == DTB_OK) a.rule_wdl = v;
  if (c.since < 0) return;
  const dtb_counts counts{c.since, c.in_class >= 0 ? c.in_class : DTB_NOT_COUNTED};
  const dtb_status s = api.counted(c.pos, counts, v);
  if (s == DTB_OK) a.rules_wdl = v;
  else if (s != DTB_TABLE_MISSING && s != DTB_NOT_EXACT) a.failure = dtb_status_string(s);
  if (s != DTB_OK) return;
  a.rules_best_move = move_text(c.pos, [&](dtb_move& m) { return api.best_counted(c.pos, counts, m); }, a.failure);
}

template <class Api>
void add_root_moves(const Api& api, const Case& c, Answers& a) {
  const dtb_counts counts{c.since, c.in_class >= 0 ? c.in_class : DTB_NOT_COUNTED};
  std::vector<dtb_root_move> moves;
  if (const dtb_status s = api.root(c.pos, c.since >= 0 ? &counts : nullptr, moves); s != DTB_OK)
    a.failure = dtb_status_string(s);
  for (const dtb_root_move& m : moves)
    a.moves.push_back({dtb::Tablebase::move_text(c.pos, m.move), m.move.wdl, m.mtc, m.counted_wdl});
}

template <class Api>
Answers answers(const Api& api, const Case& c) {
  Answers a;
  if (const dtb_status s = api.wdl(c.pos, a.wdl); s != DTB_OK) a.failure = dtb_status_string(s);
  a.mtc = distance([&](dtb_wdl& v, int& n) { return api.mtc(c.pos, v, n); }, a.failure);
  a.dtw = distance([&](dtb_wdl& v, int& n) { return api.dtw(c.pos, v, n); }, a.failure);
  a.best_move = move_text(c.pos, [&](dtb_move& m) { return api.best(c.pos, m); }, a.failure);
  add_rule_values(api, c, a);
  add_root_moves(api, c, a);
  return a;
}

std::string count_json(int n) { return n >= 0 ? std::to_string(n) : "null"; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: interface_answers TABLES\n";
    return 2;
  }
  // Two handles: the C answers owe nothing to the C++ layer's.
  dtb_tables* tables = nullptr;
  dtb::Tablebase tb;
  dtb_error e{};
  if (dtb_open(argv[1], 64u << 20, &tables, &e) != DTB_OK || tb.open(argv[1], 64u << 20, &e) != DTB_OK) {
    std::cerr << "interface_answers: " << e.message << "\n";
    return 1;
  }
  const CApi c_api{tables};
  const CppApi cpp_api{tb};
  for (const Case& c : cases(tables)) {
    std::cout << "{\"fen\":\"" << c.fen << "\",\"kind\":\"" << c.kind
              << "\",\"plies_since_conversion\":" << count_json(c.since)
              << ",\"plies_in_class\":" << count_json(c.in_class) << ",\"c\":" << json(answers(c_api, c))
              << ",\"cpp\":" << json(answers(cpp_api, c)) << "}\n";
  }
  dtb_close(tables);
  return 0;
}
