#include "experiments/scenario_edit.h"

#include "reports/metrics.h"
#include "reports/table.h"

namespace drainsim::experiments {

namespace {

using nlohmann::json;

// Applies one edit in place, or says why not.
base::Status ApplyOne(json& document, const Edit& edit) {
  json::json_pointer pointer;
  try {
    pointer = json::json_pointer(edit.pointer);
  } catch (const json::exception& e) {
    return base::Failure{edit.pointer + ": not a JSON pointer (" + e.what() + ")"};
  }
  if (pointer.empty())
    return base::Failure{"\"\" names the whole scenario; give the pointer of one field"};
  const json::json_pointer parent = pointer.parent_pointer();
  const std::string key = pointer.back();
  if (!document.contains(parent)) {
    // Name the deepest place that exists, and what it lacks.
    json::json_pointer existing = parent;
    std::string missing;
    while (!existing.empty() && !document.contains(existing)) {
      missing = existing.back();
      existing.pop_back();
    }
    const json& at = document[existing];
    const std::string where = existing.empty() ? "the scenario" : existing.to_string();
    if (at.is_array()) {
      return base::Failure{edit.pointer + ": no such place in the scenario (" + where + " has " +
                           std::to_string(at.size()) +
                           (at.size() == 1 ? " element)" : " elements)")};
    }
    return base::Failure{edit.pointer + ": no such place in the scenario (" + where + " has no '" +
                         missing + "')"};
  }
  json& container = document[parent];
  if (container.is_object()) {
    container[key] = edit.value;
    return {};
  }
  if (container.is_array()) {
    const std::string where = parent.to_string();
    size_t index = 0;
    bool numeric = !key.empty() && key.size() < 10 && (key == "0" || key[0] != '0');
    for (char c : key) numeric = numeric && c >= '0' && c <= '9';
    if (numeric) index = std::stoul(key);
    if (!numeric || index >= container.size()) {
      return base::Failure{edit.pointer + ": no such place in the scenario (" + where + " has " +
                           std::to_string(container.size()) +
                           (container.size() == 1 ? " element)" : " elements)")};
    }
    container[index] = edit.value;
    return {};
  }
  return base::Failure{edit.pointer + ": no such place in the scenario (" + parent.to_string() +
                       " is a " + container.type_name() + ", not an object or array)"};
}

}  // namespace

base::Expected<json> ApplyEdits(const json& document, const std::vector<Edit>& edits) {
  json edited = document;
  for (const Edit& edit : edits) {
    if (const base::Status applied = ApplyOne(edited, edit); !applied) {
      return base::Failure{applied.error()};
    }
  }
  return edited;
}

base::Expected<json> ParseDocument(const std::string& text) {
  try {
    return json::parse(text);
  } catch (const json::exception& e) {
    return base::Failure{e.what()};
  }
}

std::string EditText(const Edit& edit) {
  return edit.pointer + "=" + reports::ValueText(edit.value);
}

}  // namespace drainsim::experiments
