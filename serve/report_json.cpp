#include "serve/report_json.h"

#include "serve/json_text.h"

namespace dtb {
namespace {

std::string quoted(std::string_view s) { return json_string(s); }
std::string number(int v) { return std::to_string(v); }
std::string value(Wdl v) { return quoted(to_string(v)); }

// `,"key":value`, with null for a value not known: a client reads the same
// keys from every answer, and "unknown" can never pass for a number.
template <class T, class Write>
std::string field(const char* key, const std::optional<T>& v, Write write) {
  return std::string(",\"") + key + "\":" + (v ? write(*v) : std::string("null"));
}

std::string text_or_null(const std::string& s) { return s.empty() ? "null" : quoted(s); }

// A move's value from the root probe: DTB_UNKNOWN_WDL (a table missing) is null.
std::string move_value(dtb_wdl v) { return v == DTB_UNKNOWN_WDL ? "null" : quoted(dtb::to_string(v)); }

std::string failure_fields(const Failure& f) {
  return ",\"error\":" + quoted(f.message) + ",\"material\":" + text_or_null(f.material) +
         ",\"file\":" + text_or_null(f.file) + ",\"block\":" + (f.block >= 0 ? std::to_string(f.block) : "null");
}

// The position's distance to win: none for a draw.
std::optional<int> dtw_of(const std::optional<Outcome>& d) {
  if (!d || d->value == Wdl::Draw) return std::nullopt;
  return d->plies;
}

}  // namespace

std::string move_json(const MoveReport& m) {
  return "{\"move\":" + quoted(m.move) + ",\"wdl\":" + move_value(m.wdl) + field("dtw", m.dtw, number) +
         field("rule_wdl", m.rule_wdl, value) + field("plies_in_class", m.plies_in_class, number) +
         field("mtc", m.mtc, number) + field("rules_wdl", m.rules_wdl, value) +
         field("plies_since_conversion", m.plies_since_conversion, number) + ",\"fen\":" + quoted(m.fen) + "}";
}

std::string report_json(const ProbeReport& r) {
  std::string out = "{\"fen\":" + quoted(r.fen);
  if (r.failure) return out + failure_fields(r.failure) + "}";
  out += ",\"wdl\":" + quoted(to_string(r.wdl)) + field("dtw", dtw_of(r.dtw), number) +
         field("rule_wdl", r.rule_wdl, value) + field("rules_wdl", r.rules_wdl, value) +
         field("rules_best_move", r.rules_best_move, quoted) + field("mtc", r.mtc, number) +
         field("best_move", r.best_move, quoted);
  out += ",\"moves\":[";
  for (std::size_t i = 0; i < r.moves.size(); ++i) out += (i ? "," : "") + move_json(r.moves[i]);
  out += "],\"best\":[";
  bool first = true;
  for (const MoveReport& m : r.moves) {
    if (!m.keeps_best) continue;
    out += (first ? "" : ",") + quoted(m.move);
    first = false;
  }
  return out + "]}";
}

}  // namespace dtb
