// The explorer page (serve/page/): its files are compiled into the binary
// (serve/embed_assets.cmake), so `dtb serve` needs nothing installed beside
// it and never maps a URL to a file: no request can read outside the table
// directory through the page routes.
#pragma once

#include <span>
#include <string_view>

namespace dtb {

struct PageAsset {
  std::string_view name;   // file name in serve/page/, e.g. "explorer.js"
  std::string_view bytes;  // its contents
};

/// Every file of the page, in serve/page/ order.
std::span<const PageAsset> page_assets();

}  // namespace dtb
