// Entry point of `dtb`: dispatch to the registered subcommand.
#include <algorithm>
#include <cstring>
#include <exception>
#include <iostream>

#include "cli/command.h"

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
    if (std::strcmp(c.name, command) == 0) std::cerr << "usage: dtb " << c.name << " " << c.usage << "\n";
  return 2;
}

namespace {

void print_usage(std::ostream& out) {
  auto commands = registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
  out << "usage: dtb <command> [arguments]\n\ncommands:\n";
  for (const Command& c : commands) {
    out << "  " << c.name << " " << c.usage << "\n      " << c.summary << "\n";
  }
}

}  // namespace
}  // namespace dtb::cli

int main(int argc, char** argv) {
  using namespace dtb::cli;
  if (argc < 2) {
    print_usage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "-h" || name == "--help" || name == "help") {
    print_usage(std::cout);
    return 0;
  }
  if (name == "--version" || name == "version") {
    std::cout << "dtb " << DTB_VERSION << "\n";
    return 0;
  }
  for (const Command& c : registry()) {
    if (name != c.name) continue;
    try {
      return c.run(Args(argv + 2, argv + argc));
    } catch (const std::exception& e) {
      std::cerr << "dtb " << name << ": error: " << e.what() << "\n";
      return 1;
    }
  }
  std::cerr << "dtb: unknown command '" << name << "'\n\n";
  print_usage(std::cerr);
  return 2;
}
