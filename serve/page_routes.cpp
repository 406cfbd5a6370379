#include "serve/page_routes.h"

#include <httplib.h>

#include <string>
#include <string_view>

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

}  // namespace

void add_page_routes(httplib::Server& server) {
  for (const PageAsset& asset : page_assets()) {
    const std::string path = asset.name == "index.html" ? "/" : "/" + std::string(asset.name);
    server.Get(path, [asset](const httplib::Request&, httplib::Response& res) {
      res.set_header("Content-Security-Policy", kContentSecurityPolicy);
      res.set_header("Cache-Control", "no-cache");
      res.set_content(asset.bytes.data(), asset.bytes.size(), content_type_of(asset.name));
    });
  }
}

}  // namespace dtb
