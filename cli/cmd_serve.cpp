// dtb serve [--tables DIR] [--host H] [--port P] [--threads T] [--cache SIZE]
//           [--timeout S] [--log]: the tables over HTTP, a JSON API and the
// explorer page (serve/server.h). Stops on Ctrl-C or SIGTERM.
#include <cstdlib>
#include <iostream>
#include <optional>
#include <string>

#include "cli/args.h"
#include "cli/command.h"
#include "serve/server.h"

namespace dtb::cli {
namespace {

// Applies one option taking a value; returns an error message or "".
std::string set_option(ServeOptions& o, const std::string& name, const std::string& value) {
  if (name == "--tables") {
    o.tables = value;
  } else if (name == "--host") {
    o.host = value;
  } else if (name == "--port") {
    const auto p = parse_int(value, 0, 65535);
    if (!p) return "--port needs a number from 0 (any free port) to 65535";
    o.port = static_cast<int>(*p);
  } else if (name == "--threads") {
    const auto t = parse_int(value, 1, 1024);
    if (!t) return "--threads needs a number from 1 to 1024";
    o.threads = static_cast<int>(*t);
  } else if (name == "--cache") {
    const auto bytes = parse_cache_size(value);
    if (!bytes) return kCacheSizeError;
    o.cache_bytes = *bytes;
  } else if (name == "--timeout") {
    const auto t = parse_int(value, 1, 3600);
    if (!t) return "--timeout needs a number of seconds from 1 to 3600";
    o.timeout_seconds = static_cast<int>(*t);
  } else {
    return "unknown option " + name;
  }
  return "";
}

constexpr Option kServeOptions[] = {
    kTablesOption,
    {"--host", "H", "the address to listen on (default: 127.0.0.1, loopback only)"},
    {"--port", "P", "the port, 0 to 65535; 0: any free port, printed once listening (default: 8080)"},
    {"--threads", "T", "connections served at once, 1 to 1024 (default: 8)"},
    kCacheOption,
    {"--timeout", "S", "seconds to read a request, to write an answer, or to keep an idle connection, 1 to 3600 "
                       "(default: 5)"},
    {"--log", "", "one line per request on stderr"},
};

int run_serve(const Args& args) {
  ServeOptions o;
  if (const char* env_dir = std::getenv("DTB_TABLES"); env_dir && *env_dir) o.tables = env_dir;
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (args[i] == "--log") {
      o.log = true;
      continue;
    }
    if (!args[i].starts_with("--")) return usage_error("serve", "unexpected argument " + args[i]);
    if (i + 1 == args.size()) return usage_error("serve", args[i] + " needs a value");
    if (const std::string error = set_option(o, args[i], args[i + 1]); !error.empty())
      return usage_error("serve", error);
    ++i;
  }
  return serve(o, std::cout, std::cerr);
}

}  // namespace

DTB_COMMAND("serve", "[options]", "the tables over HTTP: a JSON API and the explorer page",
            "GET /api/probe?fen=FEN[&plies_in_class=N] answers as dtb probe --json, GET /api/rules as "
            "dtb rules --json, and / is the explorer page. Stops on Ctrl-C or SIGTERM",
            kServeOptions, run_serve);

}  // namespace dtb::cli
