#include "serve/api_routes.h"

#include <httplib.h>

#include <charconv>
#include <iostream>

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

// The count of plies played in the class: absent means 0 (just entered).
std::optional<int> plies_in_class_of(const httplib::Request& req) {
  if (!req.has_param("plies_in_class")) return 0;
  const std::string s = req.get_param_value("plies_in_class");
  int v = -1;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || end != s.data() + s.size() || v < 0 || v > kMaxPliesInClass)
    return std::nullopt;
  return v;
}

void get_probe(ApiContext& context, const httplib::Request& req, httplib::Response& res) {
  if (!req.has_param("fen")) return send_error(res, 400, "missing parameter fen (a PDN FEN)");
  const auto plies = plies_in_class_of(req);
  if (!plies)
    return send_error(res, 400, "plies_in_class must be a whole number from 0 to " +
                                    std::to_string(kMaxPliesInClass));
  ProbeReport report = probe_report(context.tables, req.get_param_value("fen"), *plies);
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
  server.Get("/api/probe", [&context](const httplib::Request& req, httplib::Response& res) {
    get_probe(context, req, res);
  });
  server.Get("/api/rules", [&context](const httplib::Request&, httplib::Response& res) {
    get_rules(context, res);
  });
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
