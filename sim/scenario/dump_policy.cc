// Canonical JSON of the policy sections: retry, faults, drains and expectations. Faults are
// written generically from their field tables (sim/config/faults.h).
#include <type_traits>
#include <variant>

#include "sim/scenario/dump_json.h"

namespace drainsim::scenario::internal {

namespace {

// One overload of SecondsJson, to pass by name.
Json SpanSeconds(engine::Duration d) { return SecondsJson(d); }
Json Millis(engine::Duration d) { return MillisJson(d); }
Json Instants(engine::Instant i) { return SecondsJson(i); }

Json ClassJson(const config::ClassPolicy& p, bool rate_limited) {
  Json out = {{"action", EnumJson(p.action)}};
  if (p.action == config::ClassAction::kRetry) {
    out["attempts_max"] = p.attempts_max;
    out["backoff"] = OrNull(p.backoff, BackoffJson);
  }
  if (rate_limited) out["honor_retry_after"] = p.honor_retry_after;
  return out;
}

void WindowInto(const config::Window& w, Json& out) {
  out["from_s"] = Instants(w.from);
  out["until_s"] = Instants(w.until);
}

Json BoundsInto(const config::Bounds& b, Json out) {
  out["min"] = OrNull(b.min, NumberJson);
  out["max"] = OrNull(b.max, NumberJson);
  out["equals"] = OrNull(b.equals, NumberJson);
  return out;
}

// A struct, not a variable template: clang warns of an unused const variable in an unnamed
// namespace when only a discarded branch names it.
template <typename>
struct Unwritable : std::false_type {};

// One value as the loader reads it back (json_reader.h's kinds and units).
template <typename V>
Json ValueJson(const V& value, config::FieldKind kind) {
  if constexpr (std::is_same_v<V, double>) {
    return NumberJson(value);
  } else if constexpr (std::is_same_v<V, std::string> || std::is_same_v<V, int64_t>) {
    return Json(value);
  } else if constexpr (std::is_enum_v<V>) {
    return EnumJson(value);
  } else if constexpr (std::is_same_v<V, engine::Duration>) {
    return kind == config::FieldKind::kMillis ? Millis(value) : SecondsJson(value);
  } else if constexpr (std::is_same_v<V, engine::Instant>) {
    return Instants(value);
  } else {
    static_assert(Unwritable<V>::value, "no writer for this member type");
  }
}

template <typename F, typename M>
void FieldInto(const F& fault, const config::Field<F, M>& field, Json& out) {
  const M& value = fault.*field.member;
  if constexpr (std::is_same_v<M, config::Window>) {
    WindowInto(value, out);
  } else if constexpr (requires { value.has_value(); }) {
    out[std::string(field.key)] =
        OrNull(value, [&](const auto& v) { return ValueJson(v, field.kind); });
  } else {
    if constexpr (std::is_same_v<M, engine::Duration>) {
      if (field.dump_if_nonzero && value == engine::Duration::Zero()) return;
    }
    out[std::string(field.key)] = ValueJson(value, field.kind);
  }
}

// Every field of the type's table (sim/config/faults.h), so that the dump shows the whole
// vocabulary; a worker crash writes only the fields of its form.
template <typename F>
void FaultFieldsInto(const F& f, Json& out) {
  if constexpr (std::is_same_v<F, config::WorkerCrashFault>) {
    out["point"] = EnumJson(f.point);
    out["rate_per_h"] = OrNull(f.rate_per_h, NumberJson);
    out["at_s"] = OrNull(f.at, Instants);
    if (f.rate_per_h) {
      WindowInto(f.window, out);
    } else {
      out["count"] = f.count;
    }
  } else {
    config::ForEachField<F>([&](const auto& field) { FieldInto(f, field, out); });
  }
}

template <typename E>
Json ListJson(const std::optional<std::vector<E>>& list) {
  if (!list) return nullptr;
  Json out = Json::array();
  for (const E& item : *list) {
    if constexpr (std::is_enum_v<E>) {
      out.push_back(EnumJson(item));
    } else {
      out.push_back(item);
    }
  }
  return out;
}

}  // namespace

Json BackoffJson(const config::Backoff& b) {
  Json jitter = {{"kind", EnumJson(b.jitter.kind)}};
  if (b.jitter.kind == config::JitterKind::kProportional) {
    jitter["low"] = NumberJson(b.jitter.low);
    jitter["high"] = NumberJson(b.jitter.high);
  }
  if (b.jitter.kind == config::JitterKind::kSidekiq) {
    // Always written, as the curve's: the sidekiq preset fills a missing one by version.
    jitter["random_term"] = EnumJson(b.jitter.random_term);
  }
  Json out = {{"kind", EnumJson(b.kind())}, {"jitter", jitter}};
  if (const auto* c = std::get_if<config::ConstantBackoff>(&b.curve)) {
    out["delay_s"] = SecondsJson(c->delay);
  } else if (const auto* c = std::get_if<config::LinearBackoff>(&b.curve)) {
    out["base_s"] = SecondsJson(c->base);
    out["step_s"] = SecondsJson(c->step);
    out["cap_s"] = SecondsJson(c->cap);
  } else if (const auto* c = std::get_if<config::ExponentialBackoff>(&b.curve)) {
    out["base_s"] = SecondsJson(c->base);
    out["factor"] = NumberJson(c->factor);
    out["cap_s"] = SecondsJson(c->cap);
  } else if (const auto* c = std::get_if<config::SidekiqBackoff>(&b.curve)) {
    // Always written: the sidekiq preset fills a missing random_term with its version's, so an
    // omitted default would not survive load -> dump -> load under the preset.
    out["random_term"] = EnumJson(c->random_term);
  }
  return out;
}

Json RetryJson(const config::RetryPolicy& r) {
  auto budget = [](const config::RetryBudget& b) -> Json {
    return {
        {"ratio", NumberJson(b.ratio)}, {"burst", b.burst}, {"window_s", SecondsJson(b.window)}};
  };
  auto breaker = [](const config::CircuitBreaker& b) -> Json {
    return {{"error_rate_open", NumberJson(b.error_rate_open)},
            {"window_s", SecondsJson(b.window)},
            {"open_s", SecondsJson(b.open)},
            {"half_open_probes", b.half_open_probes},
            {"attempts_min", b.attempts_min}};
  };
  return {{"delivery", EnumJson(r.delivery)},
          {"requeue_with", EnumJson(r.requeue_with)},
          {"backoff", BackoffJson(r.backoff)},
          {"classes",
           {{"rate_limited", ClassJson(r.classes.rate_limited, true)},
            {"transient", ClassJson(r.classes.transient, false)},
            {"permanent", ClassJson(r.classes.permanent, false)},
            {"unknown", ClassJson(r.classes.unknown, false)}}},
          {"budget", OrNull(r.budget, budget)},
          {"circuit_breaker", OrNull(r.circuit_breaker, breaker)}};
}

Json FaultJson(const config::Fault& fault) {
  Json out = {{"type", EnumJson(config::TypeOf(fault))}};
  std::visit([&](const auto& f) { FaultFieldsInto(f, out); }, fault);
  return out;
}

Json DrainJson(const config::Drain& d) {
  Json out = {{"start_at_s", OrNull(d.start_at, Instants)},
              {"start_after_fix_s", OrNull(d.start_after_fix, SpanSeconds)},
              {"select",
               {{"reasons", ListJson(d.select.reasons)},
                {"errors", ListJson(d.select.errors)},
                {"kinds", ListJson(d.select.kinds)}}},
              {"others", EnumJson(d.others)},
              {"limit", OrNull(d.limit, [](int64_t n) { return Json(n); })},
              {"replay_ms", OrNull(d.replay_ms, DistributionJson)},
              {"strategy", EnumJson(d.kind())}};
  if (const auto* s = std::get_if<config::DripDrain>(&d.strategy)) {
    out["rate_per_s"] = NumberJson(s->rate_per_s);
    out["burst"] = s->burst;
  } else if (const auto* s = std::get_if<config::BoundedDrain>(&d.strategy)) {
    out["rate_per_s"] = OrNull(s->rate_per_s, NumberJson);
  } else if (const auto* s = std::get_if<config::AdaptiveDrain>(&d.strategy)) {
    out["rate_min_per_s"] = NumberJson(s->rate_min_per_s);
    out["rate_max_per_s"] = NumberJson(s->rate_max_per_s);
    out["increase_per_s"] = NumberJson(s->increase_per_s);
    out["decrease_factor"] = NumberJson(s->decrease_factor);
    out["latency_target_ms"] = Millis(s->latency_target);
    out["adjust_every_s"] = SecondsJson(s->adjust_every);
  }
  return out;
}

Json ExpectationJson(const config::Expectation& expectation) {
  if (const auto* e = std::get_if<config::MetricExpectation>(&expectation)) {
    return BoundsInto(e->bounds,
                      {{"metric", EnumJson(e->metric)},
                       {"kind", OrNull(e->kind, [](const std::string& k) { return Json(k); })},
                       {"during", EnumJson(e->during)}});
  }
  const auto& e = std::get<config::PropertyExpectation>(expectation);
  Json out = {{"during", EnumJson(e.during)}};
  out[std::string(config::NameOf(e.quantifier))] = EnumJson(e.metric);
  return BoundsInto(e.bounds, std::move(out));
}

}  // namespace drainsim::scenario::internal
