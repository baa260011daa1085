// The bytes of a JSON text for nlohmann's SAX parser, from memory or read from a file in chunks,
// so that a telemetry file is never held whole (sim/telemetry/otlp_read.h). As the parser takes
// each byte the source also scans it for nesting deeper than kDepthMax, on the raw bytes and
// outside strings, exactly as a scan of the whole text before parsing would; Drain() scans what
// the parser left unread, so the first too-deep offset is the text's whatever the parser did.
//
// Contract:
//  (1) Bytes come out in order, each once; Offset() is the count handed out.
//  (2) Memory is one chunk (kChunkBytes) whatever the text's size.
//  (3) TooDeepAt() is the offset of the first '[' or '{' (outside strings) that opens a level
//      deeper than the bound among the bytes handed out or drained; npos if none.
//
// Thread-safety: one source per parse.
#pragma once

#include <cstddef>
#include <cstdio>
#include <iterator>
#include <string>
#include <string_view>
#include <vector>

namespace drainsim::telemetry {

class JsonSource {
 public:
  static constexpr size_t kChunkBytes = size_t{1} << 20;

  // The text, not copied. REQUIRES: it outlives the source.
  JsonSource(std::string_view text, int depth_max);
  // Reads `file` (opened for reading; not closed here) from its current position.
  JsonSource(std::FILE* file, int depth_max);

  // True iff every byte has been handed out (or a read failed: read_failed()).
  bool AtEnd() {
    if (at_ < chunk_.size()) return false;
    return !Refill();
  }
  char Peek() const { return chunk_[at_]; }
  void Advance() {
    Scan(chunk_[at_]);
    ++at_;
    ++offset_;
  }
  // Scans the rest of the bytes without handing them out.
  void Drain();

  size_t Offset() const { return offset_; }
  size_t TooDeepAt() const { return too_deep_at_; }
  bool read_failed() const { return read_failed_; }

  // An input iterator over the source, for nlohmann::json::sax_parse(first, last, ...). The
  // default-constructed one is the end.
  class Iterator {
   public:
    using iterator_category = std::input_iterator_tag;
    using value_type = char;
    using difference_type = std::ptrdiff_t;
    using pointer = const char*;
    using reference = char;

    Iterator() = default;
    explicit Iterator(JsonSource* source) : source_(source) {}
    char operator*() const { return source_->Peek(); }
    Iterator& operator++() {
      source_->Advance();
      return *this;
    }
    // Only comparisons with the end are meaningful (all nlohmann makes).
    bool operator==(const Iterator& other) const { return AtEnd() == other.AtEnd(); }
    bool operator!=(const Iterator& other) const { return !(*this == other); }

   private:
    bool AtEnd() const { return source_ == nullptr || source_->AtEnd(); }
    JsonSource* source_ = nullptr;
  };
  Iterator begin() { return Iterator(this); }
  static Iterator end() { return Iterator(); }

 private:
  bool Refill();  // false at the end of the bytes
  void Scan(char c) {
    if (in_string_) {
      if (escaped_) {
        escaped_ = false;
      } else if (c == '\\') {
        escaped_ = true;
      } else if (c == '"') {
        in_string_ = false;
      }
    } else if (c == '"') {
      in_string_ = true;
    } else if (c == '[' || c == '{') {
      if (++depth_ > depth_max_ && too_deep_at_ == std::string_view::npos) too_deep_at_ = offset_;
    } else if ((c == ']' || c == '}') && depth_ > 0) {
      --depth_;
    }
  }

  std::FILE* file_ = nullptr;
  std::string_view chunk_;
  std::vector<char> buffer_;  // the file's current chunk
  size_t at_ = 0;             // in chunk_
  size_t offset_ = 0;         // in the whole text
  int depth_max_;
  int depth_ = 0;
  bool in_string_ = false;
  bool escaped_ = false;
  size_t too_deep_at_ = std::string_view::npos;
  bool read_failed_ = false;
};

}  // namespace drainsim::telemetry
