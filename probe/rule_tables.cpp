#include "probe/rule_tables.h"

#include "index/colour.h"
#include "index/draw_rule_class.h"
#include "limits/value_encoding.h"

namespace dtb::probe {
namespace {

dtb_status fail(ProbeError* error, dtb_status status, const std::string& material, std::string message) {
  if (error) *error = ProbeError{status, material, -1, std::move(message)};
  return status;
}

}  // namespace

const RuleTables::OpenTable* RuleTables::table(const Material& m, ProbeError* error) {
  const std::lock_guard<std::mutex> lock(mutex_);
  if (auto it = open_.find(m); it != open_.end()) return it->second.get();
  const std::string path = dir_ + "/" + m.name() + table_extension(TableKind::Rule);
  TableError e;
  auto reader = TableReader::open(path, &e);
  if (!reader) {
    fail(error, e.status == TableStatus::Missing ? DTB_TABLE_MISSING : DTB_CORRUPTED_TABLE, m.name(),
         e.message);
    return nullptr;
  }
  if (reader->kind() != TableKind::Rule || !(reader->material() == m)) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), path + ": not a .rule table of " + m.name());
    return nullptr;
  }
  auto entry = std::make_unique<OpenTable>();
  entry->index = std::make_unique<PositionIndex>(m);
  if (reader->positions() != entry->index->size()) {
    fail(error, DTB_CORRUPTED_TABLE, m.name(), path + ": wrong number of positions");
    return nullptr;
  }
  entry->reader = std::move(reader);
  return open_.emplace(m, std::move(entry)).first->second.get();
}

dtb_status RuleTables::rule_value(const Position& p, int plies_in_class, Wdl& out, ProbeError* error) {
  const Position q = white_to_move_form(p);
  const Material m = material_of(q);
  const RuleClass rule = rule_class(m);
  if (rule == RuleClass::None)
    return fail(error, DTB_NOT_IN_CLASS, m.name(), m.name() + " is in no draw-limit class (6.3 or 6.4)");
  const int limit = limit_plies(rule);
  if (plies_in_class < 0 || plies_in_class > limit)
    return fail(error, DTB_INVALID_ARGUMENT, m.name(),
                "plies_in_class must be 0.." + std::to_string(limit) + " for article " + article_of(rule));
  ProbeError open_error;
  const OpenTable* t = table(m, &open_error);
  if (!t) {
    if (error) *error = open_error;
    return open_error.status;
  }
  std::uint16_t stored = 0;
  if (TableError e = t->reader->value_at(t->index->rank(q), &stored))
    return fail(error, DTB_CORRUPTED_TABLE, m.name(), e.message);
  out = rule_value_with_budget(decode_rule(stored), limit - plies_in_class);
  return DTB_OK;
}

}  // namespace dtb::probe
