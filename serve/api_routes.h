// The JSON API of `dtb serve`:
//   GET /api/probe?fen=FEN[&plies_in_class=N]  the `dtb probe --json` answer
//   GET /api/rules                            the `dtb rules --json` report
// A failed answer keeps its JSON body and gets the status a client acts on:
// 400 its input, 404 a table missing (with the material), 500 a damaged
// table (with the file and block). Messages name tables by file name only:
// the server's directories are none of a client's business.
#pragma once

#include <string>
#include <string_view>

#include "dtb/dtb.hpp"
#include "serve/report_failure.h"
#include "serve/rules_endpoint.h"

namespace httplib {
class Server;
struct Request;
struct Response;
}

namespace dtb {

/// What the handlers share; outlives the server.
struct ApiContext {
  std::string dir;  // the table directory, never shown to clients
  const Tablebase& tables;  // every kind of table, one cache (serve/probe_report.h)
  RulesEndpoint& rules;
};

void add_api_routes(httplib::Server& server, ApiContext& context);

/// The answer to a GET of `req.path` (with `req.params` as the server
/// decodes them) into `res`; false, leaving `res` alone, for a path the API
/// does not serve. The routes above call it; so does the fuzzer
/// (fuzz/fuzz_serve_api.cpp), without a socket.
bool answer_api_get(ApiContext& context, const httplib::Request& req, httplib::Response& res);

/// HTTP status of a failed (or successful: 200) answer.
int http_status_of(FailureKind kind);

/// `{"error":"..."}`.
std::string json_error(std::string_view message);

}  // namespace dtb
