// A strict little XML parser for checking junit.xml in tests: enough XML 1.0 for what drainsim
// writes (a declaration, elements, attributes in double or single quotes, character data,
// CDATA sections and the five predefined entities plus numeric references), and a refusal of
// anything else.
// Malformed input (unbalanced tags, a bare '&' or '<', a duplicate attribute, text outside the
// root) is reported as an error with its byte offset, never accepted.
#pragma once

#include <cstddef>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace drainsim::testing::xml {

struct Element {
  std::string name;
  std::map<std::string, std::string> attributes;  // unescaped values
  std::vector<std::unique_ptr<Element>> children;
  std::string text;  // unescaped character data directly inside, concatenated

  // The children named `child_name`, in document order.
  std::vector<const Element*> Children(const std::string& child_name) const {
    std::vector<const Element*> out;
    for (const auto& c : children) {
      if (c->name == child_name) out.push_back(c.get());
    }
    return out;
  }
  bool Has(const std::string& attribute) const { return attributes.count(attribute) > 0; }
  std::string Attr(const std::string& attribute) const {
    const auto it = attributes.find(attribute);
    return it == attributes.end() ? std::string() : it->second;
  }
};

struct Document {
  std::unique_ptr<Element> root;  // null iff !error.empty()
  std::string error;              // "" iff well-formed
};

namespace internal {

class Parser {
 public:
  explicit Parser(const std::string& text) : s_(text) {}

  Document Parse() {
    Document doc;
    if (s_.compare(0, 5, "<?xml") == 0) {
      const size_t end = s_.find("?>");
      if (end == std::string::npos) return Fail("unterminated XML declaration");
      pos_ = end + 2;
    }
    SkipSpace();
    doc.root = ParseElement();
    if (!error_.empty()) return Fail(error_);
    SkipSpace();
    if (pos_ != s_.size()) return Fail("content after the root element");
    return doc;
  }

 private:
  Document Fail(const std::string& message) {
    Document doc;
    doc.error = "offset " + std::to_string(pos_) + ": " + message;
    return doc;
  }
  std::unique_ptr<Element> Error(const std::string& message) {
    if (error_.empty()) error_ = message;
    return nullptr;
  }
  bool AtEnd() const { return pos_ >= s_.size(); }
  void SkipSpace() {
    while (!AtEnd() &&
           (s_[pos_] == ' ' || s_[pos_] == '\n' || s_[pos_] == '\t' || s_[pos_] == '\r')) {
      ++pos_;
    }
  }
  static bool NameChar(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-' || c == '.' || c == ':';
  }
  std::string Name() {
    const size_t start = pos_;
    while (!AtEnd() && NameChar(s_[pos_])) ++pos_;
    return s_.substr(start, pos_ - start);
  }
  // Character data or an attribute value up to `stop`, entities resolved. False on error.
  bool Chars(char stop, std::string* out) {
    while (!AtEnd() && s_[pos_] != stop) {
      const char c = s_[pos_];
      if (c == '<') return false;
      if (c != '&') {
        const auto byte = static_cast<unsigned char>(c);
        if (byte < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
        *out += c;
        ++pos_;
        continue;
      }
      const size_t semi = s_.find(';', pos_);
      if (semi == std::string::npos || semi - pos_ > 10) return false;
      const std::string entity = s_.substr(pos_ + 1, semi - pos_ - 1);
      static const std::map<std::string, char> kNamed = {
          {"amp", '&'}, {"lt", '<'}, {"gt", '>'}, {"quot", '"'}, {"apos", '\''}};
      if (const auto it = kNamed.find(entity); it != kNamed.end()) {
        *out += it->second;
      } else if (entity.size() > 1 && entity[0] == '#') {
        *out += '?';  // numeric reference: its presence is enough for these tests
      } else {
        return false;
      }
      pos_ = semi + 1;
    }
    return true;
  }

  std::unique_ptr<Element> ParseElement() {
    if (AtEnd() || s_[pos_] != '<') return Error("expected '<'");
    ++pos_;
    auto element = std::make_unique<Element>();
    element->name = Name();
    if (element->name.empty()) return Error("expected an element name");
    while (true) {
      const size_t before = pos_;
      SkipSpace();
      if (AtEnd()) return Error("unterminated start tag");
      if (s_.compare(pos_, 2, "/>") == 0) {
        pos_ += 2;
        return element;
      }
      if (s_[pos_] == '>') {
        ++pos_;
        break;
      }
      if (pos_ == before) return Error("expected space before an attribute");
      const std::string attribute = Name();
      if (attribute.empty()) return Error("expected an attribute name");
      if (AtEnd() || s_[pos_] != '=') return Error("expected '=' after " + attribute);
      ++pos_;
      if (AtEnd() || (s_[pos_] != '"' && s_[pos_] != '\'')) return Error("unquoted value");
      const char quote = s_[pos_++];
      std::string value;
      if (!Chars(quote, &value) || AtEnd()) return Error("bad attribute value of " + attribute);
      ++pos_;
      if (!element->attributes.emplace(attribute, value).second) {
        return Error("duplicate attribute " + attribute);
      }
    }
    while (true) {
      if (!Chars('<', &element->text)) return Error("bad character data in " + element->name);
      if (AtEnd()) return Error("unclosed element " + element->name);
      if (s_.compare(pos_, 9, "<![CDATA[") == 0) {
        const size_t end = s_.find("]]>", pos_ + 9);
        if (end == std::string::npos) return Error("unterminated CDATA section");
        element->text += s_.substr(pos_ + 9, end - pos_ - 9);
        pos_ = end + 3;
        continue;
      }
      if (s_.compare(pos_, 2, "</") == 0) {
        pos_ += 2;
        const std::string closing = Name();
        if (closing != element->name) {
          return Error("</" + closing + "> closes <" + element->name + ">");
        }
        SkipSpace();
        if (AtEnd() || s_[pos_] != '>') return Error("unterminated end tag");
        ++pos_;
        return element;
      }
      auto child = ParseElement();
      if (!child) return nullptr;
      element->children.push_back(std::move(child));
    }
  }

  const std::string& s_;
  size_t pos_ = 0;
  std::string error_;
};

}  // namespace internal

inline Document Parse(const std::string& text) { return internal::Parser(text).Parse(); }

}  // namespace drainsim::testing::xml
