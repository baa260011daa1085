// Canonical JSON of the policy sections: retry, faults, drains and expectations.
#include "sim/scenario/dump_json.h"

namespace drainsim::scenario::internal {

namespace {

Json Seconds(engine::Duration d) { return SecondsJson(d); }
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

void InjectedInto(config::ErrorClass error, const std::optional<engine::Duration>& fail_after,
                  Json& out) {
  out["error"] = EnumJson(error);
  out["fail_after_ms"] = OrNull(fail_after, Millis);
}

Json BoundsInto(const config::Bounds& b, Json out) {
  out["min"] = OrNull(b.min, NumberJson);
  out["max"] = OrNull(b.max, NumberJson);
  out["equals"] = OrNull(b.equals, NumberJson);
  return out;
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
  Json out = {{"kind", EnumJson(b.kind())}, {"jitter", jitter}};
  if (const auto* c = std::get_if<config::ConstantBackoff>(&b.curve)) {
    out["delay_s"] = Seconds(c->delay);
  } else if (const auto* c = std::get_if<config::LinearBackoff>(&b.curve)) {
    out["base_s"] = Seconds(c->base);
    out["step_s"] = Seconds(c->step);
    out["cap_s"] = Seconds(c->cap);
  } else if (const auto* c = std::get_if<config::ExponentialBackoff>(&b.curve)) {
    out["base_s"] = Seconds(c->base);
    out["factor"] = NumberJson(c->factor);
    out["cap_s"] = Seconds(c->cap);
  }
  return out;
}

Json RetryJson(const config::RetryPolicy& r) {
  auto budget = [](const config::RetryBudget& b) -> Json {
    return {{"ratio", NumberJson(b.ratio)}, {"burst", b.burst}, {"window_s", Seconds(b.window)}};
  };
  auto breaker = [](const config::CircuitBreaker& b) -> Json {
    return {{"error_rate_open", NumberJson(b.error_rate_open)},
            {"window_s", Seconds(b.window)},
            {"open_s", Seconds(b.open)},
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
  if (const auto* f = std::get_if<config::ErrorsFault>(&fault)) {
    out["kind"] = OrNull(f->kind, [](const std::string& k) { return Json(k); });
    out["probability"] = NumberJson(f->probability);
    InjectedInto(f->error, f->fail_after, out);
    WindowInto(f->window, out);
  } else if (const auto* f = std::get_if<config::SyntheticFailuresFault>(&fault)) {
    out["kind"] = f->kind;
    out["count"] = f->count;
    InjectedInto(f->error, f->fail_after, out);
    out["from_s"] = Instants(f->from);
  } else if (const auto* f = std::get_if<config::PoisonFault>(&fault)) {
    out["kind"] = f->kind;
    out["count"] = OrNull(f->count, [](int64_t n) { return Json(n); });
    out["fraction"] = OrNull(f->fraction, NumberJson);
    InjectedInto(f->error, f->fail_after, out);
    out["from_s"] = Instants(f->from);
  } else if (const auto* f = std::get_if<config::BugFault>(&fault)) {
    out["kind"] = f->kind;
    out["fraction"] = NumberJson(f->fraction);
    InjectedInto(f->error, f->fail_after, out);
    out["from_s"] = Instants(f->from);
    out["fixed_at_s"] = OrNull(f->fixed_at, Instants);
  } else if (const auto* f = std::get_if<config::DbSlowdownFault>(&fault)) {
    WindowInto(f->window, out);
    out["factor"] = NumberJson(f->factor);
  } else if (const auto* f = std::get_if<config::DbOutageFault>(&fault)) {
    WindowInto(f->window, out);
  } else if (const auto* f = std::get_if<config::DbConnectionsFault>(&fault)) {
    WindowInto(f->window, out);
    out["connections"] = f->connections;
  } else if (const auto* f = std::get_if<config::DownstreamOutageFault>(&fault)) {
    WindowInto(f->window, out);
  } else if (const auto* f = std::get_if<config::DownstreamRateLimitFault>(&fault)) {
    WindowInto(f->window, out);
    out["rate_limit_per_s"] = NumberJson(f->rate_limit_per_s);
    out["burst"] = f->burst;
  } else if (const auto* f = std::get_if<config::WorkerCrashFault>(&fault)) {
    out["point"] = EnumJson(f->point);
    out["rate_per_h"] = OrNull(f->rate_per_h, NumberJson);
    out["at_s"] = OrNull(f->at, Instants);
    if (f->rate_per_h) {
      WindowInto(f->window, out);
    } else {
      out["count"] = f->count;
    }
  } else if (const auto* f = std::get_if<config::AckLossFault>(&fault)) {
    out["probability"] = NumberJson(f->probability);
    WindowInto(f->window, out);
  } else if (const auto* f = std::get_if<config::BrokerRestartFault>(&fault)) {
    out["at_s"] = Instants(f->at);
    out["downtime_s"] = Seconds(f->downtime);
    // Only when set: a scenario without it keeps its canonical form (and report fingerprint).
    if (f->recovery > engine::Duration::Zero()) out["recovery_s"] = Seconds(f->recovery);
  }
  return out;
}

Json DrainJson(const config::Drain& d) {
  Json out = {{"start_at_s", OrNull(d.start_at, Instants)},
              {"start_after_fix_s", OrNull(d.start_after_fix, Seconds)},
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
    out["adjust_every_s"] = Seconds(s->adjust_every);
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
