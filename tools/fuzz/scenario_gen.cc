// The generator's choice stream, the top level, and the workload: kinds, producers, backlog.
#include "tools/fuzz/scenario_gen.h"

#include <algorithm>
#include <cmath>

#include "sim/engine/rng.h"
#include "tools/fuzz/scenario_gen_parts.h"

namespace drainsim::fuzz {

uint64_t Choices::Below(uint64_t n) {
  if (n <= 1) return 0;
  // Enough bytes for n, read little-endian; the modulo bias does not matter for fuzzing.
  uint64_t value = 0;
  for (uint64_t range = 1; range < n && range <= (UINT64_MAX >> 8); range <<= 8) {
    value = (value << 8) | Byte();
  }
  return value % n;
}

int64_t Choices::IntIn(int64_t low, int64_t high) {
  return low + static_cast<int64_t>(Below(static_cast<uint64_t>(high - low) + 1));
}

double Choices::RealIn(double low, double high) {
  const double fraction = static_cast<double>(Below(10001)) / 10000.0;
  const double value = std::round((low + fraction * (high - low)) * 1000.0) / 1000.0;
  return std::clamp(value, low, high);
}

std::string BytesForSeed(uint64_t seed) {
  constexpr size_t kBytes = 2048;  // more than any scenario reads
  engine::Rng rng = engine::Rng::ForStream(seed, engine::StreamId("fuzz-scenario-gen"), 0);
  std::string bytes(kBytes, '\0');
  for (size_t i = 0; i < kBytes; i += 8) {
    const uint64_t word = rng.NextU64();
    for (size_t b = 0; b < 8; ++b) bytes[i + b] = static_cast<char>((word >> (8 * b)) & 0xff);
  }
  return bytes;
}

namespace internal {

double InstantIn(Choices& in, const GenContext& c) {
  // 1 ms short of the end at most: the loader reads whole microseconds, and the largest double
  // below until_s rounds up to it.
  return std::min(in.RealIn(0, c.until_s), c.until_s - 0.001);
}

std::pair<double, double> WindowIn(Choices& in, const GenContext& c) {
  const double from_s = std::floor(in.RealIn(0, c.until_s - 1));
  const double until_s = std::min(c.until_s, from_s + 1 + std::floor(in.RealIn(0, c.until_s)));
  return {from_s, until_s};
}

Json Distribution(Choices& in, double scale_ms) {
  switch (in.Below(7)) {
    case 0:
      return {{"constant", in.RealIn(0, scale_ms)}};
    case 1: {
      const double low = in.RealIn(0, scale_ms);
      return {{"uniform", {{"low", low}, {"high", low + in.RealIn(0, scale_ms)}}}};
    }
    case 2:
      return {{"exponential", {{"mean", in.RealIn(0.001, scale_ms)}}}};
    case 3: {
      const double median = in.RealIn(0.001, scale_ms);
      return {{"lognormal", {{"median", median}, {"p99", median * in.RealIn(1.01, 50)}}}};
    }
    case 4:
      return {{"lognormal",
               {{"mu", in.RealIn(-3, std::log(scale_ms + 1))}, {"sigma", in.RealIn(0.001, 2.5)}}}};
    case 5:
      return {{"normal", {{"mean", in.RealIn(0, scale_ms)}, {"sd", in.RealIn(0, scale_ms)}}}};
    default: {
      // Cumulative probabilities strictly increasing to exactly 1, values nondecreasing.
      Json points = Json::array();
      const int64_t count = in.IntIn(1, 4);
      double value = in.RealIn(0, scale_ms);
      for (int64_t i = 1; i <= count; ++i) {
        const double p = i == count ? 1.0 : static_cast<double>(i) / static_cast<double>(count);
        points.push_back({p, value});
        value += in.RealIn(0, scale_ms);
      }
      return {{"empirical", points}};
    }
  }
}

Json Kinds(Choices& in, GenContext& c) {
  static const char* const kIdempotency[] = {"none", "claim", "converge"};
  static const char* const kPatterns[] = {"{kind}:{id}", "{kind}:{id}:{date}", "{tenant}:{id}",
                                          "{kind}:shared", "{tenant}:{date}"};
  Json kinds = Json::object();
  const int64_t count = in.IntIn(1, 3);
  for (int64_t i = 0; i < count; ++i) {
    GenKind kind{"k" + std::to_string(i)};
    Json handler = Json::object();
    if (in.Chance(40)) handler["validate_ms"] = Distribution(in, 5);
    if (c.has_database && in.Chance(60)) {
      handler["db_ops"] = in.IntIn(1, 3);
      handler["db_op_ms"] = Distribution(in, 20);
    }
    if (c.has_downstream && in.Chance(60)) handler["downstream_calls"] = in.IntIn(1, 2);
    if (in.Chance(70)) handler["cpu_ms"] = Distribution(in, 50);
    Json entry = {{"idempotency", in.Pick(kIdempotency)}, {"handler", handler}};
    if (in.Chance(60)) {
      const std::string pattern = in.Pick(kPatterns);
      kind.needs_tenant = pattern.find("{tenant}") != std::string::npos;
      entry["key_pattern"] = pattern;
    }
    kinds[kind.name] = entry;
    c.kinds.push_back(kind);
  }
  return kinds;
}

namespace {

// The fields a source of `kind` must set, plus sometimes a {date} override.
Json Fields(Choices& in, const GenKind& kind) {
  Json fields = Json::object();
  if (kind.needs_tenant) fields["tenant"] = in.Chance(50) ? "acme" : "globex";
  if (in.Chance(15)) fields["date"] = "2026-12-01";
  return fields;
}

// How often a trigger repeats: at most about five firings in the run.
double EverySeconds(Choices& in, const GenContext& c) {
  return in.RealIn(std::max(0.001, c.until_s / 5), c.until_s);
}

Json Schedule(Choices& in, const GenContext& c, std::string* name) {
  switch (in.Below(4)) {
    case 0: {
      *name = "burst";
      Json burst = {{"at_s", InstantIn(in, c)}, {"count", in.IntIn(1, 40)}};
      if (in.Chance(30)) burst["every_s"] = EverySeconds(in, c);
      return burst;
    }
    case 1: {
      *name = "fanout";
      const int64_t count = in.IntIn(1, 40);
      Json fanout = {{"at_s", InstantIn(in, c)}, {"count", count}};
      double publishing_s = 0;
      if (in.Chance(50)) {
        const double rate_per_s = in.RealIn(0.01, 100);
        fanout["publish_rate_per_s"] = rate_per_s;
        publishing_s = static_cast<double>(count - 1) / rate_per_s;
      }
      // The loader wants a trigger to repeat only after its fan-out has published everything.
      if (in.Chance(30)) fanout["every_s"] = std::max(EverySeconds(in, c), publishing_s + 0.001);
      return fanout;
    }
    default: {
      // constant and poisson: at most about 100 messages over the window.
      *name = in.Chance(50) ? "poisson" : "constant";
      Json schedule = Json::object();
      double window_s = c.until_s;
      if (in.Chance(50)) {
        const auto [from_s, until_s] = WindowIn(in, c);
        schedule["from_s"] = from_s;
        schedule["until_s"] = until_s;
        window_s = until_s - from_s;
      }
      schedule["rate_per_s"] = std::max(0.001, in.RealIn(1, 100) / window_s);
      return schedule;
    }
  }
}

}  // namespace

Json Producers(Choices& in, const GenContext& c) {
  Json producers = Json::array();
  const int64_t count = in.IntIn(0, 3);
  for (int64_t i = 0; i < count; ++i) {
    const GenKind& kind = c.kinds[in.Below(c.kinds.size())];
    std::string name;
    Json schedule = Schedule(in, c, &name);
    Json producer = {{"kind", kind.name}, {name, schedule}};
    Json fields = Fields(in, kind);
    if (!fields.empty()) producer["fields"] = fields;
    producers.push_back(producer);
  }
  return producers;
}

Json Backlog(Choices& in, const GenContext& c) {
  static const char* const kWhere[] = {"main", "delayed", "dlq"};
  static const char* const kErrors[] = {"transient", "rate_limited", "permanent", "unknown"};
  static const char* const kReasons[] = {"max_attempts", "not_retryable", "receive_count_max",
                                         "retry_budget", "max_length",    "delivery_limit",
                                         "stalled",      "worker_lost"};
  Json backlog = Json::array();
  const int64_t count = in.IntIn(0, 2);
  for (int64_t i = 0; i < count; ++i) {
    const GenKind& kind = c.kinds[in.Below(c.kinds.size())];
    std::string where = in.Pick(kWhere);
    if (where == "dlq" && c.no_dlq) where = "main";  // the loader refuses a DLQ the broker lacks
    Json entry = {{"where", where}, {"kind", kind.name}, {"count", in.IntIn(1, 30)}};
    if (in.Chance(40)) entry["age_s"] = in.RealIn(0, 200000);
    if (in.Chance(40)) entry["attempts"] = in.IntIn(where == "main" ? 0 : 1, 6);
    if (where != "main" && in.Chance(50)) entry["error"] = in.Pick(kErrors);
    if (where == "dlq" && in.Chance(60)) entry["reason"] = in.Pick(kReasons);
    if (where == "delayed" && in.Chance(60)) entry["due_in_s"] = InstantIn(in, c);
    Json fields = Fields(in, kind);
    if (!fields.empty()) entry["fields"] = fields;
    backlog.push_back(entry);
  }
  return backlog;
}

}  // namespace internal

std::string GenerateScenarioJson(std::string_view bytes) {
  using namespace internal;
  Choices in(bytes);
  GenContext c;
  static const double kUntil[] = {10, 60, 1, 300, 600, 30};
  c.until_s = in.Pick(kUntil);
  Json run = {{"until_s", c.until_s}};
  if (in.Chance(50)) run["sample_every_s"] = c.until_s / static_cast<double>(in.IntIn(1, 100));
  // A small bound on events: some runs stop at it (events_max_reached), the rest run out.
  run["events_max"] = in.Chance(25) ? in.IntIn(1, 2000) : 30000;
  Json s = {{"format_version", 1}, {"name", "gen"}, {"seed", in.IntIn(0, 1 << 20)}, {"run", run}};
  Json database = Database(in, c);
  Json downstream = Downstream(in, c);
  s["kinds"] = Kinds(in, c);
  s["workers"] = Workers(in, c);
  s["broker"] = Broker(in, c);
  // A Kafka consumer is one thread: the loader refuses concurrency beside partitions.
  if (c.preset == "kafka" || s["broker"].contains("partitions")) s["workers"]["concurrency"] = 1;
  // So do Pub/Sub ordering keys (a key's batch runs in order on one worker).
  if (s["broker"].value("message_group_kind", "") == "ordering_key") {
    s["workers"]["concurrency"] = 1;
  }
  if (!database.is_null() || in.Chance(10)) s["database"] = database;
  if (!downstream.is_null() || in.Chance(10)) s["downstream"] = downstream;
  s["producers"] = Producers(in, c);
  s["backlog"] = Backlog(in, c);
  if (s["producers"].empty() && s["backlog"].empty()) {
    // Something must be published: one message at the start.
    s["producers"].push_back(
        {{"kind", c.kinds.front().name}, {"burst", {{"at_s", 0}, {"count", 1}}}});
    if (c.kinds.front().needs_tenant) s["producers"][0]["fields"] = {{"tenant", "acme"}};
  }
  s["retry"] = Retry(in);
  s["faults"] = Faults(in, c);
  s["drains"] = Drains(in, c);
  s["alerts"] = Alerts(in, c);
  s["expect"] = Expect(in, c);
  LambdaEsm(in, c, s);
  Autoscale(in, c, s);
  return s.dump(1);
}

}  // namespace drainsim::fuzz
