// The vocabulary of the per-type field tables in faults.h (issue 15 step 2): one declaration per
// fault type lists its fields — JSON key, member, value kind, presence, the loader's limit, and
// how the chaos swarm and the fuzz generator draw it. The loader (sim/scenario/read_faults.cc),
// the dump (dump_policy.cc), the swarm (chaos/fault_draw.cc) and the fuzz generator
// (tools/fuzz/scenario_gen_events.cc) and the schema generator (tools/docs/fault_schema.cc) walk
// these tables instead of each spelling every type out, so adding a fault type with ordinary
// fields needs none of them edited.
//
// Invariants of a table (FieldsOf<F>):
//  (1) Fields are listed in the order the loader reads them, which is the order of its problems
//      and of the keys it names in "allowed keys"; the swarm draws in the same order.
//  (2) A swarm ladder lies inside its field's limit (static_asserts in faults.h).
//  (3) A field's member type fits its kind (FieldKind's comments); the readers check it at
//      compile time.
//
// Thread-safety: constant tables.
#pragma once

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>
#include <tuple>
#include <type_traits>

namespace drainsim::config {

// How a field's value is written in JSON, and so how it is read, checked and dumped.
enum class FieldKind : uint8_t {
  kKind,     // a kind's name: std::string, or std::optional<std::string> for "every kind"
  kNumber,   // a double (or std::optional<double>) in the key's unit: p, fraction, factor, rate
  kCount,    // an int64_t (or std::optional<int64_t>): integral in JSON
  kEnum,     // an enum of enums.h by its name (ErrorClass, CrashPoint)
  kMillis,   // a Duration (or std::optional<Duration>) written in milliseconds
  kSeconds,  // a Duration written in seconds
  kInstant,  // an Instant written in seconds, inside the run: 0 <= t < run.until_s
  kFixAt,    // a bug's fix: an std::optional<Instant> after from_s, at most the run's end
  kWindow,   // a Window: the keys from_s and until_s
};

// Whether a field must be given, and what its absence means.
enum class Presence : uint8_t {
  kRequired,  // missing or null is a problem
  kOptional,  // absent keeps the struct's default; null is a type problem
  kNullable,  // an std::optional member: absent or null both mean none
};

// An interval of allowed numbers, in the key's unit (ms for *_ms, s for *_s).
struct Limit {
  double min = -std::numeric_limits<double>::infinity();
  double max = std::numeric_limits<double>::infinity();
  bool min_open = false;
  bool max_open = false;
};
constexpr Limit Closed(double low, double high) { return {low, high, false, false}; }
constexpr Limit AboveAtMost(double low, double high) { return {low, high, true, false}; }
constexpr bool Inside(const Limit& limit, double value) {
  return (limit.min_open ? value > limit.min : value >= limit.min) &&
         (limit.max_open ? value < limit.max : value <= limit.max);
}

// How the fuzz generator draws a field: present with `percent` in 100, uniform on [low, high]
// (integers for kCount). Small ranges keep the generated runs fast; they need not reach the
// loader's limits (the loader's own tests do).
struct FuzzDraw {
  int percent = 100;
  double low = 0;
  double high = 0;
  // Non-zero: with even odds this value instead of the range (a 30 s "failing slowly").
  double or_else = 0;
};

// How the chaos swarm draws a field.
enum class SwarmDraw : uint8_t {
  kNone,  // not drawn: the struct's default
  kDraw,  // drawn by kind: a kind, an error class, an instant or a window; a ladder if given
  kCoin,  // a fair coin, then as kDraw; the other side of the coin leaves it none
};

// One field of fault type F held in a member of type M.
template <typename F, typename M>
struct Field {
  using Fault = F;
  using Member = M;
  std::string_view key;  // the JSON key (kWindow: from_s and until_s)
  M F::*member;
  FieldKind kind;
  Presence presence;
  Limit limit{};
  SwarmDraw swarm = SwarmDraw::kNone;
  std::span<const double> ladder{};  // the swarm's values (1-2-5 steps), in the key's unit
  FuzzDraw fuzz{};
  // The other key of an "exactly one of" pair; set on the first of the two, which comes just
  // before the second in the table.
  std::string_view one_of{};
  bool dump_if_nonzero = false;  // dumped only when non-zero (a key added after the format)
  // The schema's description (scenarios/schema.json, docs/SCENARIO-REFERENCE.md): unit, range,
  // default and why. tools/docs/fault_schema.cc writes it; for a kWindow, `doc` is from_s's and
  // `doc_until` until_s's (both empty: the usual window texts). A kEnum's default is appended.
  std::string_view doc{};
  std::string_view doc_until{};

  constexpr Field Swarm(SwarmDraw how, std::span<const double> values = {}) const {
    Field f = *this;
    f.swarm = how;
    f.ladder = values;
    return f;
  }
  constexpr Field Fuzz(int percent, double low = 0, double high = 0, double or_else = 0) const {
    Field f = *this;
    f.fuzz = FuzzDraw{percent, low, high, or_else};
    return f;
  }
  constexpr Field OneOf(std::string_view other) const {
    Field f = *this;
    f.one_of = other;
    return f;
  }
  constexpr Field Doc(std::string_view text, std::string_view until_text = {}) const {
    Field f = *this;
    f.doc = text;
    f.doc_until = until_text;
    return f;
  }
  constexpr Field DumpIfNonzero() const {
    Field f = *this;
    f.dump_if_nonzero = true;
    return f;
  }
};

template <typename F, typename M>
constexpr Field<F, M> Required(std::string_view key, M F::*member, FieldKind kind,
                               Limit limit = {}) {
  return {key, member, kind, Presence::kRequired, limit};
}
template <typename F, typename M>
constexpr Field<F, M> Optional(std::string_view key, M F::*member, FieldKind kind,
                               Limit limit = {}) {
  return {key, member, kind, Presence::kOptional, limit};
}
template <typename F, typename M>
constexpr Field<F, M> Nullable(std::string_view key, M F::*member, FieldKind kind,
                               Limit limit = {}) {
  return {key, member, kind, Presence::kNullable, limit};
}

// The field table of fault type F: a std::tuple of Fields, specialised next to each struct in
// faults.h. The primary is a marker, so a type without a table fails the static_assert there.
struct NoFieldTable {};
template <typename F>
inline constexpr auto kFieldsOf = NoFieldTable{};

template <typename F>
inline constexpr bool kHasFieldTable = !std::is_same_v<decltype(kFieldsOf<F>), const NoFieldTable>;

// Calls fn(field) for each field of F's table, in order.
template <typename F, typename Fn>
constexpr void ForEachField(Fn&& fn) {
  std::apply([&](const auto&... field) { (fn(field), ...); }, kFieldsOf<F>);
}

}  // namespace drainsim::config
