// Internals shared by the file-format readers (core/io_*.cpp); not part of the public API.
#pragma once

#include <charconv>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>

namespace pl::detail {

// Untrusted text made safe for a one-line message: control and non-ASCII bytes as \xNN,
// cut after `max_len` characters.
std::string printable(std::string_view s, size_t max_len = 40);
// "'x'" for a visible character, "byte 0x0d" otherwise.
std::string quote_char(char c);
// ".map", ".png", ... in lower case.
std::string lower_extension(const std::string& path);
std::string parent_dir(const std::string& path);

// Splits text into lines on '\n', dropping one '\r' before it (CRLF files). Counts lines
// from 1.
class LineReader {
 public:
  explicit LineReader(std::string_view text) : text_(text) {
    // A UTF-8 byte order mark is invisible in editors; accept it.
    if (text_.substr(0, 3) == "\xEF\xBB\xBF") text_.remove_prefix(3);
  }
  bool next(std::string_view& line) {
    if (pos_ >= text_.size()) return false;
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    line = text_.substr(pos_, end - pos_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    pos_ = end + 1;
    ++line_no_;
    return true;
  }
  long line_no() const { return line_no_; }
  size_t remaining() const { return pos_ < text_.size() ? text_.size() - pos_ : 0; }

 private:
  std::string_view text_;
  size_t pos_ = 0;
  long line_no_ = 0;
};

inline bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

inline std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

inline bool all_blank(std::string_view s) { return trim(s).empty(); }

// Whole-token integer in [lo, hi]; nullopt on anything else (sign, garbage, overflow).
inline std::optional<long long> parse_int(std::string_view s, long long lo, long long hi) {
  long long v = 0;
  if (s.empty()) return std::nullopt;
  const char* b = s.data();
  if (*b == '+') ++b;  // from_chars rejects a leading '+', people write one
  if (b == s.data() + s.size() || (b != s.data() && *b == '-')) return std::nullopt;
  auto [p, ec] = std::from_chars(b, s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || v < lo || v > hi) return std::nullopt;
  return v;
}

// Whole-token finite decimal number; nullopt on anything else (inf, nan, hex, garbage).
inline std::optional<double> parse_double(std::string_view s) {
  double v = 0;
  if (s.empty()) return std::nullopt;
  const char* b = s.data();
  if (*b == '+') ++b;
  if (b == s.data() + s.size() || (b != s.data() && *b == '-')) return std::nullopt;
  auto [p, ec] = std::from_chars(b, s.data() + s.size(), v, std::chars_format::general);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// Shortest text that reads back as exactly `v` ("3.41421" stays "3.41421").
inline std::string format_double(double v) {
  char buf[64];
  auto [p, ec] = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, ec == std::errc() ? p : buf);
}

}  // namespace pl::detail
