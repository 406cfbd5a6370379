#include "serve/client_message.h"

namespace dtb {

std::string without_dir(std::string message, std::string dir) {
  static const std::string kName = "the table directory";
  while (dir.size() > 1 && dir.back() == '/') dir.pop_back();
  if (dir.empty()) return message;
  const auto separates = [](char c) { return c == ' ' || c == '\'' || c == ',' || c == ':' || c == ')'; };
  for (std::size_t at = 0; (at = message.find(dir, at)) != std::string::npos;) {
    std::size_t end = at + dir.size();
    const bool starts = at == 0 || separates(message[at - 1]) || message[at - 1] == '(';
    if (starts && end < message.size() && message[end] == '/') {
      while (end < message.size() && message[end] == '/') ++end;
      message.erase(at, end - at);
    } else if (starts && (end == message.size() || separates(message[end]))) {
      message.replace(at, end - at, kName);
      at += kName.size();
    } else {
      at = end;
    }
  }
  return message;
}

}  // namespace dtb
