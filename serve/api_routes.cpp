#include "serve/api_routes.h"

#include <httplib.h>

#include <charconv>
#include <iostream>

#include "rules/article62.h"
#include "serve/client_message.h"
#include "serve/json_text.h"
#include "serve/probe_report.h"
#include "serve/report_json.h"

namespace dtb {
namespace {

constexpr const char* kJson = "application/json";
constexpr int kMaxPliesInClass = 32;  // the longest count, article 6.3's

void send_error(httplib::Response& res, int status, std::string_view message) {
  res.status = status;
  res.set_content(json_error(message), kJson);
}

// A count parameter: `absent` when not given, nullopt when it is not a whole
// number from 0 to `max`.
std::optional<int> count_param(const httplib::Request& req, const char* name, int max, int absent) {
  if (!req.has_param(name)) return absent;
  const std::string s = req.get_param_value(name);
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0 || v > max) return std::nullopt;
  return v;
}

// `plies_in_class` (6.3/6.4; absent: 0, the class just entered) and
// `plies_since_conversion` (6.2; absent: no 6.2 value asked for), as
// `dtb probe --plies-in-class N --plies-since-conversion C` takes them.
void get_probe(ApiContext& context, const httplib::Request& req, httplib::Response& res) {
  if (!req.has_param("fen")) return send_error(res, 400, "missing parameter fen (a PDN FEN)");
  const auto plies = count_param(req, "plies_in_class", kMaxPliesInClass, 0);
  if (!plies)
    return send_error(res, 400, "plies_in_class must be a whole number from 0 to " +
                                    std::to_string(kMaxPliesInClass));
  const auto since = count_param(req, "plies_since_conversion", kMaxPliesSinceConversion, -1);
  if (!since)
    return send_error(res, 400, "plies_since_conversion must be a whole number from 0 to " +
                                    std::to_string(kMaxPliesSinceConversion));
  const int class_count = req.has_param("plies_in_class") ? *plies : -1;
  ProbeReport report = probe_report(context.tables, req.get_param_value("fen"), *plies, *since, class_count);
  res.status = http_status_of(report.failure.kind);
  if (res.status >= 500) std::cerr << "dtb serve: " << report.failure.message << "\n";
  report.failure.message = without_dir(std::move(report.failure.message), context.dir);
  res.set_content(report_json(report), kJson);
}

void get_rules(ApiContext& context, httplib::Response& res) {
  std::string json;
  if (const TableError e = context.rules.json(json)) {
    const int status = e.status == TableStatus::Missing ? 404 : http_status_of(failure_of(e).kind);
    return send_error(res, status, without_dir(e.message, context.dir));
  }
  res.set_content(json, kJson);
}

}  // namespace

void add_api_routes(httplib::Server& server, ApiContext& context) {
  for (const char* path : {"/api/probe", "/api/rules"})
    server.Get(path, [&context](const httplib::Request& req, httplib::Response& res) {
      answer_api_get(context, req, res);
    });
}

bool answer_api_get(ApiContext& context, const httplib::Request& req, httplib::Response& res) {
  if (req.path == "/api/probe") {
    get_probe(context, req, res);
  } else if (req.path == "/api/rules") {
    get_rules(context, res);
  } else {
    return false;
  }
  return true;
}

int http_status_of(FailureKind kind) {
  switch (kind) {
    case FailureKind::None: return 200;
    case FailureKind::BadInput: return 400;
    case FailureKind::TableMissing: return 404;
    case FailureKind::TableDamaged:
    case FailureKind::Internal: return 500;
  }
  return 500;
}

std::string json_error(std::string_view message) { return "{\"error\":" + json_string(message) + "}"; }

}  // namespace dtb
