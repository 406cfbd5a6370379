#include "verify/mtc_verifier.h"

#include <filesystem>

#include "solver/table_loading.h"

namespace dtb::gen {

bool has_mtc_table(const std::string& dir, const Material& m) {
  std::error_code ec;
  return std::filesystem::exists(mtc_table_path(dir, m), ec);
}

}  // namespace dtb::gen
