#include "verify/unit_progress.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

namespace dtb::gen {
namespace {

constexpr const char* kLevelsKey = "levels-passed-from";
constexpr const char* kLevelsWithMtcKey = "levels-with-mtc-passed-from";
constexpr const char* kPartKey = "level-part-passed";
constexpr const char* kMtcKey = "mtc-passed";

// One line: "levels-passed-from L", "levels-with-mtc-passed-from L",
// "level-part-passed L T N", "mtc-passed" or "<16 hex>  <file>".
bool parse_line(const std::string& line, UnitProgress& progress) {
  if (line.empty() || line[0] == '#') return true;
  std::istringstream in(line);
  std::string first, second;
  in >> first;
  if (first == kMtcKey) return progress.mtc_passed = true;
  if (first == kPartKey)
    return static_cast<bool>(in >> progress.part_level >> progress.part_table >> progress.part_positions) &&
           progress.part_level >= 0 && progress.part_table >= 0;
  if (first == kLevelsKey || first == kLevelsWithMtcKey) {
    progress.levels_with_mtc = first == kLevelsWithMtcKey;
    return static_cast<bool>(in >> progress.levels_passed_from) && progress.levels_passed_from >= 0;
  }
  if (first.size() != 16 || first.find_first_not_of("0123456789abcdef") != std::string::npos || !(in >> second))
    return false;
  progress.files[second] = std::stoull(first, nullptr, 16);
  return true;
}

}  // namespace

std::string unit_progress_path(const std::string& journal_file) { return journal_file + ".unit"; }

bool read_unit_progress(const std::string& path, UnitProgress& progress, std::string& error) {
  progress = {};
  if (!std::filesystem::exists(path)) return true;
  std::ifstream in(path);
  if (!in) {
    error = "cannot open " + path + ": " + std::strerror(errno);
    return false;
  }
  std::string line;
  while (std::getline(in, line))
    if (!parse_line(line, progress)) {
      progress = {};
      return true;
    }
  if (in.bad()) {
    error = "cannot read " + path;
    return false;
  }
  return true;
}

bool write_unit_progress(const std::string& path, const UnitProgress& progress, std::string& error) {
  std::ostringstream out;
  out << "# dtb verify: the unit being checked; a rerun resumes here if these files are unchanged\n";
  if (progress.levels_passed_from >= 0)
    out << (progress.levels_with_mtc ? kLevelsWithMtcKey : kLevelsKey) << ' ' << progress.levels_passed_from << '\n';
  if (progress.part_level >= 0)
    out << kPartKey << ' ' << progress.part_level << ' ' << progress.part_table << ' ' << progress.part_positions
        << '\n';
  if (progress.mtc_passed) out << kMtcKey << '\n';
  for (const auto& [name, hash] : progress.files) out << format_hash(hash) << "  " << name << '\n';
  return write_text_atomically(path, out.str(), error);
}

bool progress_applies(const UnitProgress& progress, const ChecksumList& files) {
  return !files.empty() && progress.files == files;
}

UnitProgressRecorder::UnitProgressRecorder(std::string path, double seconds, UnitProgress start)
    : path_(std::move(path)), seconds_(seconds), progress_(std::move(start)), last_(std::chrono::steady_clock::now()) {}

bool UnitProgressRecorder::level_passed(int level, std::string& error) {
  progress_.levels_passed_from = level;
  progress_.part_level = -1;
  progress_.part_table = 0;
  progress_.part_positions = 0;
  return record_if_due(error);
}

bool UnitProgressRecorder::level_part_passed(int level, int table, std::uint64_t positions, std::string& error) {
  progress_.part_level = level;
  progress_.part_table = table;
  progress_.part_positions = positions;
  return record_if_due(error);
}

bool UnitProgressRecorder::mtc_passed(std::string& error) {
  progress_.mtc_passed = true;
  return record_if_due(error);
}

bool UnitProgressRecorder::record_if_due(std::string& error) {
  const auto now = std::chrono::steady_clock::now();
  if (path_.empty() || std::chrono::duration<double>(now - last_).count() < seconds_) return true;
  last_ = now;
  return write_unit_progress(path_, progress_, error);
}

}  // namespace dtb::gen
