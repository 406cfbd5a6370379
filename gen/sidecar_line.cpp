#include "gen/sidecar_line.h"

#include <xxhash.h>

#include <cstdint>
#include <fstream>
#include <span>

#include "compress/atomic_file.h"
#include "gen/checksums.h"

namespace dtb::gen {
namespace {

std::string line_hash(const std::string& text) { return format_hash(XXH3_64bits(text.data(), text.size())); }

}  // namespace

bool write_checked_line(const std::string& path, const std::string& text, std::string& error) {
  const std::string line = text + ' ' + line_hash(text) + '\n';
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(line.data()), line.size());
  const std::span<const std::uint8_t> parts[] = {bytes};
  if (TableError e = write_file_atomically(path, parts)) {
    error = e.message;
    return false;
  }
  return true;
}

std::optional<std::string> read_checked_line(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  const std::size_t last = line.rfind(' ');
  if (last == std::string::npos) return std::nullopt;
  std::string text = line.substr(0, last);
  if (line.substr(last + 1) != line_hash(text)) return std::nullopt;  // damaged
  return text;
}

}  // namespace dtb::gen
