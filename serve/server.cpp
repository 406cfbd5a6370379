#include "serve/server.h"

#include <httplib.h>
#include <pthread.h>
#include <signal.h>
#include <sys/socket.h>

#include <atomic>
#include <chrono>
#include <iostream>
#include <mutex>
#include <thread>

#include "serve/api_routes.h"
#include "serve/json_text.h"
#include "serve/page_assets.h"

namespace dtb {
namespace {

// The page may load only what this server sends: nothing from other hosts.
constexpr const char* kContentSecurityPolicy =
    "default-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'";

std::string content_type_of(std::string_view name) {
  if (name.ends_with(".html")) return "text/html; charset=utf-8";
  if (name.ends_with(".css")) return "text/css; charset=utf-8";
  if (name.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (name.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

void add_page_routes(httplib::Server& server) {
  for (const PageAsset& asset : page_assets()) {
    const std::string path = asset.name == "index.html" ? "/" : "/" + std::string(asset.name);
    server.Get(path, [asset](const httplib::Request&, httplib::Response& res) {
      res.set_header("Content-Security-Policy", kContentSecurityPolicy);
      res.set_header("Cache-Control", "no-cache");
      res.set_content(asset.bytes.data(), asset.bytes.size(), content_type_of(asset.name).c_str());
    });
  }
}

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

// Limits on what one request may take (the work of a probe itself is
// bounded by the piece count of the tables), CORS, and JSON for every
// error the routes do not answer themselves.
void add_limits(httplib::Server& server, const ServeOptions& o) {
  server.set_read_timeout(o.timeout_seconds, 0);
  server.set_write_timeout(o.timeout_seconds, 0);
  server.set_keep_alive_timeout(o.timeout_seconds);
  server.set_keep_alive_max_count(1000);
  // Headers and body go out in two writes: without TCP_NODELAY, Nagle's
  // algorithm holds the body for the client's delayed ACK (40 ms a request).
  server.set_tcp_nodelay(true);
  server.set_payload_max_length(4096);  // GET only: no body worth reading
  server.set_default_headers({{"Access-Control-Allow-Origin", "*"},
                              {"X-Content-Type-Options", "nosniff"}});
  const std::size_t max_target = o.max_target_bytes;
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

void add_logger(httplib::Server& server, std::ostream& err) {
  server.set_logger([&err](const httplib::Request& req, const httplib::Response& res) {
    static std::mutex mutex;
    const std::lock_guard lock(mutex);
    err << req.remote_addr << " " << req.method << " " << json_string(req.target) << " "
        << res.status << "\n";
  });
}

// SIGINT and SIGTERM are blocked in every thread (the pool's threads inherit
// the mask) and taken by one watcher, which stops the server from outside
// any signal handler. A SIGINT ignored at start (a background job of a
// shell) stays ignored, as for any program.
class SignalWatcher {
 public:
  explicit SignalWatcher(httplib::Server& server) {
    sigemptyset(&signals_);
    sigaddset(&signals_, SIGTERM);
    struct sigaction old {};
    if (sigaction(SIGINT, nullptr, &old) == 0 && old.sa_handler != SIG_IGN) sigaddset(&signals_, SIGINT);
    pthread_sigmask(SIG_BLOCK, &signals_, nullptr);
    thread_ = std::thread([this, &server] {
      int signal = 0;
      sigwait(&signals_, &signal);
      waiting_ = false;
      // stop() does nothing before the accept loop runs: a signal right
      // after the "listening" line must wait for it.
      while (!stopping_ && !server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      server.stop();
    });
  }
  ~SignalWatcher() {
    stopping_ = true;
    // The server stopped for another reason: wake the watcher with a
    // signal to it alone (still a joinable thread, so its id is valid).
    if (waiting_) pthread_kill(thread_.native_handle(), SIGTERM);
    thread_.join();
  }

 private:
  sigset_t signals_;
  std::atomic<bool> stopping_{false}, waiting_{true};
  std::thread thread_;
};

}  // namespace

int serve(const ServeOptions& o, std::ostream& out, std::ostream& err) {
  Tablebase tables;
  dtb_error e{};
  if (const dtb_status s = tables.open(o.tables, o.cache_bytes, &e); s != DTB_OK) {
    err << "dtb serve: " << failure_of(s, e).message << "\n";
    return 1;
  }
  if (tables.max_pieces() == 0) err << "dtb serve: warning: no .wdl tables in " << o.tables << "\n";
  LimitsPool limits(o.tables);
  RulesEndpoint rules(o.tables);
  ApiContext context{o.tables, tables, limits, rules};

  httplib::Server server;
  add_limits(server, o);
  if (o.log) add_logger(server, err);
  add_api_routes(server, context);
  add_page_routes(server);
  const int port = o.port == 0 ? server.bind_to_any_port(o.host) : o.port;
  if (port <= 0 || (o.port != 0 && !server.bind_to_port(o.host, o.port))) {
    err << "dtb serve: cannot listen on " << o.host << ":" << o.port << "\n";
    return 1;
  }
  SignalWatcher watcher(server);
  out << "dtb serve: listening on http://" << (o.host.find(':') != std::string::npos ? "[" + o.host + "]" : o.host)
      << ":" << port << "/ (tables " << o.tables << ", " << o.threads << " threads)" << std::endl;
  server.listen_after_bind();
  return 0;
}

}  // namespace dtb
