#include "cli/help.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <iostream>
#include <sstream>

namespace dtb::cli {
namespace {

constexpr std::size_t kWidth = 80;
constexpr std::size_t kMaxOptionColumn = 28;  // a longer option name puts its help on the next line

// Writes `text` word by word, the first word at `column` (what precedes it on
// the line is already written), continuing on lines indented by `indent`.
void wrap(std::ostream& out, const std::string& text, std::size_t column, std::size_t indent) {
  std::istringstream words(text);
  std::string word;
  bool line_empty = true;
  while (words >> word) {
    if (!line_empty && column + 1 + word.size() > kWidth) {
      out << '\n' << std::string(indent, ' ');
      column = indent, line_empty = true;
    }
    if (!line_empty) out << ' ', ++column;
    out << word;
    column += word.size(), line_empty = false;
  }
  out << '\n';
}

// Writes `left`, then `text` wrapped from `column` (on the next line if
// `left` reaches it).
void two_columns(std::ostream& out, const std::string& left, const std::string& text, std::size_t column) {
  out << left;
  if (left.size() + 2 > column)
    out << '\n' << std::string(column, ' ');
  else
    out << std::string(column - left.size(), ' ');
  wrap(out, text, column, column);
}

std::string option_left(const Option& o) {
  return std::string("  ") + o.name + (*o.value ? std::string(" ") + o.value : std::string());
}

constexpr Option kHelpOption{"-h, --help", "", "print this help and exit"};

std::size_t option_column(const Command& c) {
  std::size_t column = option_left(kHelpOption).size() + 2;
  for (const Option& o : c.options) {
    const std::size_t wanted = option_left(o).size() + 2;
    if (wanted <= kMaxOptionColumn) column = std::max(column, wanted);
  }
  return column;
}

const Option* find_option(const Command& c, const std::string& name) {
  for (const Option& o : c.options)
    if (name == o.name) return &o;
  return nullptr;
}

bool takes_value(const Option& o) { return *o.value != '\0' && *o.value != '['; }

// The summary as a sentence, then the details.
std::string description(const Command& c) {
  std::string text = c.summary;
  if (!text.empty()) text[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(text[0])));
  if (*c.details) text += std::string(". ") + c.details;
  return text + ".";
}

}  // namespace

void print_command_list(std::ostream& out) {
  auto commands = registry();
  std::sort(commands.begin(), commands.end(),
            [](const Command& a, const Command& b) { return std::strcmp(a.name, b.name) < 0; });
  std::size_t column = 0;
  for (const Command& c : commands) column = std::max(column, std::strlen(c.name) + 4);
  out << "usage: dtb COMMAND [arguments]\n\ncommands:\n";
  for (const Command& c : commands) two_columns(out, std::string("  ") + c.name, c.summary, column);
  out << "\ndtb help COMMAND (or dtb COMMAND --help): its usage and options\n"
      << "dtb --version: the version of dtb\n";
}

void print_command_help(const Command& c, std::ostream& out) {
  const std::string head = std::string("usage: dtb ") + c.name + " ";
  out << head;
  wrap(out, c.usage, head.size(), head.size());
  out << '\n';
  wrap(out, description(c), 0, 0);
  out << "\noptions:\n";
  const std::size_t column = option_column(c);
  for (const Option& o : c.options) two_columns(out, option_left(o), o.help, column);
  two_columns(out, option_left(kHelpOption), kHelpOption.help, column);
}

std::optional<int> answer_help_or_refuse(const Command& c, const Args& args) {
  for (const std::string& a : args) {
    if (a != "--help" && a != "-h") continue;
    print_command_help(c, std::cout);
    return 0;
  }
  for (std::size_t i = 0; i < args.size(); ++i) {
    if (!args[i].starts_with("--")) continue;
    const Option* o = find_option(c, args[i]);
    if (!o) return unknown_option(c.name, args[i]);
    if (takes_value(*o) && ++i == args.size()) return usage_error(c.name, args[i - 1] + " needs a value");
  }
  return std::nullopt;
}

}  // namespace dtb::cli
