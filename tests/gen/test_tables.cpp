#include "tests/gen/test_tables.h"

#include <cstdlib>
#include <filesystem>
#include <memory>
#include <stdexcept>
#include <vector>

#include "gen/table_builder.h"
#include "gen/table_discovery.h"

namespace dtb::gen::testing {
namespace {

namespace fs = std::filesystem;

struct TempDirs {
  std::vector<std::string> dirs;
  ~TempDirs() {
    std::error_code ec;
    for (const auto& d : dirs) fs::remove_all(d, ec);
  }
};
TempDirs& temp_dirs() {
  static TempDirs t;
  return t;
}

// Build the test tables into `dir` (only what is missing), then load every
// table into `store`, checked, in build order.
void build_into(const std::string& dir, WdlStore& store) {
  BuildOptions options;
  options.max_pieces = kTestPieces;
  options.out_dir = dir;
  BuildSummary summary;
  std::string error;
  if (build_tables(options, summary, error) != BuildStatus::Ok)
    throw std::runtime_error("building the test tables failed: " + error);
  for (const Material& m : materials_in_build_order(kTestPieces)) {
    std::vector<std::uint8_t> values;
    std::uint64_t bytes = 0;
    if (!load_checked(dir, m, store, values, bytes, error))
      throw std::runtime_error("loading the test tables failed: " + error);
    store.add(m, values);
  }
}

}  // namespace

std::string make_temp_dir(const std::string& tag) {
  std::string pattern = (fs::temp_directory_path() / ("dtb-gen-" + tag + "-XXXXXX")).string();
  if (!mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  temp_dirs().dirs.push_back(pattern);
  return pattern;
}

std::string make_mtc_tables_up_to_3(const std::string& tag) {
  const std::string dir = make_temp_dir(tag);
  BuildOptions options;
  options.max_pieces = 3;
  options.out_dir = dir;
  options.mtc = true;
  BuildSummary summary;
  std::string error;
  if (build_tables(options, summary, error) != BuildStatus::Ok) throw std::runtime_error(error);
  return dir;
}

// The store of the test tables, filled by whoever needs it first.
static std::unique_ptr<WdlStore>& shared_store() {
  static std::unique_ptr<WdlStore> store;
  return store;
}

const std::string& test_tables_dir() {
  static const std::string dir = [] {
    if (const char* env = std::getenv("DTB_TEST_TABLES"); env && *env) return std::string(env);
    // No fixture: build them here (which also loads them).
    std::string d = make_temp_dir("tables");
    shared_store() = std::make_unique<WdlStore>();
    build_into(d, *shared_store());
    return d;
  }();
  return dir;
}

const WdlStore& test_store() {
  const std::string& dir = test_tables_dir();
  if (!shared_store()) {
    // Building on a complete directory only checks and loads its tables.
    shared_store() = std::make_unique<WdlStore>();
    build_into(dir, *shared_store());
  }
  return *shared_store();
}

}  // namespace dtb::gen::testing
