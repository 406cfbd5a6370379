// The JSON API of `dtb serve` (serve/api_routes.h) on arbitrary request
// targets, without a socket: the target is split and decoded as the server's
// HTTP library does (path, then the query's parameters) and handed to the
// same function the routes call. Tables come from $DTB_FUZZ_TABLES (a small
// intact set, e.g. 2-3 pieces); without it, an empty directory, so every
// probe that gets past its input ends in "table missing". Checks: the API
// answers exactly its two paths, with a status a client can act on (400,
// 404 and 200; never 500 on intact tables), and a body that is one valid
// JSON value naming no server directory.
#include <httplib.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "fuzz/json_check.h"
#include "serve/api_routes.h"

namespace {

struct Server {
  std::string dir;
  bool intact_tables = false;  // from $DTB_FUZZ_TABLES: no answer may be a 500
  dtb::Tablebase tables;
  std::unique_ptr<dtb::RulesEndpoint> rules;
  std::unique_ptr<dtb::ApiContext> context;
};
Server* server = nullptr;

// As `dtb serve` sets it (ServeOptions::max_target_bytes): longer targets get 414 before any route.
constexpr std::size_t kMaxTarget = 2048;

[[noreturn]] void fail(const std::string& what, const std::string& target, const httplib::Response& res) {
  std::fprintf(stderr, "fuzz_serve_api: %s\ntarget: %s\nstatus %d, body: %s\n", what.c_str(), target.c_str(),
               res.status, res.body.c_str());
  std::abort();
}

// What cpp-httplib's Server::parse_request_line does with the target:
// false where it answers 400 itself.
bool split_target(const std::string& target, httplib::Request& req) {
  std::size_t parts = 0;
  httplib::detail::split(target.data(), target.data() + target.size(), '?', [&](const char* b, const char* e) {
    if (parts == 0) req.path = httplib::detail::decode_url(std::string(b, e), false);
    if (parts == 1 && e > b) httplib::detail::parse_query_text(std::string(b, e), req.params);
    ++parts;
  });
  return parts <= 2;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  server = new Server;
  if (const char* dir = std::getenv("DTB_FUZZ_TABLES"); dir && *dir) {
    server->dir = dir;
    server->intact_tables = true;
  } else {
    char pattern[] = "/tmp/fuzz_serve_api.XXXXXX";
    if (!mkdtemp(pattern)) return std::perror("mkdtemp"), 1;
    server->dir = pattern;
    std::atexit([] { std::filesystem::remove_all(server->dir); });
  }
  dtb_error e{};
  if (server->tables.open(server->dir, std::size_t{8} << 20, &e) != DTB_OK) {
    std::fprintf(stderr, "fuzz_serve_api: cannot open the tables in %s: %s\n", server->dir.c_str(), e.message);
    std::exit(1);
  }
  server->rules = std::make_unique<dtb::RulesEndpoint>(server->dir);
  server->context.reset(new dtb::ApiContext{server->dir, server->tables, *server->rules});
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string target(reinterpret_cast<const char*>(data), size);
  // The request line is "GET <target> HTTP/1.1": no blanks or line ends in it.
  if (target.empty() || target.size() > kMaxTarget || target.find_first_of(" \t\r\n") != std::string::npos) return 0;
  httplib::Request req;
  req.method = "GET";
  req.target = target;
  if (!split_target(target, req)) return 0;

  httplib::Response res;
  res.status = -1;
  const bool served = dtb::answer_api_get(*server->context, req, res);
  if (served != (req.path == "/api/probe" || req.path == "/api/rules")) fail("wrong paths served", target, res);
  if (!served) return 0;

  if (res.status != 200 && res.status != 400 && res.status != 404 && res.status != 500)
    fail("unexpected status", target, res);
  if (res.status == 500 && server->intact_tables) fail("500 on intact tables", target, res);
  if (res.get_header_value("Content-Type") != "application/json") fail("not sent as JSON", target, res);
  if (!dtb::fuzz::valid_json(res.body)) fail("body is not valid JSON", target, res);
  if (res.status == 200 && req.path == "/api/probe" && res.body.find("\"wdl\":") == std::string::npos)
    fail("a successful probe without its value", target, res);
  if (res.status != 200 && res.body.find("\"error\":") == std::string::npos) fail("a failure without its error", target, res);
  bool input_names_dir = req.path.find(server->dir) != std::string::npos;
  for (const auto& [key, value] : req.params) input_names_dir |= value.find(server->dir) != std::string::npos;
  if (!input_names_dir && res.body.find(server->dir) != std::string::npos)
    fail("the body names the table directory", target, res);
  return 0;
}
