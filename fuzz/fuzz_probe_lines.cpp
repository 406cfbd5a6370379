// The standard input of `dtb probe --json` (cli/probe_lines.h): any bytes,
// read line by line exactly as the command reads them. Tables as in
// fuzz_serve_api.cpp ($DTB_FUZZ_TABLES, else an empty directory). The first
// byte picks the counts the command line would give (--plies-in-class,
// --plies-since-conversion). Checks: one output line per non-blank input
// line, each one valid JSON object, an "error" exactly on the lines that
// failed, and never a damaged-table error on intact tables.
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "cli/probe_lines.h"
#include "fuzz/json_check.h"
#include "rules/article62.h"

namespace {

std::string dir;
bool intact_tables = false;
dtb::Tablebase* tables = nullptr;

[[noreturn]] void fail(const std::string& what, const std::string& input, const std::string& output) {
  std::fprintf(stderr, "fuzz_probe_lines: %s\ninput: %s\noutput: %s\n", what.c_str(), input.c_str(), output.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  if (const char* d = std::getenv("DTB_FUZZ_TABLES"); d && *d) {
    dir = d;
    intact_tables = true;
  } else {
    char pattern[] = "/tmp/fuzz_probe_lines.XXXXXX";
    if (!mkdtemp(pattern)) return std::perror("mkdtemp"), 1;
    dir = pattern;
    std::atexit([] { std::filesystem::remove_all(dir); });
  }
  tables = new dtb::Tablebase;
  dtb_error e{};
  if (tables->open(dir, std::size_t{8} << 20, &e) != DTB_OK) {
    std::fprintf(stderr, "fuzz_probe_lines: cannot open the tables in %s: %s\n", dir.c_str(), e.message);
    std::exit(1);
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  dtb::cli::ProbeLineOptions options;
  options.json = true;
  // Byte 0: bit 0 gives a class count, bits 1-5 its value (0-31), bits 6-7
  // a 6.2 count (none, 0, 25 or the largest).
  const unsigned o = data[0];
  if (o & 1) {
    options.class_count_given = true;
    options.plies_in_class = static_cast<int>((o >> 1) & 31);
  }
  const int since[] = {-1, 0, 25, dtb::kMaxPliesSinceConversion};
  options.plies_since_conversion = since[o >> 6];
  const std::string input(reinterpret_cast<const char*>(data + 1), size - 1);

  std::istringstream in(input);
  std::ostringstream out;
  const bool ok = dtb::cli::answer_probe_lines(*tables, in, options, out);
  const std::string output = out.str();

  // The lines the command answers: non-blank after dropping a trailing CR.
  std::size_t expected = 0;
  std::istringstream lines(input);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    expected += line.find_first_not_of(" \t") != std::string::npos;
  }
  std::size_t answered = 0;
  bool any_error = false;
  std::istringstream answers(output);
  for (std::string line; std::getline(answers, line); ++answered) {
    if (line.empty() || line.front() != '{' || !dtb::fuzz::valid_json(line)) fail("not a JSON object", input, line);
    const bool error = line.find("\",\"error\":") != std::string::npos;
    any_error |= error;
    // Every error carries "file"; only a damaged table names one (null otherwise).
    if (intact_tables && error && line.find("\"file\":\"") != std::string::npos)
      fail("a damaged table reported on intact tables", input, line);
  }
  if (!output.empty() && output.back() != '\n') fail("output does not end its last line", input, output);
  if (answered != expected) fail("not one answer per line", input, output);
  if (ok == any_error) fail("the status disagrees with the answers", input, output);
  return 0;
}
