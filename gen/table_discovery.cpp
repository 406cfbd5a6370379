#include "gen/table_discovery.h"

#include <algorithm>
#include <filesystem>
#include <set>

#include "solver/table_loading.h"
#include "index/position_index.h"

namespace dtb::gen {

namespace fs = std::filesystem;

bool discover_tables(const std::string& dir, std::vector<Material>& out, std::string& error) {
  out.clear();
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) {
    error = dir + " is not a directory";
    return false;
  }
  std::set<Material> present;
  int max_pieces = 0;
  const std::string extension = table_extension(TableKind::Wdl);
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    if (entry.path().extension() != extension) continue;
    const std::string stem = entry.path().stem().string();
    const auto m = parse_material(stem);
    if (!m) {
      error = entry.path().string() + ": file name is not a material";
      return false;
    }
    present.insert(*m);
    max_pieces = std::max(max_pieces, m->pieces());
  }
  if (ec) {
    error = "cannot list " + dir + ": " + ec.message();
    return false;
  }
  if (present.empty()) {
    error = "no " + extension + " tables in " + dir;
    return false;
  }
  for (const Material& m : materials_in_build_order(max_pieces)) {
    if (!present.count(m)) continue;
    std::vector<Material> needed = direct_dependencies(m);
    needed.push_back(m.reversed());
    for (const Material& d : needed)
      if (!present.count(d)) {
        error = m.name() + " needs " + d.name() + extension + ", which is not in " + dir;
        return false;
      }
    out.push_back(m);
  }
  return true;
}

std::uint64_t total_positions(const std::vector<Material>& materials) {
  std::uint64_t n = 0;
  for (const Material& m : materials) n += PositionIndex(m).size();
  return n;
}

namespace {

// Opens and checks the table of m, then runs `load(reader)`; the message of
// a failure names the file.
template <class Load>
bool load_checked_with(const std::string& dir, const Material& m, std::uint64_t& file_bytes, std::string& error,
                       Load&& load) {
  const std::string path = wdl_table_path(dir, m);
  std::unique_ptr<TableReader> reader;
  TableError e = open_checked_table(path, m, reader);
  if (!e) e = load(*reader);
  if (e) {
    error = e.message.find(path) == std::string::npos ? path + ": " + e.message : e.message;
    return false;
  }
  file_bytes = reader->file_bytes();
  return true;
}

template <class Values>
bool load_checked_into(const std::string& dir, const Material& m, const FinishedValues& store, Values& values,
                       std::uint64_t& file_bytes, std::string& error, const LoadProgress& progress = {}) {
  return load_checked_with(dir, m, file_bytes, error, [&](const TableReader& reader) {
    return load_table_values(reader, PositionIndex(m), store, values, progress);
  });
}

}  // namespace

bool load_checked(const std::string& dir, const Material& m, const FinishedValues& store,
                  std::vector<std::uint8_t>& values, std::uint64_t& file_bytes, std::string& error) {
  return load_checked_into(dir, m, store, values, file_bytes, error);
}

bool load_checked(const std::string& dir, const Material& m, const FinishedValues& store, UnitValues& values,
                  std::uint64_t& file_bytes, std::string& error, const LoadProgress& progress) {
  return load_checked_into(dir, m, store, values, file_bytes, error, progress);
}

bool load_checked_stored(const std::string& dir, const Material& m, UnitValues& values, std::uint64_t& file_bytes,
                         std::string& error, const LoadProgress& progress) {
  return load_checked_with(dir, m, file_bytes, error,
                           [&](const TableReader& reader) { return load_stored_values(reader, values, progress); });
}

}  // namespace dtb::gen
