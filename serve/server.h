// `dtb serve`: the tablebase over HTTP on cpp-httplib (Debian's
// libcpp-httplib-dev): the JSON API (api_routes.h) and the explorer page
// (page_assets.h), with limits on what one request may take.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <string>

namespace dtb {

struct ServeOptions {
  std::string tables = "tables";
  std::string host = "127.0.0.1";  // loopback unless told otherwise
  int port = 8080;                  // 0: any free port (printed once listening)
  int threads = 8;                  // connections served at once (each keeps one while open)
  std::size_t cache_bytes = std::size_t{64} << 20;  // decoded-block cache of the probe
  int timeout_seconds = 5;  // to read a request, to write an answer, idle keep-alive
  std::size_t max_target_bytes = 2048;  // longest request target (path and query)
  bool log = false;                     // one line per request on `err`
};

/// Serve until SIGINT or SIGTERM. Prints "dtb serve: listening on
/// http://HOST:PORT/" on `out` once bound. Returns 0 after a signal, 1 if the
/// tables cannot be opened or the address not bound.
int serve(const ServeOptions& options, std::ostream& out, std::ostream& err);

}  // namespace dtb
