// The `dtb` command-line tool is a set of subcommands, one per file in cli/.
// Each file registers itself with a static DTB_COMMAND(...) so adding a
// subcommand touches no shared list.
//
// A command registers its options too: main.cpp answers --help/-h from that
// list and refuses an option not on it before the command sees its
// arguments, so every command has the same help and the same message for a
// misspelt option, and the list cannot silently drift from the parser.
#pragma once

#include <span>
#include <string>
#include <vector>

namespace dtb::cli {

using Args = std::vector<std::string>;  // arguments after the subcommand name

/// One option as `dtb CMD --help` lists it.
struct Option {
  const char* name;   // "--tables"
  const char* value;  // "DIR"; "[FILE]" if the value may be left out; "" for a flag
  const char* help;   // a short description (wrapped at 80 columns)
};

struct Command {
  const char* name;
  const char* usage;    // after "dtb NAME": positional arguments and [options]
  const char* summary;  // one short line for the list of `dtb help`
  const char* details;  // a paragraph for `dtb NAME --help` (wrapped), or ""
  std::span<const Option> options;
  int (*run)(const Args& args);
};

std::vector<Command>& registry();

struct Registrar {
  explicit Registrar(Command c) { registry().push_back(c); }
};

/// Print "dtb CMD: message" and the subcommand's usage to stderr; returns 2.
int usage_error(const char* command, const std::string& message);

/// Print "dtb CMD: unknown option OPT (see dtb CMD --help)"; returns 2.
int unknown_option(const char* command, const std::string& option);

}  // namespace dtb::cli

#define DTB_CONCAT_INNER(a, b) a##b
#define DTB_CONCAT(a, b) DTB_CONCAT_INNER(a, b)
#define DTB_COMMAND(...) \
  static ::dtb::cli::Registrar DTB_CONCAT(dtb_command_, __LINE__)(::dtb::cli::Command{__VA_ARGS__})
