// without_dir: a client reads table file names, never the server's paths.
#include <catch2/catch.hpp>

#include "serve/client_message.h"

namespace dtb {

TEST_CASE("without_dir removes the directory before table names") {
  CHECK(without_dir("corrupted table: /srv/t/KMvK.wdl: block 3 of 7", "/srv/t") ==
        "corrupted table: KMvK.wdl: block 3 of 7");
  CHECK(without_dir("no table for KvK (/srv/t//KvK.wdl)", "/srv/t/") == "no table for KvK (KvK.wdl)");
  CHECK(without_dir("/srv/t/KvK.rule: file not found", "/srv/t") == "KvK.rule: file not found");
}

TEST_CASE("without_dir names the directory itself") {
  CHECK(without_dir("5 pieces, the largest table in /srv/t has 4", "/srv/t") ==
        "5 pieces, the largest table in the table directory has 4");
  CHECK(without_dir("cannot read table directory '/srv/t': denied", "/srv/t") ==
        "cannot read table directory 'the table directory': denied");
}

TEST_CASE("without_dir touches only whole mentions") {
  CHECK(without_dir("./KvK.wdl: 1.5 bad", ".") == "KvK.wdl: 1.5 bad");
  CHECK(without_dir("tables2/KvK.wdl", "tables") == "tables2/KvK.wdl");
  // The replacement holds the directory's name again: it is not replaced twice.
  CHECK(without_dir("table, table", "table") == "the table directory, the table directory");
  CHECK(without_dir("nothing here", "") == "nothing here");
}

}  // namespace dtb
