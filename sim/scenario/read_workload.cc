// Readers for the work: kinds (with handlers and key patterns), producers and the backlog.
#include <cmath>

#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

constexpr size_t kKindsMax = 1000;
constexpr size_t kProducersMax = 1000;
constexpr size_t kBacklogMax = 1000;
constexpr size_t kKeyPatternBytesMax = 200;
constexpr double kCountMax = 1e9;
constexpr double kOpsMax = 1000;
constexpr double kAttemptsMax = 1000;

bool IsKindName(std::string_view name) {
  if (name.empty() || name.size() > config::kNameBytesMax) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    const char c = name[i];
    const bool alnum = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
    if (!alnum && !(i > 0 && (c == '_' || c == '.' || c == '-'))) return false;
  }
  return true;
}

void ReadHandler(const Node& node, config::Handler* handler) {
  ObjectReader o(node);
  if (!o.valid()) return;
  if (auto d = ReadDistribution(o.Optional("validate_ms"))) handler->validate_ms = *d;
  const Node db_ops_node = o.Optional("db_ops");
  if (auto n = ReadInt(db_ops_node, Range::Closed(0, kOpsMax))) handler->db_ops = *n;
  const Node db_op_ms = o.Optional("db_op_ms");
  handler->db_op_ms = ReadDistribution(NullAsAbsent(db_op_ms));
  if (handler->db_ops > 0 && !db_op_ms.given()) {
    db_op_ms.Error("is required when db_ops > 0 (db_ops is " + std::to_string(handler->db_ops) +
                   ")");
  }
  if (auto n = ReadInt(o.Optional("downstream_calls"), Range::Closed(0, kOpsMax))) {
    handler->downstream_calls = *n;
  }
  if (auto d = ReadDistribution(o.Optional("cpu_ms"))) handler->cpu_ms = *d;
  o.Finish();
}

void ReadKind(const Node& node, config::Kind* kind) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  if (auto v = ReadEnum<config::Idempotency>(o.Optional("idempotency"))) kind->idempotency = *v;
  const Node pattern_node = o.Optional("key_pattern");
  if (auto pattern = ReadString(pattern_node, kKeyPatternBytesMax, false)) {
    if (const base::Expected<std::vector<std::string>> parsed = ParseKeyPattern(*pattern)) {
      kind->key_pattern = *pattern;
    } else {
      pattern_node.Error(parsed.error() + " (got " + Quote(*pattern) + ")");
    }
  }
  ReadHandler(o.Optional("handler"), &kind->handler);
  o.Finish();
}

std::optional<int64_t> ReadCount(const Node& node) {
  return ReadInt(node, Range::Closed(1, kCountMax));
}

std::optional<engine::Duration> ReadEvery(const Node& node) {
  return ReadSeconds(NullAsAbsent(node), Range::Above(0));
}

std::optional<config::Producer::Schedule> ReadSchedule(config::ProducerShape shape,
                                                       const Node& node, const Context& c) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return std::nullopt;
  }
  std::optional<config::Producer::Schedule> out;
  switch (shape) {
    case config::ProducerShape::kFanout: {
      auto at = ReadAt(o.Required("at_s"), c);
      auto count = ReadCount(o.Required("count"));
      const Node rate_node = NullAsAbsent(o.Optional("publish_rate_per_s"));
      auto rate = ReadNumber(rate_node, Range::AboveAtMost(0, kRateMax));
      const Node every_node = o.Optional("every_s");
      auto every = ReadEvery(every_node);
      // A trigger fires again only once its previous fan-out has published everything: the
      // model keeps one loop per producer (a shorter period made it schedule into the past).
      if (count && rate && every) {
        const double publishing_s = static_cast<double>(*count - 1) / *rate;
        if (every->micros() < static_cast<int64_t>(std::nearbyint(publishing_s * 1e6))) {
          every_node.Error(
              "must be at least the time one fan-out takes to publish, (count - 1) / "
              "publish_rate_per_s = " +
              FormatNumber(publishing_s) + " s (got " + FormatNumber(every->seconds()) + ")");
          every.reset();
        }
      }
      if (at && count && (rate || !rate_node.present()) && (every || !every_node.given())) {
        out = config::FanoutSchedule{*at, *count, rate, every};
      }
      break;
    }
    case config::ProducerShape::kConstant:
    case config::ProducerShape::kPoisson: {
      auto rate = ReadNumber(o.Required("rate_per_s"), Range::AboveAtMost(0, kRateMax));
      config::Window window;
      const bool window_ok = ReadWindow(o, c, false, &window);
      // `drainsim fit`'s provenance of the rate: Poisson, or constant for regular arrivals.
      const Node fitted_node = o.Optional("fitted");
      const std::optional<config::Fitted> fitted = ReadFitted(fitted_node);
      if (fitted) o.node().problems().fitted[o.node().pointer()] = *fitted;
      const bool fitted_ok = !fitted_node.present() || fitted.has_value();
      if (rate && window_ok && fitted_ok) {
        if (shape == config::ProducerShape::kConstant) {
          out = config::ConstantSchedule{*rate, window};
        } else {
          out = config::PoissonSchedule{*rate, window};
        }
      }
      break;
    }
    case config::ProducerShape::kBurst: {
      auto at = ReadAt(o.Required("at_s"), c);
      auto count = ReadCount(o.Required("count"));
      const Node every_node = o.Optional("every_s");
      auto every = ReadEvery(every_node);
      if (at && count && (every || !every_node.given()))
        out = config::BurstSchedule{*at, *count, every};
      break;
    }
  }
  o.Finish();
  return out;
}

void ReadProducer(const Node& node, size_t index, Context& c,
                  std::vector<config::Producer>* producers) {
  ObjectReader o(node);
  if (o.valid()) {
    config::Producer producer;
    auto kind = ReadKindRef(o.Required("kind"), c);
    const bool fields_ok = ReadFields(o.Optional("fields"), &producer.fields);
    std::vector<config::ProducerShape> shapes;
    for (const auto& entry : config::EnumNames<config::ProducerShape>()) {
      if (o.Has(entry.name)) shapes.push_back(entry.value);
    }
    std::optional<config::Producer::Schedule> schedule;
    if (shapes.size() == 1) {
      schedule = ReadSchedule(shapes[0], o.Optional(config::NameOf(shapes[0])), c);
    } else {
      for (const auto& entry : config::EnumNames<config::ProducerShape>()) o.Optional(entry.name);
      node.Error(shapes.empty()
                     ? "needs a schedule: one of fanout, constant, poisson, burst"
                     : "has " + std::to_string(shapes.size()) +
                           " schedules; give exactly one of fanout, constant, poisson, burst");
    }
    o.Finish();
    if (kind && schedule) {
      producer.kind = *kind;
      producer.schedule = *schedule;
      producers->push_back(std::move(producer));
      c.producer_origins.push_back({index, fields_ok});
    }
  } else if (node.is_null()) {
    node.TypeError("an object");
  }
}

void ReadBacklogEntry(const Node& node, size_t index, Context& c,
                      std::vector<config::BacklogEntry>* backlog) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  config::BacklogEntry entry;
  auto where = ReadEnum<config::BacklogWhere>(o.Required("where"));
  auto kind = ReadKindRef(o.Required("kind"), c);
  auto count = ReadCount(o.Required("count"));
  bool ok = where && kind && count;
  if (auto age = ReadSeconds(o.Optional("age_s"), Range::AtLeast(0))) {
    entry.age = *age;
  } else {
    ok = ok && !o.Has("age_s");
  }
  const bool fields_ok = ReadFields(o.Optional("fields"), &entry.fields);
  // Which keys apply depends on `where`; with an unreadable `where` accept them all so that
  // only the real mistake is reported.
  const bool any = !where.has_value();
  const bool failed = any || *where != config::BacklogWhere::kMain;
  entry.attempts = failed ? 1 : 0;
  if (auto n =
          ReadInt(o.Optional("attempts"), Range::Closed(failed && !any ? 1 : 0, kAttemptsMax))) {
    entry.attempts = *n;
  }
  if (failed) {
    entry.error =
        ReadEnum<config::ErrorClass>(o.Optional("error")).value_or(config::ErrorClass::kTransient);
  }
  if (any || *where == config::BacklogWhere::kDlq) {
    entry.reason =
        ReadEnum<config::DlqReason>(o.Optional("reason")).value_or(config::DlqReason::kMaxAttempts);
  }
  if (any || *where == config::BacklogWhere::kDelayed) {
    const Node due = o.Optional("due_in_s");
    auto due_in = ReadSeconds(due, Range::AtLeast(0));
    if (due_in && c.run_until && engine::Instant::Zero() + *due_in >= *c.run_until) {
      due.Error("must be < " + RunEndText(c) + " (got " + Describe(due.json()) + ")");
      ok = false;
    }
    entry.due_in = due_in.value_or(engine::Duration::Zero());
  }
  o.Finish(where ? "for where '" + std::string(config::NameOf(*where)) + "'" : "");
  if (!ok || any) return;
  if (*where != config::BacklogWhere::kDlq) entry.reason.reset();
  if (*where != config::BacklogWhere::kDelayed) entry.due_in.reset();
  entry.where = *where;
  entry.kind = *kind;
  entry.count = *count;
  backlog->push_back(std::move(entry));
  c.backlog_origins.push_back({index, fields_ok});
}

}  // namespace

base::Expected<std::vector<std::string>> ParseKeyPattern(std::string_view pattern) {
  std::vector<std::string> placeholders;
  size_t i = 0;
  while (i < pattern.size()) {
    const char c = pattern[i];
    if (c == '}') return base::Failure{"has a '}' without its '{' at byte " + std::to_string(i)};
    if (c != '{') {
      ++i;
      continue;
    }
    const size_t close = pattern.find_first_of("{}", i + 1);
    if (close == std::string_view::npos || pattern[close] != '}') {
      return base::Failure{"has a '{' without its '}' at byte " + std::to_string(i)};
    }
    const std::string_view name = pattern.substr(i + 1, close - i - 1);
    if (!IsFieldName(name)) {
      return base::Failure{"placeholder {" + std::string(name.substr(0, 64)) +
                           "} must be a name matching [A-Za-z_][A-Za-z0-9_]*"};
    }
    placeholders.emplace_back(name);
    i = close + 1;
  }
  return placeholders;
}

void ReadKinds(const Node& node, Context& c, std::map<std::string, config::Kind>* kinds) {
  c.kinds_known = node.given() && node.json().is_object();
  for (auto& [name, value] : MapEntries(node, 1, kKindsMax)) {
    // Known even when invalid, so references to it are not reported a second time.
    c.kinds.insert(name);
    if (!IsKindName(name)) {
      value.Error("kind names must match [A-Za-z0-9][A-Za-z0-9_.-]{0,63}");
      continue;
    }
    config::Kind kind;
    ReadKind(value, &kind);
    (*kinds)[name] = std::move(kind);
  }
}

void ReadProducers(const Node& node, Context& c, std::vector<config::Producer>* producers) {
  const std::vector<Node> items = ArrayItems(node, 0, kProducersMax);
  for (size_t i = 0; i < items.size(); ++i) ReadProducer(items[i], i, c, producers);
}

void ReadBacklog(const Node& node, Context& c, std::vector<config::BacklogEntry>* backlog) {
  const std::vector<Node> items = ArrayItems(node, 0, kBacklogMax);
  for (size_t i = 0; i < items.size(); ++i) ReadBacklogEntry(items[i], i, c, backlog);
}

}  // namespace drainsim::scenario::internal
