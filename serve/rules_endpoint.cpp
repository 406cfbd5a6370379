#include "serve/rules_endpoint.h"

#include "serve/rule_report_tables.h"

namespace dtb {

TableError RulesEndpoint::json(std::string& out) {
  const std::lock_guard lock(mutex_);
  if (!json_) {
    std::string built;
    if (TableError e = rule_report_json_of(dir_, built)) return e;
    json_ = std::move(built);
  }
  out = *json_;
  return {};
}

}  // namespace dtb
