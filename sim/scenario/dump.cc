// DumpCanonical and the JSON of values, distributions and the non-policy sections.
#include <cmath>
#include <string_view>

#include "sim/base/json_integers.h"
#include "sim/scenario/dump_json.h"
#include "sim/scenario/fitted_values.h"
#include "sim/scenario/json_reader.h"
#include "sim/scenario/load.h"

namespace drainsim::scenario {

namespace internal {

namespace {

// The decimal value (in units of `micros_per_unit` microseconds) that reads back as `micros`.
Json SpanJson(int64_t micros, int64_t micros_per_unit) {
  if (micros % micros_per_unit == 0) return micros / micros_per_unit;
  auto reads_back = [&](double value) {
    auto span = micros_per_unit == 1'000'000 ? engine::DurationFromSeconds(value)
                                             : engine::DurationFromMillis(value);
    return span && span->micros() == micros;
  };
  const double first = static_cast<double>(micros) / static_cast<double>(micros_per_unit);
  double up = first;
  double down = first;
  // The quotient is within an ulp or two of a value that rounds back; step outward to it.
  for (int step = 0; step < 8; ++step) {
    if (reads_back(up)) return up;
    if (reads_back(down)) return down;
    up = std::nextafter(up, HUGE_VAL);
    down = std::nextafter(down, -HUGE_VAL);
  }
  DRAINSIM_CHECK(false && "no decimal reads back as this duration");
  return first;
}

Json FieldsJson(const config::Fields& fields) {
  Json out = Json::object();
  for (const auto& [name, value] : fields) out[name] = value;
  return out;
}

Json KindJson(const config::Kind& kind) {
  const config::Handler& h = kind.handler;
  return {{"idempotency", EnumJson(kind.idempotency)},
          {"key_pattern", kind.key_pattern},
          {"handler",
           {{"validate_ms", DistributionJson(h.validate_ms)},
            {"db_ops", h.db_ops},
            {"db_op_ms", OrNull(h.db_op_ms, DistributionJson)},
            {"downstream_calls", h.downstream_calls},
            {"cpu_ms", DistributionJson(h.cpu_ms)}}}};
}

Json ScheduleJson(const config::Producer::Schedule& schedule) {
  auto seconds = [](engine::Duration d) { return SecondsJson(d); };
  if (const auto* f = std::get_if<config::FanoutSchedule>(&schedule)) {
    return {{"at_s", SecondsJson(f->at)},
            {"count", f->count},
            {"publish_rate_per_s", OrNull(f->publish_rate_per_s, NumberJson)},
            {"every_s", OrNull(f->every, seconds)}};
  }
  if (const auto* f = std::get_if<config::ConstantSchedule>(&schedule)) {
    return {{"rate_per_s", NumberJson(f->rate_per_s)},
            {"from_s", SecondsJson(f->window.from)},
            {"until_s", SecondsJson(f->window.until)}};
  }
  if (const auto* f = std::get_if<config::PoissonSchedule>(&schedule)) {
    return {{"rate_per_s", NumberJson(f->rate_per_s)},
            {"from_s", SecondsJson(f->window.from)},
            {"until_s", SecondsJson(f->window.until)}};
  }
  const auto& f = std::get<config::BurstSchedule>(schedule);
  return {{"at_s", SecondsJson(f.at)}, {"count", f.count}, {"every_s", OrNull(f.every, seconds)}};
}

Json ProducerJson(const config::Producer& p) {
  Json out = {{"kind", p.kind}, {"fields", FieldsJson(p.fields)}};
  out[std::string(config::NameOf(p.shape()))] = ScheduleJson(p.schedule);
  return out;
}

Json BacklogJson(const config::BacklogEntry& b) {
  Json out = {{"where", EnumJson(b.where)}, {"kind", b.kind},
              {"count", b.count},           {"age_s", SecondsJson(b.age)},
              {"attempts", b.attempts},     {"fields", FieldsJson(b.fields)}};
  if (b.error) out["error"] = EnumJson(*b.error);
  if (b.reason) out["reason"] = EnumJson(*b.reason);
  if (b.due_in) out["due_in_s"] = SecondsJson(*b.due_in);
  return out;
}

Json BrokerJson(const config::Broker& b) {
  auto integer = [](int64_t n) { return Json(n); };
  auto seconds = [](engine::Duration d) { return SecondsJson(d); };
  Json counted = Json::array();
  for (const auto& entry : config::EnumNames<config::ReturnKind>()) {
    if (b.delivery_counted[static_cast<size_t>(entry.value)]) counted.push_back(entry.name);
  }
  Json out = {
      {"preset", OrNull(b.preset, EnumJson<config::BrokerPreset>)},
      {"version", OrNull(b.version, [](const std::string& v) { return Json(v); })},
      {"visibility_timeout_s", SecondsJson(b.visibility_timeout)},
      {"on_visibility_timeout", EnumJson(b.on_visibility_timeout)},
      {"lock_renewal", b.lock_renewal},
      {"stalled_check_s", OrNull(b.stalled_check, seconds)},
      {"stalled_count_max", OrNull(b.stalled_count_max, integer)},
      {"requeue_on_crash", EnumJson(b.requeue_on_crash)},
      {"receive_count_max", OrNull(b.receive_count_max, integer)},
      {"delivery_limit", OrNull(b.delivery_limit, integer)},
      {"delivery_counted", counted},
      {"max_length", OrNull(b.max_length, integer)},
      {"overflow", EnumJson(b.overflow)},
      {"retention_s", OrNull(b.retention, seconds)},
      {"redelivery_backoff", OrNull(b.redelivery_backoff, BackoffJson)},
      {"dead_letter_queue", b.dead_letter_queue},
      {"dlq_retention_s", OrNull(b.dlq_retention, seconds)},
      {"dlq_retention_from", EnumJson(b.dlq_retention_from)},
      {"dlq_max_length", OrNull(b.dlq_max_length, integer)},
      {"dead_letter_duplicate_probability", NumberJson(b.dead_letter_duplicate_probability)},
      {"redrive_rate_max_per_s", OrNull(b.redrive_rate_max_per_s, NumberJson)},
      {"redrive_attempts", EnumJson(b.redrive_attempts)},
      {"stale_ack", EnumJson(b.stale_ack)}};
  // Written when not the default, so that a scenario that does not use them keeps the hash it
  // had before the fields existed (the hash is of this dump); and always under a preset, whose
  // table may fill another value on reading the dump back (load -> dump -> load must not
  // change the scenario: the fuzz pipeline's round trip).
  if (b.preset || b.dlq_trim != config::DlqTrim::kContinuous) {
    out["dlq_trim"] = EnumJson(b.dlq_trim);
  }
  if (b.preset || b.requeue_position != config::RequeuePosition::kTail) {
    out["requeue_position"] = EnumJson(b.requeue_position);
  }
  // Only nats-jetstream's and kafka-share's tables fill it: written under those presets even
  // when null (so that reading the dump back does not fill 1000 or 2000 in), elsewhere only when
  // set (the hash).
  if (b.ack_pending_max || b.preset == config::BrokerPreset::kNatsJetstream ||
      b.preset == config::BrokerPreset::kKafkaShare) {
    out["ack_pending_max"] = OrNull(b.ack_pending_max, integer);
  }
  // Only celery's table fills it: as ack_pending_max.
  if (b.restore_sweep || b.preset == config::BrokerPreset::kCelery) {
    out["restore_sweep_s"] = OrNull(b.restore_sweep, seconds);
  }
  // No preset fills it: written only when set, for the same hash reason.
  if (b.message_groups) out["message_groups"] = *b.message_groups;
  if (b.message_group_kind) out["message_group_kind"] = EnumJson(*b.message_group_kind);
  // The kafka table fills it (Kafka's num.partitions, 1): as ack_pending_max.
  if (b.partitions || b.preset == config::BrokerPreset::kKafka) {
    out["partitions"] = OrNull(b.partitions, integer);
  }
  // The kafka table fills it (session.timeout.ms, 45 s): as ack_pending_max.
  if (b.session_timeout || b.preset == config::BrokerPreset::kKafka) {
    out["session_timeout_s"] = OrNull(b.session_timeout, seconds);
  }
  // The kafka table fills max_poll_records 500 and offset_commit "record": written only when
  // they differ from what the preset fills (null included, as ack_pending_max), so that every
  // kafka scenario's hash stays as it was before these fields and reading the dump back fills
  // the same values.
  const bool kafka = b.preset == config::BrokerPreset::kKafka;
  if (kafka ? b.max_poll_records != 500 : b.max_poll_records.has_value()) {
    out["max_poll_records"] = OrNull(b.max_poll_records, integer);
  }
  if (kafka ? b.offset_commit != config::OffsetCommit::kRecord : b.offset_commit.has_value()) {
    out["offset_commit"] = b.offset_commit ? EnumJson(*b.offset_commit) : Json(nullptr);
  }
  if (b.auto_commit_interval) out["auto_commit_interval_s"] = seconds(*b.auto_commit_interval);
  // No preset fills it: written only when set, for the same hash reason.
  if (b.delayed_retry) {
    out["delayed_retry"] = {{"type", EnumJson(b.delayed_retry->type)},
                            {"min_s", SecondsJson(b.delayed_retry->min)},
                            {"max_s", SecondsJson(b.delayed_retry->max)}};
  }
  // Written only when not the default, for the same hash reason, or when kafka's (kafka-share's)
  // table would fill "skipped" ("archived") without a DLQ over the default on reading the dump
  // back.
  const bool fills_without_dlq =
      b.preset == config::BrokerPreset::kKafka || b.preset == config::BrokerPreset::kKafkaShare;
  if (b.without_dlq != config::WithoutDlq::kFailed || (fills_without_dlq && !b.dead_letter_queue)) {
    out["without_dlq"] = EnumJson(b.without_dlq);
  }
  // No preset fills these two: written only when not the default, for the same hash reason.
  if (b.dead_letter_strategy != config::DeadLetterStrategy::kAtMostOnce) {
    out["dead_letter_strategy"] = EnumJson(b.dead_letter_strategy);
  }
  if (b.dlq_overflow != config::Overflow::kDropHead) {
    out["dlq_overflow"] = EnumJson(b.dlq_overflow);
  }
  return out;
}

Json DatabaseJson(const config::Database& db) {
  auto live = [](const config::LiveTraffic& t) -> Json {
    return {{"rate_per_s", NumberJson(t.rate_per_s)}, {"query_ms", DistributionJson(t.query_ms)}};
  };
  Json out = {{"connections", db.connections},
              {"timeout_ms", MillisJson(db.timeout)},
              {"overload_factor", NumberJson(db.overload_factor)},
              {"live_traffic", OrNull(db.live_traffic, live)}};
  // Written only when set, so that a scenario without it keeps the hash it had before the
  // field existed (the hash is of this dump).
  if (db.cores) out["cores"] = NumberJson(*db.cores);
  return out;
}

Json DownstreamJson(const config::Downstream& d) {
  return {{"rate_limit_per_s", OrNull(d.rate_limit_per_s, NumberJson)},
          {"burst", d.burst},
          {"retry_after", EnumJson(d.retry_after)},
          {"clock_skew_s", SecondsJson(d.clock_skew)},
          {"call_ms", DistributionJson(d.call_ms)}};
}

Json AlertsJson(const config::Alerts& a) {
  auto integer = [](int64_t n) { return Json(n); };
  return {{"oldest_age_s", OrNull(a.oldest_age, [](engine::Duration d) { return SecondsJson(d); })},
          {"depth", OrNull(a.depth, integer)},
          {"dlq_depth", OrNull(a.dlq_depth, integer)}};
}

template <typename T, typename F>
Json ArrayJson(const std::vector<T>& items, F to_json) {
  Json out = Json::array();
  for (const T& item : items) out.push_back(to_json(item));
  return out;
}

}  // namespace

Json NumberJson(double value) {
  if (value == std::floor(value) && std::fabs(value) < kExactIntegerMax) {
    return static_cast<int64_t>(value);
  }
  return value;
}

Json SecondsJson(engine::Duration span) { return SpanJson(span.micros(), 1'000'000); }
Json SecondsJson(engine::Instant instant) { return SpanJson(instant.micros(), 1'000'000); }
Json MillisJson(engine::Duration span) { return SpanJson(span.micros(), 1'000); }

Json DistributionJson(const config::DistributionSpec& spec) {
  Json body;
  if (const auto* d = std::get_if<config::ConstantDist>(&spec.shape)) {
    body = NumberJson(d->value);
  } else if (const auto* d = std::get_if<config::UniformDist>(&spec.shape)) {
    body = {{"low", NumberJson(d->low)}, {"high", NumberJson(d->high)}};
  } else if (const auto* d = std::get_if<config::ExponentialDist>(&spec.shape)) {
    body = {{"mean", NumberJson(d->mean)}};
  } else if (const auto* d = std::get_if<config::LognormalDist>(&spec.shape)) {
    if (d->form == config::LognormalDist::Form::kMedianP99) {
      body = {{"median", NumberJson(d->median)}, {"p99", NumberJson(d->p99)}};
    } else {
      body = {{"mu", NumberJson(d->mu)}, {"sigma", NumberJson(d->sigma)}};
    }
  } else if (const auto* d = std::get_if<config::NormalDist>(&spec.shape)) {
    body = {{"mean", NumberJson(d->mean)}, {"sd", NumberJson(d->sd)}};
  } else {
    body = Json::array();
    for (const config::EmpiricalPoint& p : std::get<config::EmpiricalDist>(spec.shape).points) {
      body.push_back(Json::array({NumberJson(p.probability), NumberJson(p.value)}));
    }
  }
  Json out = Json::object();
  out[std::string(config::NameOf(spec.kind()))] = std::move(body);
  return out;
}

Json FittedJson(const config::Fitted& fitted) {
  Json out = {{"from", fitted.from}, {"n", fitted.n}, {"method", fitted.method}};
  if (fitted.ks) out["ks"] = NumberJson(*fitted.ks);
  const auto pair = [](const std::pair<double, double>& i) {
    return Json::array({NumberJson(i.first), NumberJson(i.second)});
  };
  if (fitted.intervals.size() == 1 && fitted.intervals[0].first.empty()) {
    out["interval"] = pair(fitted.intervals[0].second);
  } else if (!fitted.intervals.empty()) {
    out["interval"] = Json::object();
    for (const auto& [name, interval] : fitted.intervals) out["interval"][name] = pair(interval);
  }
  return out;
}

}  // namespace internal

namespace {

internal::Json CanonicalJson(const config::Scenario& s) {
  using namespace internal;
  Json kinds = Json::object();
  for (const auto& [name, kind] : s.kinds) kinds[name] = KindJson(kind);
  Json out = {
      {"format_version", kFormatVersion},
      {"name", s.name},
      {"description", s.description},
      {"seed", base::Uint64Json(s.seed)},
      {"run",
       {{"until_s", SecondsJson(s.run.until)},
        {"sample_every_s", SecondsJson(s.run.sample_every)},
        {"events_max", s.run.events_max}}},
      {"kinds", kinds},
      {"producers", ArrayJson(s.producers, ProducerJson)},
      {"backlog", ArrayJson(s.backlog, BacklogJson)},
      {"broker", BrokerJson(s.broker)},
      {"workers",
       {{"count", s.workers.count},
        {"prefetch", s.workers.prefetch},
        {"concurrency", s.workers.concurrency},
        {"restart_s", SecondsJson(s.workers.restart)}}},
      {"database", OrNull(s.database, DatabaseJson)},
      {"downstream", OrNull(s.downstream, DownstreamJson)},
      {"retry", RetryJson(s.retry)},
      {"faults", ArrayJson(s.faults, FaultJson)},
      {"drains", ArrayJson(s.drains, DrainJson)},
      {"alerts", AlertsJson(s.alerts)},
      {"expect", ArrayJson(s.expect, ExpectationJson)},
  };
  // Written only when set: every other scenario's dump (and its hash) stays as it was.
  if (const auto& esm = s.workers.lambda_esm) {
    out["workers"]["lambda_esm"] = {
        {"function_concurrency", esm->function_concurrency},
        {"maximum_concurrency",
         esm->maximum_concurrency ? Json(*esm->maximum_concurrency) : Json(nullptr)},
        {"pollers_initial", esm->pollers_initial},
        {"pollers_added_per_min", esm->pollers_added_per_min}};
  }
  if (const auto& a = s.workers.autoscale) {  // likewise, only when set
    out["workers"]["autoscale"] = {{"metric", EnumJson(a->metric)},
                                   {"target", a->target},
                                   {"min", a->min},
                                   {"max", a->max},
                                   {"interval_s", SecondsJson(a->interval)},
                                   {"lag_s", SecondsJson(a->lag)},
                                   {"cooldown_s", SecondsJson(a->cooldown)},
                                   {"grace_s", SecondsJson(a->grace)}};
  }
  return out;
}

// Invalid UTF-8 can only come from a hand-built Scenario; replace it rather than throw.
std::string Text(const internal::Json& json) {
  return json.dump(2, ' ', false, internal::Json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string DumpCanonical(const config::Scenario& s) { return Text(CanonicalJson(s)); }

std::string DumpCanonicalWithFitted(const config::Scenario& s, const FittedValues& fitted) {
  constexpr std::string_view kFailAfterFitted = "/fail_after_fitted";
  internal::Json out = CanonicalJson(s);
  for (const auto& [pointer, provenance] : fitted) {
    // The loader's pointers name objects the dump writes at the same place: a distribution, a
    // fault, a producer's schedule. One it does not hold is skipped, never invented.
    try {
      // "/faults/N/fail_after_fitted" names the member itself (fitted_values.h); the others
      // name the object whose `fitted` it is.
      const bool member = pointer.ends_with(kFailAfterFitted);
      const internal::Json::json_pointer at(
          member ? pointer.substr(0, pointer.size() - kFailAfterFitted.size()) : pointer);
      if (!out.contains(at) || !out.at(at).is_object()) continue;
      out.at(at)[member ? "fail_after_fitted" : "fitted"] = internal::FittedJson(provenance);
    } catch (const internal::Json::exception&) {
      continue;  // not a JSON pointer: no loader makes one
    }
  }
  return Text(out);
}

}  // namespace drainsim::scenario
