#include "serve/report_json.h"

#include "serve/json_text.h"

namespace dtb {
namespace {

std::string quoted(std::string_view s) { return json_string(s); }

// `"key":value` after a comma, only when the value is known.
template <class T, class Write>
void optional_field(std::string& out, const char* key, const std::optional<T>& v, Write write) {
  if (v) out += std::string(",\"") + key + "\":" + write(*v);
}

std::string failure_fields(const Failure& f) {
  std::string out = ",\"error\":" + quoted(f.message);
  if (!f.material.empty()) out += ",\"material\":" + quoted(f.material);
  if (!f.file.empty()) out += ",\"file\":" + quoted(f.file);
  if (f.block >= 0) out += ",\"block\":" + std::to_string(f.block);
  return out;
}

std::string move_object(const MoveReport& m) {
  const auto number = [](int v) { return std::to_string(v); };
  const auto value = [](Wdl v) { return quoted(to_string(v)); };
  std::string out = "{\"move\":" + quoted(m.move) + ",\"wdl\":" + quoted(to_string(m.wdl));
  optional_field(out, "dtw", m.dtw, number);
  optional_field(out, "rule_wdl", m.rule_wdl, value);
  optional_field(out, "plies_in_class", m.plies_in_class, number);
  optional_field(out, "mtc", m.mtc, number);
  optional_field(out, "rules_wdl", m.rules_wdl, value);
  optional_field(out, "plies_since_conversion", m.plies_since_conversion, number);
  return out + ",\"fen\":" + quoted(m.fen) + "}";
}

}  // namespace

std::string report_json(const ProbeReport& r) {
  std::string out = "{\"fen\":" + quoted(r.fen);
  if (r.failure) return out + failure_fields(r.failure) + "}";
  out += ",\"wdl\":" + quoted(to_string(r.wdl));
  if (r.dtw && r.dtw->value != Wdl::Draw) out += ",\"dtw\":" + std::to_string(r.dtw->plies);
  optional_field(out, "rule_wdl", r.rule_wdl, [](Wdl v) { return quoted(to_string(v)); });
  optional_field(out, "rules_wdl", r.rules_wdl, [](Wdl v) { return quoted(to_string(v)); });
  optional_field(out, "rules_best_move", r.rules_best_move, quoted);
  // Always present, null when unknown: "no .mtc table" and "a draw" must not
  // look like an older server that never sends them.
  out += ",\"mtc\":" + (r.mtc ? std::to_string(*r.mtc) : std::string("null"));
  out += ",\"best_move\":" + (r.best_move ? quoted(*r.best_move) : std::string("null"));
  out += ",\"moves\":[";
  for (std::size_t i = 0; i < r.moves.size(); ++i) out += (i ? "," : "") + move_object(r.moves[i]);
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
