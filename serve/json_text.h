// Writing JSON strings that are valid UTF-8 whatever the input: a FEN, an
// error message or a URL parameter may hold any bytes (a browser, curl or a
// fuzzer sends them), and an answer that a strict JSON parser rejects would
// hide the error it reports.
#pragma once

#include <string>
#include <string_view>

namespace dtb {

/// `text` as a quoted JSON string: quotes, backslashes and control characters
/// escaped, each byte that is not part of a well-formed UTF-8 sequence
/// replaced by U+FFFD.
std::string json_string(std::string_view text);

}  // namespace dtb
