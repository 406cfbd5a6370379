// `dtb plan`: the figures it prints and its errors, through the real binary
// (ctest passes its path in DTB_BINARY).
#include <catch2/catch.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

#include "index/material.h"
#include "index/plan.h"

namespace {

struct Run {
  int exit_code;
  std::string output;  // stdout and stderr
};

Run run_dtb(const std::string& arguments) {
  const char* binary = std::getenv("DTB_BINARY");
  if (!binary) FAIL("DTB_BINARY is not set (ctest sets it to the dtb tool)");
  const std::string command = std::string(binary) + " " + arguments + " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  REQUIRE(pipe);
  std::string output;
  char buffer[4096];
  while (const std::size_t n = fread(buffer, 1, sizeof buffer, pipe)) output.append(buffer, n);
  const int status = pclose(pipe);
  return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, output};
}

}  // namespace

TEST_CASE("dtb plan prints the published counts and every material in build order") {
  const Run run = run_dtb("plan --max-pieces 5 --rate 1000000");
  REQUIRE(run.exit_code == 0);
  std::istringstream in(run.output);
  std::string line;
  std::getline(in, line);
  CHECK_THAT(line, Catch::StartsWith("pieces materials positions"));
  const std::uint64_t expected[][3] = {
      {2, 4, 17'690}, {3, 12, 1'612'600}, {4, 25, 83'942'400}, {5, 44, 3'141'201'500}};
  for (const auto& row : expected) {
    std::uint64_t pieces = 0, materials = 0, positions = 0;
    in >> pieces >> materials >> positions;
    CHECK(pieces == row[0]);
    CHECK(materials == row[1]);
    CHECK(positions == row[2]);
  }
  std::getline(in, line);  // end of the last row
  std::getline(in, line);  // blank
  std::getline(in, line);
  CHECK_THAT(line, Catch::StartsWith("build order"));
  std::vector<dtb::Material> listed;
  while (std::getline(in, line) && !line.empty()) {
    std::istringstream fields(line);
    int level = -1;
    std::string name;
    std::uint64_t size = 0;
    fields >> level >> name >> size;
    const auto m = dtb::parse_material(name);
    REQUIRE(m);
    CHECK(size > 0);
    listed.push_back(*m);
  }
  CHECK(listed == dtb::materials_in_build_order(5));
  // The largest unit, found here from the table sizes.
  std::uint64_t largest = 0;
  std::string largest_name;
  for (const auto& level : dtb::build_levels(5))
    for (const auto& unit : level)
      if (dtb::unit_positions(unit) > largest) {
        largest = dtb::unit_positions(unit);
        largest_name = unit[0].name() + (unit.size() == 2 ? " + " + unit[1].name() : "");
      }
  CHECK_THAT(run.output, Catch::Contains("largest build unit: " + largest_name + ", " +
                                         std::to_string(largest) + " positions"));
  CHECK_THAT(run.output, Catch::Contains("peak memory: "));
  CHECK_THAT(run.output, Catch::Contains("fits the bound"));
  CHECK_THAT(run.output, Catch::Contains("solving time at 1e+06 positions/s"));
}

TEST_CASE("dtb plan rejects a bad piece count with a clear message") {
  for (const char* bad : {"--max-pieces 1", "--max-pieces 11", "--max-pieces x", "--max-pieces",
                          "--max-pieces 4x", "", "--max-pieces 3 --rate -5", "--frobnicate"}) {
    INFO("arguments '" << bad << "'");
    const Run run = run_dtb(std::string("plan ") + bad);
    CHECK(run.exit_code == 2);
    CHECK_THAT(run.output, Catch::StartsWith("dtb plan: "));
  }
}
