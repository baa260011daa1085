// A validator for the subset of JSON Schema (draft 2020-12) that scenarios/schema.json uses,
// so that the tests can hold the schema and the loader to the same vocabulary without a
// third-party validator.
//
// Contract:
//  (1) Supported keywords: $ref (to "#/$defs/NAME" only), type, enum, const, properties,
//      required, additionalProperties, propertyNames, minProperties, maxProperties, items,
//      minItems, maxItems, uniqueItems, minimum, maximum, exclusiveMinimum, exclusiveMaximum,
//      minLength, maxLength, pattern, oneOf, anyOf, allOf. Annotations (description, title,
//      $schema, $id, $defs, default) are ignored.
//  (2) Any other keyword is reported as an error, so that the schema cannot grow a keyword
//      this validator would silently skip.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace drainsim::scenario::testing {

class MiniSchema {
 public:
  using Json = nlohmann::json;
  explicit MiniSchema(Json root) : root_(std::move(root)) {}

  // Every way `instance` breaks the root schema; empty iff it is valid.
  std::vector<std::string> Validate(const Json& instance) const;

  // Every key of `instance` (recursively) must be declared by a property with a non-empty
  // description in the schema that applies to it (maps such as /kinds recurse into their
  // additionalProperties schema). Returns the keys that are not.
  std::vector<std::string> UndescribedKeys(const Json& instance) const;

  const Json& root() const { return root_; }
  // The schema a "#/$defs/NAME" reference names. REQUIRES: it exists.
  const Json& Resolve(const std::string& ref) const;

 private:
  void Check(const Json& schema, const Json& instance, const std::string& path,
             std::vector<std::string>& errors) const;
  bool Matches(const Json& schema, const Json& instance) const;
  const Json& Deref(const Json& schema) const;
  void Applicable(const Json& schema, const Json& instance, std::vector<const Json*>& out) const;
  void Described(const Json& schema, const Json& instance, const std::string& path,
                 std::vector<std::string>& missing) const;

  Json root_;
};

}  // namespace drainsim::scenario::testing
