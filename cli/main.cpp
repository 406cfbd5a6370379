// Entry point of `dtb`: help and version, then dispatch to the registered
// subcommand once its options are checked (help.h).
#include <cstring>
#include <exception>
#include <iostream>

#include "cli/command.h"
#include "cli/help.h"

#ifndef DTB_VERSION
#error "DTB_VERSION must be defined (cli/CMakeLists.txt passes the project version)"
#endif

namespace dtb::cli {

std::vector<Command>& registry() {
  static std::vector<Command> commands;
  return commands;
}

int usage_error(const char* command, const std::string& message) {
  std::cerr << "dtb " << command << ": " << message << "\n";
  for (const Command& c : registry())
    if (std::strcmp(c.name, command) == 0)
      std::cerr << "usage: dtb " << c.name << " " << c.usage << " (see dtb " << c.name << " --help)\n";
  return 2;
}

int unknown_option(const char* command, const std::string& option) {
  std::cerr << "dtb " << command << ": unknown option " << option << " (see dtb " << command << " --help)\n";
  return 2;
}

namespace {

const Command* find_command(const std::string& name) {
  for (const Command& c : registry())
    if (name == c.name) return &c;
  return nullptr;
}

int unknown_command(const std::string& name) {
  std::cerr << "dtb: unknown command '" << name << "'\n\n";
  print_command_list(std::cerr);
  return 2;
}

// `dtb help [COMMAND]`, `dtb --help`, `dtb -h`.
int help(const Args& args) {
  if (args.empty()) {
    print_command_list(std::cout);
    return 0;
  }
  const Command* c = find_command(args[0]);
  if (!c) return unknown_command(args[0]);
  print_command_help(*c, std::cout);
  return 0;
}

int run(const Command& c, const Args& args) {
  if (const auto answered = answer_help_or_refuse(c, args)) return *answered;
  try {
    return c.run(args);
  } catch (const std::exception& e) {
    std::cerr << "dtb " << c.name << ": error: " << e.what() << "\n";
    return 1;
  }
}

}  // namespace
}  // namespace dtb::cli

int main(int argc, char** argv) {
  using namespace dtb::cli;
  if (argc < 2) {
    print_command_list(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  const Args args(argv + 2, argv + argc);
  if (name == "help" || name == "--help" || name == "-h") return help(args);
  if (name == "version" || name == "--version") {
    std::cout << "dtb " << DTB_VERSION << "\n";
    return 0;
  }
  if (const Command* c = find_command(name)) return run(*c, args);
  return unknown_command(name);
}
