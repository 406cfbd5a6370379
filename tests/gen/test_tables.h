// The 2..4 piece tables the gen tests share: the directory named by the
// environment variable DTB_TEST_TABLES (built once by a CTest fixture), or,
// when it is not set, a private temporary directory built on first use.
#pragma once

#include <string>

#include "tests/gen/wdl_store.h"

namespace dtb::gen::testing {

inline constexpr int kTestPieces = 4;

/// Directory holding every table up to kTestPieces pieces.
const std::string& test_tables_dir();
/// Those tables loaded (and checked) into memory.
const WdlStore& test_store();
/// A fresh empty temporary directory (removed at exit).
std::string make_temp_dir(const std::string& tag);
/// A fresh temporary directory holding the 2-3 piece tables with .mtc,
/// built on the OpenMP thread count in force (for tests that change them).
std::string make_mtc_tables_up_to_3(const std::string& tag);

}  // namespace dtb::gen::testing
