// Idempotency keys derived from the work, as the seed insists: "purge:course-4812:2026-03-01",
// never a random id, so that every delivery of the same work carries the same key.
//
// Thread-safety: pure functions; a KeyTemplate is immutable once built.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "sim/config/workload.h"
#include "sim/engine/time.h"

namespace drainsim::model {

// Fills `pattern`'s placeholders: {id} with `id`, {kind} with `kind_name`, {date} with the
// simulated day of `published_at` ("day-0" is the run's first day, "day-m1" the day before)
// unless `fields` sets "date", any other {name} from `fields`. REQUIRES: the pattern is one
// the loader accepted for this kind and these fields; an unknown placeholder fails a check.
std::string RenderKey(std::string_view pattern, uint64_t id, std::string_view kind_name,
                      const config::Fields& fields, engine::Instant published_at);

// A key pattern resolved once for one source (producer or backlog entry): {kind} and the fields
// filled in, {id} and {date} left as slots, so that rendering a message's key compares no
// placeholder names and looks up no fields. Render(id, at) == RenderKey(pattern, id, kind_name,
// fields, at) for every id and instant. REQUIRES: as RenderKey.
class KeyTemplate {
 public:
  KeyTemplate(std::string_view pattern, std::string_view kind_name, const config::Fields& fields);
  std::string Render(uint64_t id, engine::Instant published_at) const;

 private:
  enum class Slot : uint8_t { kText, kId, kDate };
  struct Part {
    Slot slot;
    std::string text;  // kText only
  };
  std::vector<Part> parts_;
  size_t text_bytes_ = 0;
};

// True iff every message gets its own key ({id} appears in the pattern): then per-message
// state suffices and no key needs rendering during a run.
bool KeysAreUnique(std::string_view pattern);

// FNV-1a of a rendered key, never 0 (0 means "unique key" in Message::key_hash).
uint64_t HashKey(std::string_view key);

}  // namespace drainsim::model
