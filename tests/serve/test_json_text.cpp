// json_string: every output is a JSON string of valid UTF-8, whatever bytes
// come in (FENs and messages echo what a client sent).
#include <catch2/catch.hpp>

#include <random>

#include "serve/json_text.h"

namespace dtb {
namespace {

// A strict UTF-8 check written independently of json_text.cpp: decode each
// sequence to its code point and reject what RFC 3629 forbids.
bool valid_utf8(const std::string& s) {
  for (std::size_t i = 0; i < s.size();) {
    const auto b = static_cast<unsigned char>(s[i]);
    const int n = b < 0x80 ? 1 : (b >> 5) == 6 ? 2 : (b >> 4) == 14 ? 3 : (b >> 3) == 30 ? 4 : 0;
    if (n == 0 || i + n > s.size()) return false;
    unsigned cp = n == 1 ? b : b & (0x7F >> n);
    for (int k = 1; k < n; ++k) {
      const auto c = static_cast<unsigned char>(s[i + k]);
      if ((c & 0xC0) != 0x80) return false;
      cp = (cp << 6) | (c & 0x3F);
    }
    const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < least[n] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += static_cast<std::size_t>(n);
  }
  return true;
}

}  // namespace

TEST_CASE("json_string escapes quotes, backslashes and control characters") {
  CHECK(json_string("W:WK46:BK5") == "\"W:WK46:BK5\"");
  CHECK(json_string("a\"b\\c") == "\"a\\\"b\\\\c\"");
  CHECK(json_string(std::string("\n\t\x01\x7f", 4)) == "\"\\u000a\\u0009\\u0001\\u007f\"");
  CHECK(json_string(std::string("a\0b", 3)) == "\"a\\u0000b\"");
}

TEST_CASE("json_string keeps well-formed UTF-8 and replaces every other byte") {
  CHECK(json_string("\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80") == "\"\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80\"");
  CHECK(json_string("\xff") == "\"\\ufffd\"");
  CHECK(json_string("\xc0\xaf") == "\"\\ufffd\\ufffd\"");           // overlong '/'
  CHECK(json_string("\xed\xa0\x80") == "\"\\ufffd\\ufffd\\ufffd\"");  // a surrogate
  CHECK(json_string("\xf4\x90\x80\x80") == "\"\\ufffd\\ufffd\\ufffd\\ufffd\"");  // above U+10FFFF
  CHECK(json_string("\xe2\x82") == "\"\\ufffd\\ufffd\"");             // cut short
  CHECK(json_string("a\xe2\x82z") == "\"a\\ufffd\\ufffdz\"");
}

TEST_CASE("json_string gives valid UTF-8 for random bytes") {
  std::mt19937 rng(16);
  for (int round = 0; round < 20000; ++round) {
    std::string s(rng() % 12, '\0');
    for (char& c : s) c = static_cast<char>(rng() % 4 == 0 ? 0x80 + rng() % 0x80 : rng() % 256);
    const std::string out = json_string(s);
    REQUIRE(valid_utf8(out));
    REQUIRE(out.front() == '"');
    REQUIRE(out.back() == '"');
  }
}

}  // namespace dtb
