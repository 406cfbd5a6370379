#include "serve/server.h"

#include <httplib.h>
#include <sys/socket.h>

#include <iostream>
#include <mutex>

#include "serve/api_routes.h"
#include "serve/json_text.h"
#include "serve/page_routes.h"
#include "serve/signal_watcher.h"

namespace dtb {
namespace {

const char* reason_of(int status) {
  switch (status) {
    case 400: return "bad request";
    case 404: return "not found";
    case 405: return "method not allowed: the API answers GET";
    case 413: return "request body too large";
    case 414: return "request target too long";
    default: return status >= 500 ? "internal server error" : "error";
  }
}

// Limits on what one connection may take: the work of a probe itself is
// bounded by the piece count of the tables, the rest by these.
void set_limits(httplib::Server& server, const ServeOptions& o) {
  server.set_read_timeout(o.timeout_seconds, 0);
  server.set_write_timeout(o.timeout_seconds, 0);
  server.set_keep_alive_timeout(o.timeout_seconds);
  server.set_keep_alive_max_count(1000);
  // Headers and body go out in two writes: without TCP_NODELAY, Nagle's
  // algorithm holds the body for the client's delayed ACK (40 ms a request).
  server.set_tcp_nodelay(true);
  server.set_payload_max_length(4096);  // GET only: no body worth reading
  // SO_REUSEADDR alone: a restart may take the port at once, but a second
  // server must not share it with a live one (the library's default,
  // SO_REUSEPORT, lets it bind and take half the connections).
  server.set_socket_options([](socket_t sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
  });
  const auto threads = static_cast<std::size_t>(o.threads);
  server.new_task_queue = [threads] { return new httplib::ThreadPool(threads); };
}

// Requests the routes never see: other methods (405) and over-long targets
// (414; the library itself refuses request lines over 8 KiB).
void add_request_checks(httplib::Server& server, std::size_t max_target) {
  server.set_pre_routing_handler([max_target](const httplib::Request& req, httplib::Response& res) {
    if (req.method != "GET" && req.method != "HEAD" && req.method != "OPTIONS") {
      res.status = 405;
      res.set_header("Allow", "GET, HEAD, OPTIONS");
    } else if (req.target.size() > max_target) {
      res.status = 414;
    } else {
      return httplib::Server::HandlerResponse::Unhandled;
    }
    res.set_content(json_error(reason_of(res.status)), "application/json");
    return httplib::Server::HandlerResponse::Handled;
  });
}

// CORS, so that other pages may call the API, and JSON for every error the
// routes do not answer themselves.
void add_cors_and_errors(httplib::Server& server) {
  server.set_default_headers({{"Access-Control-Allow-Origin", "*"},
                              {"X-Content-Type-Options", "nosniff"}});
  server.Options(".*", [](const httplib::Request&, httplib::Response& res) {
    res.status = 204;
    res.set_header("Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    res.set_header("Access-Control-Allow-Headers", "*");
    res.set_header("Access-Control-Max-Age", "86400");
  });
  server.set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty()) res.set_content(json_error(reason_of(res.status)), "application/json");
  });
  server.set_exception_handler([](const httplib::Request&, httplib::Response& res, std::exception_ptr) {
    res.status = 500;
    res.set_content(json_error("internal server error"), "application/json");
  });
}

void add_logger(httplib::Server& server, std::ostream& err) {
  server.set_logger([&err](const httplib::Request& req, const httplib::Response& res) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    err << req.remote_addr << " " << req.method << " " << json_string(req.target) << " "
        << res.status << "\n";
  });
}

// The port bound (the one asked for, or a free one for port 0), or -1.
int bind(httplib::Server& server, const ServeOptions& o) {
  if (o.port == 0) return server.bind_to_any_port(o.host);
  return server.bind_to_port(o.host, o.port) ? o.port : -1;
}

std::string url_of(const std::string& host, int port) {
  const bool ipv6 = host.find(':') != std::string::npos;
  return "http://" + (ipv6 ? "[" + host + "]" : host) + ":" + std::to_string(port) + "/";
}

}  // namespace

int serve(const ServeOptions& o, std::ostream& out, std::ostream& err) {
  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(o.tables, o.cache_bytes, &e); s != DTB_OK) {
    err << "dtb serve: " << failure_of(s, e).message << "\n";
    return 1;
  }
  if (tables.max_pieces() == 0) err << "dtb serve: warning: no .wdl tables in " << o.tables << "\n";
  RulesEndpoint rules(o.tables);
  ApiContext context{o.tables, tables, rules};

  httplib::Server server;
  set_limits(server, o);
  add_request_checks(server, o.max_target_bytes);
  add_cors_and_errors(server);
  if (o.log) add_logger(server, err);
  add_api_routes(server, context);
  add_page_routes(server);
  const int port = bind(server, o);
  if (port <= 0) {
    err << "dtb serve: cannot listen on " << o.host << ":" << o.port << "\n";
    return 1;
  }
  SignalWatcher watcher(server);
  out << "dtb serve: listening on " << url_of(o.host, port) << " (tables " << o.tables << ", "
      << o.threads << " threads)" << std::endl;
  server.listen_after_bind();
  return 0;
}

}  // namespace dtb
