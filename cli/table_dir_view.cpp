#include "cli/table_dir_view.h"

#include <stdlib.h>

#include <cctype>
#include <filesystem>
#include <system_error>
#include <vector>

#include "probe/table_locator.h"

namespace dtb::cli {
namespace {

namespace fs = std::filesystem;

// A fresh, private directory under the system's temporary directory.
bool make_link_directory(std::string& out, std::string& error) {
  std::error_code ec;
  std::string pattern = (fs::temp_directory_path(ec) / "dtb-tables-XXXXXX").string();
  if (ec || !mkdtemp(pattern.data())) {
    error = "cannot make a temporary directory for the table set: " + (ec ? ec.message() : std::string("mkdtemp"));
    return false;
  }
  out = pattern;
  return true;
}

// The directories of "a:b:c", in order, without empty parts.
std::vector<std::string> split_dirs(const std::string& dirs) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t end = dirs.find(':', start);
    std::string dir = dirs.substr(start, end == std::string::npos ? std::string::npos : end - start);
    if (!dir.empty()) out.push_back(std::move(dir));
    if (end == std::string::npos) return out;
    start = end + 1;
  }
}

// A link in `links` to every file of `dirs` not linked yet: the first
// directory that has a name wins, as in the probe library.
bool link_files(const std::vector<std::string>& dirs, const std::string& links, std::string& error) {
  for (const std::string& dir : dirs) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path link = fs::path(links) / it->path().filename();
      if (fs::exists(fs::symlink_status(link))) continue;
      fs::create_symlink(fs::absolute(it->path()), link, ec);
      if (ec) break;
    }
    if (ec) {
      error = "cannot link the files of '" + dir + "' into " + links + ": " + ec.message();
      return false;
    }
  }
  return true;
}

}  // namespace

bool TableDirView::open(const std::string& dirs, std::string& error) {
  dirs_ = dirs;
  const std::vector<std::string> parts = split_dirs(dirs);
  if (parts.size() <= 1) {
    dir_ = parts.empty() ? dirs : parts.front();
    return true;
  }
  probe::TableLocator locator(dirs);
  if (locator.scan(error) != DTB_OK) return false;
  if (!make_link_directory(links_, error)) return false;
  dir_ = links_;
  return link_files(parts, links_, error);
}

TableDirView::~TableDirView() {
  if (links_.empty()) return;
  std::error_code ec;
  fs::remove_all(links_, ec);  // the links only: remove_all does not follow them
}

std::string TableDirView::named(std::string message) const {
  if (links_.empty()) return message;
  const probe::TableLocator locator(dirs_);
  const std::string prefix = links_ + "/";
  for (std::size_t at = message.find(prefix); at != std::string::npos; at = message.find(prefix, at)) {
    std::size_t end = at + prefix.size();
    while (end < message.size() && (std::isalnum(static_cast<unsigned char>(message[end])) ||
                                    message[end] == '.' || message[end] == '-' || message[end] == '_'))
      ++end;
    const std::string real = locator.path_of(message.substr(at + prefix.size(), end - at - prefix.size()));
    message.replace(at, end - at, real);
    at += real.size();
  }
  // A message may name the set's directory itself.
  for (std::size_t at = message.find(links_); at != std::string::npos; at = message.find(links_, at)) {
    message.replace(at, links_.size(), dirs_);
    at += dirs_.size();
  }
  return message;
}

}  // namespace dtb::cli
