// The insertion of a preset's defaults into a parsed scenario (the tables: preset_tables.cc),
// and the reading of broker.version.
#include "sim/scenario/presets.h"

#include <string>
#include <vector>

#include "sim/config/enum_names.h"

namespace drainsim::scenario {

namespace {

// RFC 6901 reference tokens of `pointer` (the tables use no '~').
std::vector<std::string> Tokens(std::string_view pointer) {
  std::vector<std::string> out;
  size_t start = 1;
  while (start <= pointer.size()) {
    const size_t slash = pointer.find('/', start);
    const size_t end = slash == std::string_view::npos ? pointer.size() : slash;
    out.emplace_back(pointer.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Contract (2)'s exception: with preset sidekiq, a sidekiq backoff the scenario wrote without a
// random_term gets the version's, read from the table's own /retry/backoff (one source); any
// other backoff the scenario wrote without a jitter (a custom sidekiq_retry_in) gets Sidekiq's
// random term as its jitter: job_retry.rb's delay_for adds it to a custom delay too.
void FillSidekiqRandomTerm(internal::Json& document, std::span<const PresetDefault> defaults) {
  internal::Json term;
  for (const PresetDefault& entry : defaults) {
    if (entry.pointer == "/retry/backoff")
      term = internal::Json::parse(entry.value).at("random_term");
  }
  if (term.is_null()) return;
  auto fill = [&](internal::Json& parent) {
    const auto backoff = parent.find("backoff");
    if (backoff == parent.end() || !backoff->is_object()) return;
    const auto kind = backoff->find("kind");
    if (kind == backoff->end() || !kind->is_string()) return;
    if (*kind != "sidekiq") {
      if (!backoff->contains("jitter")) {
        (*backoff)["jitter"] = {{"kind", "sidekiq"}, {"random_term", term}};
      }
      return;
    }
    if (!backoff->contains("random_term")) (*backoff)["random_term"] = term;
  };
  const auto retry = document.find("retry");
  if (retry == document.end() || !retry->is_object()) return;
  fill(*retry);
  const auto classes = retry->find("classes");
  if (classes == retry->end() || !classes->is_object()) return;
  for (auto& item : classes->items()) {
    if (item.value().is_object()) fill(item.value());
  }
}

}  // namespace

bool ParseBrokerVersion(std::string_view text, int* major, int* minor) {
  const size_t dot = text.find('.');
  if (dot == std::string_view::npos) return false;
  auto number = [](std::string_view digits, int* out) {
    if (digits.empty() || digits.size() > 4) return false;
    int value = 0;
    for (char c : digits) {
      if (c < '0' || c > '9') return false;
      value = value * 10 + (c - '0');
    }
    *out = value;
    return true;
  };
  return number(text.substr(0, dot), major) && number(text.substr(dot + 1), minor);
}

namespace internal {

void ApplyPresetDefaults(Json& document) {
  if (!document.is_object()) return;
  const auto broker = document.find("broker");
  if (broker == document.end() || !broker->is_object()) return;
  const auto name = broker->find("preset");
  if (name == broker->end() || !name->is_string()) return;
  const auto preset = config::FromName<config::BrokerPreset>(name->get_ref<const std::string&>());
  if (!preset) return;
  std::string version(DefaultBrokerVersion(*preset));
  const auto given_version = broker->find("version");
  if (given_version != broker->end() && given_version->is_string()) {
    version = given_version->get<std::string>();
  }
  const std::span<const PresetDefault> defaults = PresetDefaults(*preset, version);
  // without_dlq says what a broker without a DLQ does: a scenario that gives the preset's broker
  // a DLQ (kafka's dead-letter topic) does not get it.
  const auto given_dlq = broker->find("dead_letter_queue");
  const bool dlq_given =
      given_dlq != broker->end() && given_dlq->is_boolean() && given_dlq->get<bool>();
  for (const PresetDefault& entry : defaults) {
    if (dlq_given && entry.pointer == "/broker/without_dlq") continue;
    const std::vector<std::string> tokens = Tokens(entry.pointer);
    Json* parent = &document;
    bool usable = true;
    for (size_t i = 0; i + 1 < tokens.size(); ++i) {
      auto child = parent->find(tokens[i]);
      if (child == parent->end()) {
        child = parent->emplace(tokens[i], Json::object()).first;
      } else if (!child->is_object()) {
        usable = false;  // the reader reports the wrong type
        break;
      }
      parent = &*child;
    }
    if (!usable || parent->contains(tokens.back())) continue;
    (*parent)[tokens.back()] = Json::parse(entry.value);
  }
  if (*preset == config::BrokerPreset::kSidekiq) FillSidekiqRandomTerm(document, defaults);
}

}  // namespace internal

}  // namespace drainsim::scenario
