#include "gen/checksums.h"

#include <xxhash.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <span>
#include <vector>

#include "compress/atomic_file.h"

namespace dtb::gen {
namespace {

struct FileCloser {
  void operator()(std::FILE* f) const { std::fclose(f); }
};
struct StateFree {
  void operator()(XXH3_state_t* s) const { XXH3_freeState(s); }
};

}  // namespace

bool file_xxh3(const std::string& path, std::uint64_t& hash, std::string& error) {
  std::unique_ptr<std::FILE, FileCloser> file(std::fopen(path.c_str(), "rb"));
  if (!file) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  std::unique_ptr<XXH3_state_t, StateFree> state(XXH3_createState());
  if (!state || XXH3_64bits_reset(state.get()) == XXH_ERROR) {
    error = "out of memory hashing " + path;
    return false;
  }
  std::vector<char> buffer(1 << 20);
  std::size_t n = 0;
  while ((n = std::fread(buffer.data(), 1, buffer.size(), file.get())) > 0) XXH3_64bits_update(state.get(), buffer.data(), n);
  if (std::ferror(file.get())) {
    error = "cannot read " + path + ": " + std::strerror(errno);
    return false;
  }
  hash = XXH3_64bits_digest(state.get());
  return true;
}

std::string format_hash(std::uint64_t hash) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(hash));
  return buf;
}

bool read_checksum_list(const std::string& path, ChecksumList& list, std::string& error) {
  std::ifstream in(path);
  if (!in) {
    error = "cannot open checksum list " + path;
    return false;
  }
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream fields(line);
    std::string hex, name, extra;
    fields >> hex >> name;
    const bool hex_ok = hex.size() == 16 && hex.find_first_not_of("0123456789abcdef") == std::string::npos;
    if (!hex_ok || name.empty() || (fields >> extra)) {
      error = path + ":" + std::to_string(number) + ": expected '<16 hex digits>  <file name>'";
      return false;
    }
    list[name] = std::stoull(hex, nullptr, 16);
  }
  return true;
}

bool write_checksum_list(const std::string& path, const ChecksumList& list, std::string& error) {
  std::ostringstream out;
  out << "# XXH3-64 of every table file (dtb verify DIR --write-checksums FILE)\n";
  for (const auto& [name, hash] : list) out << format_hash(hash) << "  " << name << "\n";
  return write_text_atomically(path, out.str(), error);
}

// Through write_file_atomically: a stream's failure said only "cannot
// write", not why; a full disk must say so and name the file (a journal of
// `dtb verify` on a full disk), and the file must be synced before the
// rename, or a crash could leave a journal that names no file's hash.
bool write_text_atomically(const std::string& path, const std::string& text, std::string& error) {
  const std::span<const std::uint8_t> bytes(reinterpret_cast<const std::uint8_t*>(text.data()), text.size());
  const std::span<const std::uint8_t> parts[] = {bytes};
  if (const TableError e = write_file_atomically(path, parts)) {
    error = "cannot write " + path + ": " + e.message;
    return false;
  }
  return true;
}

}  // namespace dtb::gen
