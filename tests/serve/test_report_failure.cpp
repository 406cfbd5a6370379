// failure_of: the kind of a failure (what the HTTP status follows) and the
// table file and block a client is told about.
#include <catch2/catch.hpp>

#include <cstring>

#include "serve/report_failure.h"

namespace dtb {
namespace {

dtb_error c_error(const char* material, std::int64_t block, const char* message) {
  dtb_error e{};
  std::strncpy(e.material, material, sizeof e.material - 1);
  e.block = block;
  std::strncpy(e.message, message, sizeof e.message - 1);
  return e;
}

}  // namespace

TEST_CASE("failure_of sorts the probe library's statuses") {
  const dtb_error none = c_error("", -1, "");
  CHECK(failure_of(DTB_OK, none).kind == FailureKind::None);
  CHECK(failure_of(DTB_INVALID_ARGUMENT, none).kind == FailureKind::BadInput);
  CHECK(failure_of(DTB_INVALID_POSITION, none).kind == FailureKind::BadInput);
  CHECK(failure_of(DTB_TOO_MANY_PIECES, none).kind == FailureKind::TableMissing);
  CHECK(failure_of(DTB_TABLE_MISSING, none).kind == FailureKind::TableMissing);
  CHECK(failure_of(DTB_CORRUPTED_TABLE, none).kind == FailureKind::TableDamaged);
  CHECK(failure_of(DTB_IO_ERROR, none).kind == FailureKind::TableDamaged);
  CHECK(failure_of(DTB_OUT_OF_MEMORY, none).kind == FailureKind::Internal);
}

TEST_CASE("failure_of names the damaged file and block") {
  const Failure f = failure_of(DTB_CORRUPTED_TABLE,
                               c_error("KMvK", 3, "/t/KMvK.wdl: block 3 of 7: checksum mismatch"));
  CHECK(f.message == "corrupted table: /t/KMvK.wdl: block 3 of 7: checksum mismatch");
  CHECK(f.material == "KMvK");
  CHECK(f.file == "KMvK.wdl");
  CHECK(f.block == 3);
  // A table the rules report loads whole (drawrules/): only its message says which.
  const Failure d = failure_of(TableError{TableStatus::ChecksumMismatch, "/t/KKMvK.dtw: block 12 of 40: bad"});
  CHECK(d.kind == FailureKind::TableDamaged);
  CHECK(d.file == "KKMvK.dtw");
  CHECK(d.material == "KKMvK");
  CHECK(d.block == 12);
  const Failure header = failure_of(TableError{TableStatus::BadMagic, "/t/KvK.rule: not a table"});
  CHECK(header.file == "KvK.rule");
  CHECK(header.block == -1);
}

TEST_CASE("failure_of keeps a missing table's material and a bad count's message") {
  const Failure m = failure_of(DTB_TABLE_MISSING, c_error("KKvK", -1, "no table for KKvK (/t/KKvK.wdl)"));
  CHECK(m.kind == FailureKind::TableMissing);
  CHECK(m.material == "KKvK");
  CHECK(m.file.empty());  // nothing damaged
  // A count beyond the class's limit: the client's mistake, no table named.
  const Failure c = failure_of(
      probe::ProbeError{DTB_INVALID_ARGUMENT, "KMvK", -1, "plies_in_class 11 is outside 0..10 (article 6.4)"});
  CHECK(c.kind == FailureKind::BadInput);
  CHECK(c.message == "invalid argument: plies_in_class 11 is outside 0..10 (article 6.4)");
  CHECK(c.material.empty());
}

}  // namespace dtb
