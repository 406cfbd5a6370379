// A strict JSON (RFC 8259) checker for the harnesses whose output is JSON:
// a client's parser must accept every answer, whatever bytes came in.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace dtb::fuzz {

class JsonChecker {
 public:
  explicit JsonChecker(std::string_view s) : s_(s) {}

  /// Whether the text is exactly one JSON value (blanks around it allowed).
  bool valid() {
    blanks();
    if (!value(0)) return false;
    blanks();
    return i_ == s_.size();
  }

 private:
  std::string_view s_;
  std::size_t i_ = 0;

  bool at(char c) const { return i_ < s_.size() && s_[i_] == c; }
  void blanks() {
    while (i_ < s_.size() && (s_[i_] == ' ' || s_[i_] == '\t' || s_[i_] == '\n' || s_[i_] == '\r')) ++i_;
  }
  bool literal(std::string_view word) {
    if (s_.substr(i_, word.size()) != word) return false;
    i_ += word.size();
    return true;
  }
  bool digits() {
    const std::size_t start = i_;
    while (i_ < s_.size() && s_[i_] >= '0' && s_[i_] <= '9') ++i_;
    return i_ > start;
  }
  bool number() {
    if (at('-')) ++i_;
    if (at('0')) {
      ++i_;
    } else if (!digits()) {
      return false;
    }
    if (at('.')) {
      ++i_;
      if (!digits()) return false;
    }
    if (at('e') || at('E')) {
      ++i_;
      if (at('+') || at('-')) ++i_;
      if (!digits()) return false;
    }
    return true;
  }
  bool string() {
    if (!at('"')) return false;
    ++i_;
    while (i_ < s_.size()) {
      const auto c = static_cast<unsigned char>(s_[i_]);
      if (c == '"') {
        ++i_;
        return true;
      }
      if (c < 0x20) return false;
      if (c == '\\') {
        ++i_;
        if (i_ >= s_.size()) return false;
        const char e = s_[i_++];
        if (e == 'u') {
          for (int k = 0; k < 4; ++k, ++i_) {
            if (i_ >= s_.size()) return false;
            const char h = s_[i_];
            if (!((h >= '0' && h <= '9') || (h >= 'a' && h <= 'f') || (h >= 'A' && h <= 'F'))) return false;
          }
        } else if (std::string_view("\"\\/bfnrt").find(e) == std::string_view::npos) {
          return false;
        }
        continue;
      }
      if (!utf8(c)) return false;
    }
    return false;
  }
  // One well-formed UTF-8 sequence starting with c at i_ (RFC 3629).
  bool utf8(unsigned char c) {
    std::size_t n;
    unsigned char lo = 0x80, hi = 0xBF;
    if (c < 0x80) n = 1;
    else if (c >= 0xC2 && c <= 0xDF) n = 2;
    else if (c >= 0xE0 && c <= 0xEF) n = 3, lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;
    else if (c >= 0xF0 && c <= 0xF4) n = 4, lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;
    else return false;
    if (i_ + n > s_.size()) return false;
    for (std::size_t k = 1; k < n; ++k) {
      const auto b = static_cast<unsigned char>(s_[i_ + k]);
      if (k == 1 ? (b < lo || b > hi) : (b & 0xC0) != 0x80) return false;
    }
    i_ += n;
    return true;
  }
  bool value(int depth) {
    if (depth > 64) return false;
    blanks();
    if (at('{')) {
      ++i_;
      blanks();
      if (at('}')) return ++i_, true;
      for (;;) {
        blanks();
        if (!string()) return false;
        blanks();
        if (!at(':')) return false;
        ++i_;
        if (!value(depth + 1)) return false;
        blanks();
        if (at('}')) return ++i_, true;
        if (!at(',')) return false;
        ++i_;
      }
    }
    if (at('[')) {
      ++i_;
      blanks();
      if (at(']')) return ++i_, true;
      for (;;) {
        if (!value(depth + 1)) return false;
        blanks();
        if (at(']')) return ++i_, true;
        if (!at(',')) return false;
        ++i_;
      }
    }
    if (at('"')) return string();
    if (at('t')) return literal("true");
    if (at('f')) return literal("false");
    if (at('n')) return literal("null");
    return number();
  }
};

inline bool valid_json(std::string_view text) { return JsonChecker(text).valid(); }

}  // namespace dtb::fuzz
