#include "tests/scenario/mini_schema.h"

#include <cmath>
#include <set>

// GCC 12 with -O2 and sanitizers warns falsely (-Wmaybe-uninitialized) inside <regex>'s
// automaton; the warning is about the standard library, not this file. Clang has no such
// warning (and would reject the unknown name under -Werror).
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif
#include <regex>
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

namespace drainsim::scenario::testing {

namespace {

using Json = nlohmann::json;

bool IsType(const Json& value, const std::string& type) {
  if (type == "object") return value.is_object();
  if (type == "array") return value.is_array();
  if (type == "string") return value.is_string();
  if (type == "boolean") return value.is_boolean();
  if (type == "null") return value.is_null();
  if (type == "number") return value.is_number();
  if (type == "integer") {
    if (value.is_number_integer()) return true;
    return value.is_number_float() && value.get<double>() == std::floor(value.get<double>());
  }
  return false;
}

size_t CodePoints(const std::string& text) {
  size_t count = 0;
  for (unsigned char c : text) count += (c & 0xC0) != 0x80 ? 1 : 0;
  return count;
}

const std::set<std::string>& KnownKeywords() {
  static const std::set<std::string> known = {"$ref",
                                              "type",
                                              "enum",
                                              "const",
                                              "properties",
                                              "required",
                                              "additionalProperties",
                                              "propertyNames",
                                              "minProperties",
                                              "maxProperties",
                                              "items",
                                              "minItems",
                                              "maxItems",
                                              "uniqueItems",
                                              "minimum",
                                              "maximum",
                                              "exclusiveMinimum",
                                              "exclusiveMaximum",
                                              "minLength",
                                              "maxLength",
                                              "pattern",
                                              "oneOf",
                                              "anyOf",
                                              "allOf",
                                              "description",
                                              "title",
                                              "$schema",
                                              "$id",
                                              "$defs",
                                              "default"};
  return known;
}

}  // namespace

const Json& MiniSchema::Resolve(const std::string& ref) const {
  const std::string prefix = "#/$defs/";
  return root_.at("$defs").at(ref.substr(prefix.size()));
}

const Json& MiniSchema::Deref(const Json& schema) const {
  const Json* s = &schema;
  while (s->is_object() && s->contains("$ref") && s->size() <= 2) {
    s = &Resolve(s->at("$ref").get<std::string>());
  }
  return *s;
}

bool MiniSchema::Matches(const Json& schema, const Json& instance) const {
  std::vector<std::string> errors;
  Check(schema, instance, "", errors);
  return errors.empty();
}

std::vector<std::string> MiniSchema::Validate(const Json& instance) const {
  std::vector<std::string> errors;
  Check(root_, instance, "", errors);
  return errors;
}

void MiniSchema::Check(const Json& schema, const Json& instance, const std::string& path,
                       std::vector<std::string>& errors) const {
  auto fail = [&](const std::string& what) {
    errors.push_back((path.empty() ? "/" : path) + ": " + what);
  };
  if (schema.is_boolean()) {
    if (!schema.get<bool>()) fail("no value is allowed here");
    return;
  }
  for (const auto& [keyword, value] : schema.items()) {
    if (!KnownKeywords().count(keyword)) fail("schema uses unsupported keyword " + keyword);
  }
  if (schema.contains("$ref")) Check(Resolve(schema.at("$ref")), instance, path, errors);
  if (schema.contains("type")) {
    const Json& type = schema.at("type");
    bool ok = false;
    if (type.is_string()) {
      ok = IsType(instance, type.get<std::string>());
    } else {
      for (const Json& t : type) ok = ok || IsType(instance, t.get<std::string>());
    }
    if (!ok) {
      fail("type " + type.dump() + " expected, got " + instance.dump().substr(0, 60));
      return;
    }
  }
  if (schema.contains("enum")) {
    bool found = false;
    for (const Json& v : schema.at("enum")) found = found || v == instance;
    if (!found) fail("not one of " + schema.at("enum").dump());
  }
  if (schema.contains("const") && schema.at("const") != instance) {
    fail("must be " + schema.at("const").dump());
  }
  if (instance.is_number()) {
    const double v = instance.get<double>();
    if (schema.contains("minimum") && v < schema.at("minimum").get<double>()) fail("below minimum");
    if (schema.contains("maximum") && v > schema.at("maximum").get<double>()) fail("above maximum");
    if (schema.contains("exclusiveMinimum") && v <= schema.at("exclusiveMinimum").get<double>()) {
      fail("not above exclusiveMinimum");
    }
    if (schema.contains("exclusiveMaximum") && v >= schema.at("exclusiveMaximum").get<double>()) {
      fail("not below exclusiveMaximum");
    }
  }
  if (instance.is_string()) {
    const std::string& text = instance.get_ref<const std::string&>();
    if (schema.contains("minLength") && CodePoints(text) < schema.at("minLength").get<size_t>()) {
      fail("too short");
    }
    if (schema.contains("maxLength") && CodePoints(text) > schema.at("maxLength").get<size_t>()) {
      fail("too long");
    }
    if (schema.contains("pattern") &&
        !std::regex_search(text, std::regex(schema.at("pattern").get<std::string>()))) {
      fail("does not match " + schema.at("pattern").get<std::string>());
    }
  }
  if (instance.is_object()) {
    if (schema.contains("minProperties") &&
        instance.size() < schema.at("minProperties").get<size_t>()) {
      fail("too few properties");
    }
    if (schema.contains("maxProperties") &&
        instance.size() > schema.at("maxProperties").get<size_t>()) {
      fail("too many properties");
    }
    if (schema.contains("required")) {
      for (const Json& key : schema.at("required")) {
        if (!instance.contains(key.get<std::string>())) fail("missing required " + key.dump());
      }
    }
    const Json empty = Json::object();
    const Json& properties = schema.contains("properties") ? schema.at("properties") : empty;
    for (const auto& [key, value] : instance.items()) {
      const std::string child = path + "/" + key;
      if (schema.contains("propertyNames")) Check(schema.at("propertyNames"), key, child, errors);
      if (properties.contains(key)) {
        Check(properties.at(key), value, child, errors);
      } else if (schema.contains("additionalProperties")) {
        Check(schema.at("additionalProperties"), value, child, errors);
      }
    }
  }
  if (instance.is_array()) {
    if (schema.contains("minItems") && instance.size() < schema.at("minItems").get<size_t>()) {
      fail("too few items");
    }
    if (schema.contains("maxItems") && instance.size() > schema.at("maxItems").get<size_t>()) {
      fail("too many items");
    }
    if (schema.value("uniqueItems", false)) {
      for (size_t i = 0; i < instance.size(); ++i) {
        for (size_t j = i + 1; j < instance.size(); ++j) {
          if (instance[i] == instance[j]) fail("items are not unique");
        }
      }
    }
    if (schema.contains("items")) {
      for (size_t i = 0; i < instance.size(); ++i) {
        Check(schema.at("items"), instance[i], path + "/" + std::to_string(i), errors);
      }
    }
  }
  if (schema.contains("allOf")) {
    for (const Json& branch : schema.at("allOf")) Check(branch, instance, path, errors);
  }
  if (schema.contains("anyOf")) {
    bool any = false;
    for (const Json& branch : schema.at("anyOf")) any = any || Matches(branch, instance);
    if (!any) fail("matches no branch of anyOf");
  }
  if (schema.contains("oneOf")) {
    int matching = 0;
    for (const Json& branch : schema.at("oneOf")) matching += Matches(branch, instance) ? 1 : 0;
    if (matching != 1) fail("matches " + std::to_string(matching) + " branches of oneOf, not 1");
  }
}

void MiniSchema::Applicable(const Json& schema, const Json& instance,
                            std::vector<const Json*>& out) const {
  const Json& s = Deref(schema);
  if (!s.is_object()) return;
  out.push_back(&s);
  if (s.contains("$ref")) Applicable(Resolve(s.at("$ref")), instance, out);
  for (const char* combinator : {"oneOf", "anyOf", "allOf"}) {
    if (!s.contains(combinator)) continue;
    for (const Json& branch : s.at(combinator)) {
      if (Matches(branch, instance)) Applicable(branch, instance, out);
    }
  }
}

std::vector<std::string> MiniSchema::UndescribedKeys(const Json& instance) const {
  std::vector<std::string> missing;
  Described(root_, instance, "", missing);
  return missing;
}

void MiniSchema::Described(const Json& schema, const Json& instance, const std::string& path,
                           std::vector<std::string>& missing) const {
  std::vector<const Json*> applicable;
  Applicable(schema, instance, applicable);
  if (instance.is_object()) {
    for (const auto& [key, value] : instance.items()) {
      const std::string child = path + "/" + key;
      const Json* described = nullptr;
      const Json* additional = nullptr;
      for (const Json* s : applicable) {
        if (s->contains("properties") && s->at("properties").contains(key)) {
          const Json& property = s->at("properties").at(key);
          if (!property.value("description", std::string()).empty() && described == nullptr) {
            described = &property;
          }
        }
        if (s->contains("additionalProperties") && s->at("additionalProperties").is_object() &&
            additional == nullptr) {
          additional = &s->at("additionalProperties");
        }
      }
      if (described != nullptr) {
        Described(*described, value, child, missing);
      } else if (additional != nullptr) {
        Described(*additional, value, child, missing);
      } else {
        missing.push_back(child);
      }
    }
  } else if (instance.is_array()) {
    for (const Json* s : applicable) {
      if (!s->contains("items")) continue;
      for (size_t i = 0; i < instance.size(); ++i) {
        Described(s->at("items"), instance[i], path + "/" + std::to_string(i), missing);
      }
      break;
    }
  }
}

}  // namespace drainsim::scenario::testing
