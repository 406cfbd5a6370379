// The help of `dtb`, written from the commands' registrations (command.h):
// the list of commands, one command's usage and options, and the check of
// a command's options before it runs.
#pragma once

#include <optional>
#include <ostream>

#include "cli/command.h"

namespace dtb::cli {

/// `dtb help`: one line per command, sorted by name.
void print_command_list(std::ostream& out);

/// `dtb CMD --help`: usage, what the command does, one line per option.
void print_command_help(const Command& command, std::ostream& out);

/// Before `command` parses `args`: --help or -h anywhere prints its help
/// (exit 0); an option it does not list, or one missing its value, is a
/// usage error (exit 2). nullopt: the command should run.
std::optional<int> answer_help_or_refuse(const Command& command, const Args& args);

}  // namespace dtb::cli
