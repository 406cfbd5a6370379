// The one-line text files the generator records beside its tables (`.stats`,
// `.mtc-stats`): "<fields> <XXH3 of the fields>", written atomically. The
// last field lets a reader tell a damaged line from an intact one; what the
// fields mean, and whether they still match the tables, is the caller's.
#pragma once

#include <optional>
#include <string>

namespace dtb::gen {

/// Write "<text> <XXH3 of text>\n" to `path` atomically. False with a message.
bool write_checked_line(const std::string& path, const std::string& text, std::string& error);

/// The text of such a file, if it is there and its checksum matches.
std::optional<std::string> read_checked_line(const std::string& path);

}  // namespace dtb::gen
