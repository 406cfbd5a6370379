// The `dtb` command-line tool is a set of subcommands, one per file in cli/.
// Each file registers itself with a static DTB_COMMAND(...) so adding a
// subcommand touches no shared list.
#pragma once

#include <string>
#include <vector>

namespace dtb::cli {

using Args = std::vector<std::string>;  // arguments after the subcommand name

struct Command {
  const char* name;
  const char* usage;    // one line: arguments and options
  const char* summary;  // one line: what it does
  int (*run)(const Args& args);
};

std::vector<Command>& registry();

struct Registrar {
  explicit Registrar(Command c) { registry().push_back(c); }
};

/// Print "dtb: message" and the subcommand's usage to stderr; returns 2.
int usage_error(const char* command, const std::string& message);

}  // namespace dtb::cli

#define DTB_CONCAT_INNER(a, b) a##b
#define DTB_CONCAT(a, b) DTB_CONCAT_INNER(a, b)
#define DTB_COMMAND(...) \
  static ::dtb::cli::Registrar DTB_CONCAT(dtb_command_, __LINE__)(::dtb::cli::Command{__VA_ARGS__})
