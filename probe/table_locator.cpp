#include "probe/table_locator.h"

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <map>

#include "compress/table_file.h"
#include "index/material.h"

namespace dtb::probe {
namespace {

namespace fs = std::filesystem;

// The bytes that tell two table files apart (see table_locator.h): the first
// and the last 64 KiB.
std::string fingerprint(const fs::path& path, std::uintmax_t size) {
  constexpr std::uintmax_t kSpan = 64 * 1024;
  std::ifstream in(path, std::ios::binary);
  std::string out(static_cast<std::size_t>(std::min(size, 2 * kSpan)), '\0');
  const std::uintmax_t head = std::min(size, kSpan);
  in.read(out.data(), static_cast<std::streamsize>(head));
  if (size > head) {
    in.seekg(static_cast<std::streamoff>(size - std::min(size - head, kSpan)));
    in.read(out.data() + head, static_cast<std::streamsize>(out.size() - head));
  }
  return in ? out : std::string();
}

bool same_file_contents(const fs::path& a, const fs::path& b) {
  std::error_code ec;
  if (fs::equivalent(a, b, ec)) return true;  // one directory named twice, or a link
  const std::uintmax_t size = fs::file_size(a, ec);
  if (ec || size != fs::file_size(b, ec) || ec) return false;
  const std::string fa = fingerprint(a, size);
  return !fa.empty() && fa == fingerprint(b, size);
}

}  // namespace

TableLocator::TableLocator(const std::string& dirs) : text_(dirs) {
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = dirs.find(':', start);
    const std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty()) dirs_.push_back(dir);
    if (end == std::string::npos) break;
    start = end + 1;
  }
  if (dirs_.empty()) dirs_.push_back(dirs);  // "" stays a (missing) directory with its message
}

dtb_status TableLocator::scan(std::string& message) {
  std::map<std::string, fs::path> first_holder;  // file name -> where it was seen first
  for (const std::string& dir : dirs_) {
    std::error_code ec;
    fs::directory_iterator it(dir, ec), end;
    if (ec) {
      message = "cannot read table directory '" + dir + "': " + ec.message();
      return DTB_IO_ERROR;
    }
    for (; it != end; it.increment(ec)) {
      if (ec) {
        message = "cannot list table directory '" + dir + "': " + ec.message();
        return DTB_IO_ERROR;
      }
      const fs::path& p = it->path();
      const std::string name = p.filename().string();
      if (p.extension() == table_extension(TableKind::Wdl)) {
        const auto m = parse_material(p.stem().string());
        if (m && m->pieces() <= kMaxSupportedPieces) max_wdl_pieces_ = std::max(max_wdl_pieces_, m->pieces());
      }
      const auto [seen, fresh] = first_holder.emplace(name, p);
      if (!fresh && !same_file_contents(seen->second, p)) {
        message = "two different files of one name: " + seen->second.string() + " and " + p.string() +
                  " (a table set split over directories must not hold two versions of a table)";
        return DTB_INVALID_ARGUMENT;
      }
    }
  }
  return DTB_OK;
}

std::string TableLocator::path_of(const std::string& file) const {
  for (const std::string& dir : dirs_) {
    std::error_code ec;
    const fs::path p = fs::path(dir) / file;
    if (fs::exists(p, ec)) return p.string();
  }
  return (fs::path(dirs_.front()) / file).string();
}

bool TableLocator::has(const std::string& file) const {
  std::error_code ec;
  return fs::exists(path_of(file), ec);
}

}  // namespace dtb::probe
