// Checks that need the whole scenario: key_pattern placeholders against producers' fields,
// sections that kinds rely on, and the estimate of how many messages a run would publish.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sim/config/enum_names.h"
#include "sim/config/memory_cost.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario::internal {

namespace {

// The limit on what one run may publish: at most 1e9 messages. What a run may hold pending at
// once is capped as it runs (sim/config/memory_cost.h); the loader refuses only what is certain
// to exceed that cap's default: messages published together before any worker could take one
// (the backlog at t = 0, one unspaced fanout or burst firing).
constexpr double kMessagesMax = 1e9;

struct Contribution {
  double messages = 0;
  std::string pointer;
  double bytes_per_message = config::kBytesPerPublishedMessage;
  // Messages published in one event, all pending together at that instant: the backlog's
  // count, or one firing of a fanout without publish_rate_per_s or of a burst.
  double at_once = 0;
};

double Seconds(engine::Duration d) { return d.seconds(); }

// Times a trigger at `at`, repeated `every`, fires before `until`.
double Firings(engine::Instant at, std::optional<engine::Duration> every, engine::Instant until) {
  if (!every || every->micros() <= 0) return 1;
  return std::floor(Seconds(until - at) / Seconds(*every)) + 1;
}

std::vector<Contribution> Contributions(const config::Scenario& s, const Context& c) {
  std::vector<Contribution> out;
  const engine::Instant until = s.run.until;
  for (size_t i = 0; i < s.producers.size(); ++i) {
    const config::Producer& p = s.producers[i];
    const std::string base = "/producers/" + std::to_string(c.producer_origins[i].index) + "/" +
                             std::string(config::NameOf(p.shape()));
    if (const auto* f = std::get_if<config::FanoutSchedule>(&p.schedule)) {
      double per_firing = static_cast<double>(f->count);
      if (f->publish_rate_per_s) {
        per_firing = std::min(per_firing, *f->publish_rate_per_s * Seconds(until - f->at) + 1);
      }
      out.push_back({per_firing * Firings(f->at, f->every, until), base + "/count",
                     config::kBytesPerPublishedMessage,
                     f->publish_rate_per_s ? 0 : static_cast<double>(f->count)});
    } else if (const auto* f = std::get_if<config::ConstantSchedule>(&p.schedule)) {
      out.push_back(
          {f->rate_per_s * Seconds(f->window.until - f->window.from) + 1, base + "/rate_per_s"});
    } else if (const auto* f = std::get_if<config::PoissonSchedule>(&p.schedule)) {
      out.push_back(
          {f->rate_per_s * Seconds(f->window.until - f->window.from) + 1, base + "/rate_per_s"});
    } else if (const auto* f = std::get_if<config::BurstSchedule>(&p.schedule)) {
      out.push_back({static_cast<double>(f->count) * Firings(f->at, f->every, until),
                     base + "/count", config::kBytesPerPublishedMessage,
                     static_cast<double>(f->count)});
    }
  }
  for (size_t i = 0; i < s.backlog.size(); ++i) {
    const bool delayed = s.backlog[i].where == config::BacklogWhere::kDelayed;
    const double count = static_cast<double>(s.backlog[i].count);
    out.push_back({count, "/backlog/" + std::to_string(c.backlog_origins[i].index) + "/count",
                   config::kBytesPerPendingMessage + (delayed ? config::kBytesPerPendingEvent : 0),
                   count});
  }
  return out;
}

std::string Scientific(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1e", value);
  std::string out = text;
  // "5.0e+12" -> "5.0e12": shorter, and how the limits are written.
  const size_t plus = out.find("e+");
  if (plus != std::string::npos) out.erase(plus + 1, 1);
  const size_t zero = out.find("e0");
  if (zero != std::string::npos) out.erase(zero + 1, 1);
  return out;
}

std::string Bytes(double bytes) {
  const char* units[] = {"B", "kB", "MB", "GB", "TB", "PB", "EB", "ZB", "YB"};
  size_t unit = 0;
  while (bytes >= 1000 && unit + 1 < std::size(units)) {
    bytes /= 1000;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.0f %s", bytes, units[unit]);
  return text;
}

// The backlog as a whole (all of it is created at t = 0, before the first event), with the
// pointer of its largest entry; empty when there is none.
Contribution BacklogAtOnce(const std::vector<Contribution>& parts) {
  Contribution backlog;
  double largest = 0;
  double bytes = 0;
  for (const Contribution& part : parts) {
    if (part.pointer.rfind("/backlog/", 0) != 0) continue;
    backlog.at_once += part.at_once;
    bytes += part.at_once * part.bytes_per_message;
    if (part.at_once > largest) {
      largest = part.at_once;
      backlog.pointer = part.pointer;
    }
  }
  if (backlog.at_once > 0) backlog.bytes_per_message = bytes / backlog.at_once;
  return backlog;
}

// Refuses what is certain to exceed the default cap on pending messages: the backlog, or one
// unspaced firing, published in one event (memory_cost.h (3)).
void CheckAtOnce(const std::vector<Contribution>& parts, Context& c) {
  const Contribution backlog = BacklogAtOnce(parts);
  const Contribution* worst = &backlog;
  for (const Contribution& part : parts) {
    if (part.at_once > worst->at_once) worst = &part;
  }
  const double cap = static_cast<double>(config::kPendingMessagesMaxDefault);
  if (worst->at_once <= cap) return;
  const std::string what =
      worst == &backlog ? "the backlog puts about " : "one firing publishes about ";
  c.problems.Add(worst->pointer,
                 what + Scientific(worst->at_once) + " messages in the queue at once (~" +
                     Bytes(worst->at_once * worst->bytes_per_message) + "); at most " +
                     Scientific(cap) +
                     " may be pending at once (the default cap on pending messages: 16 GiB at " +
                     Bytes(config::kBytesPerPendingMessage) + " a message)");
}

void CheckEstimate(const config::Scenario& s, Context& c) {
  if (!c.run_until) return;
  const std::vector<Contribution> parts = Contributions(s, c);
  double total = 0;
  double bytes = 0;
  const Contribution* biggest = nullptr;
  for (const Contribution& part : parts) {
    total += part.messages;
    bytes += part.messages * part.bytes_per_message;
    if (biggest == nullptr || part.messages > biggest->messages) biggest = &part;
  }
  if (biggest == nullptr) return;
  if (total > kMessagesMax) {
    c.problems.Add(biggest->pointer, "scenario would publish about " + Scientific(total) +
                                         " messages (~" + Bytes(bytes) +
                                         " if all pending at once); at most 1e9 are supported");
    return;
  }
  CheckAtOnce(parts, c);
}

// Placeholders of `kind`'s key pattern that `fields` leaves unset.
std::vector<std::string> MissingFields(const config::Kind& kind, const config::Fields& fields) {
  std::vector<std::string> missing;
  const base::Expected<std::vector<std::string>> placeholders = ParseKeyPattern(kind.key_pattern);
  if (!placeholders) return missing;  // ReadKind reported it and kept the default pattern
  for (const std::string& name : *placeholders) {
    // {date} is built in but a field of that name overrides it: either way it is satisfied.
    if (name == "id" || name == "kind" || name == "date" || fields.count(name) > 0) continue;
    if (std::find(missing.begin(), missing.end(), name) == missing.end()) {
      missing.push_back(name);
    }
  }
  return missing;
}

void CheckFields(const config::Scenario& s, const std::string& kind_name,
                 const config::Fields& fields, const std::string& pointer, Problems& problems) {
  const auto kind = s.kinds.find(kind_name);
  if (kind == s.kinds.end()) return;
  for (const std::string& name : MissingFields(kind->second, fields)) {
    problems.Add(pointer, "misses field " + Quote(name) + ", used by the key_pattern " +
                              Quote(kind->second.key_pattern) + " of kind " + Quote(kind_name));
  }
}

std::string WithoutDlqText(config::WithoutDlq without_dlq) {
  switch (without_dlq) {
    case config::WithoutDlq::kDropped:
      return ": messages that would be dead-lettered are dropped, there is no DLQ";
    case config::WithoutDlq::kSkipped:
      return ": the consumer logs and skips a record whose attempts ran out, there is no "
             "dead-letter topic";
    case config::WithoutDlq::kArchived:
      return ": the broker archives a record at its delivery count limit, there is no "
             "dead-letter topic";
    case config::WithoutDlq::kFailed:
      break;
  }
  return ": failed messages are parked as failed:<reason>, there is no DLQ";
}

// Without a dead-letter queue (Celery's preset) nothing can start in one or be replayed from
// one; the model would otherwise invent the queue the broker does not have.
void CheckNoDeadLetterQueue(const config::Scenario& s, Context& c) {
  if (s.broker.dead_letter_queue) return;
  const std::string why =
      "broker.dead_letter_queue is false" +
      (s.broker.preset ? " (preset \"" + std::string(config::NameOf(*s.broker.preset)) + "\")"
                       : std::string()) +
      WithoutDlqText(s.broker.without_dlq);
  for (size_t i = 0; i < s.backlog.size(); ++i) {
    if (s.backlog[i].where != config::BacklogWhere::kDlq) continue;
    c.problems.Add("/backlog/" + std::to_string(c.backlog_origins[i].index) + "/where",
                   "puts messages in the DLQ, but " + why);
  }
  for (size_t i = 0; i < s.drains.size(); ++i) {
    c.problems.Add("/drains/" + std::to_string(c.drain_origins[i]), "replays the DLQ, but " + why);
  }
}

// The dead-lettering settings that only mean something together: without_dlq without a DLQ, a
// strategy and a refusing DLQ with one, a refusing DLQ with a length to refuse at and no trim
// that would make room instead.
void CheckDeadLetterSettings(const config::Broker& b, Context& c) {
  if (b.dead_letter_queue && b.without_dlq != config::WithoutDlq::kFailed) {
    c.problems.Add("/broker/without_dlq", "applies only with dead_letter_queue false");
  }
  if (!b.dead_letter_queue && b.dead_letter_strategy != config::DeadLetterStrategy::kAtMostOnce) {
    c.problems.Add("/broker/dead_letter_strategy",
                   "applies only with a DLQ (dead_letter_queue is false)");
  }
  if (b.dlq_overflow != config::Overflow::kRejectPublish) return;
  if (!b.dead_letter_queue) {
    c.problems.Add("/broker/dlq_overflow", "applies only with a DLQ (dead_letter_queue is false)");
  } else if (!b.dlq_max_length) {
    c.problems.Add("/broker/dlq_overflow",
                   "reject_publish needs broker.dlq_max_length: a DLQ without a length cap "
                   "never refuses");
  } else if (b.dlq_trim == config::DlqTrim::kOnDeadLetter) {
    c.problems.Add("/broker/dlq_overflow",
                   "reject_publish refuses dead letters at dlq_max_length, but dlq_trim "
                   "on_dead_letter removes the oldest to make room: choose one");
  }
}

// ack_pending_max stalls only messages never delivered. A redelivery queued behind such a message
// (requeue_position tail or head) would wait for a slot only its own settling frees: the run
// would stall for ever. JetStream serves redeliveries first, and so must the scenario.
void CheckAckPending(const config::Broker& b, Context& c) {
  if (!b.ack_pending_max) return;
  if (b.requeue_position == config::RequeuePosition::kRedeliveriesFirst) return;
  c.problems.Add("/broker/ack_pending_max",
                 "needs requeue_position \"redeliveries_first\" (got " +
                     Quote(config::NameOf(b.requeue_position)) +
                     "): behind a message never delivered, a redelivery would wait for a slot "
                     "only its own settling frees");
}

// Two broker-side delays of one return would need an order nobody documents: one at a time.
void CheckDelayedRetry(const config::Broker& b, Context& c) {
  if (!b.delayed_retry || !b.redelivery_backoff) return;
  c.problems.Add("/broker/delayed_retry",
                 "and redelivery_backoff both delay a returned message: set one of them");
}

}  // namespace

void CheckScenario(const config::Scenario& s, Context& c) {
  CheckNoDeadLetterQueue(s, c);
  CheckDeadLetterSettings(s.broker, c);
  CheckAckPending(s.broker, c);
  CheckDelayedRetry(s.broker, c);
  CheckConsumerShapes(s, c);  // check_consumers.cc
  for (size_t i = 0; i < s.producers.size(); ++i) {
    if (!c.producer_origins[i].fields_ok) continue;
    CheckFields(s, s.producers[i].kind, s.producers[i].fields,
                "/producers/" + std::to_string(c.producer_origins[i].index) + "/fields",
                c.problems);
  }
  for (size_t i = 0; i < s.backlog.size(); ++i) {
    if (!c.backlog_origins[i].fields_ok) continue;
    CheckFields(s, s.backlog[i].kind, s.backlog[i].fields,
                "/backlog/" + std::to_string(c.backlog_origins[i].index) + "/fields", c.problems);
  }
  for (const auto& [name, kind] : s.kinds) {
    const std::string handler = ChildPointer("/kinds", name) + "/handler";
    if (kind.handler.db_ops > 0 && !c.has_database) {
      c.problems.Add(handler + "/db_ops",
                     "needs a 'database' section, and the scenario has none (got " +
                         std::to_string(kind.handler.db_ops) + ")");
    }
    if (kind.handler.downstream_calls > 0 && !c.has_downstream) {
      c.problems.Add(handler + "/downstream_calls",
                     "needs a 'downstream' section, and the scenario has none (got " +
                         std::to_string(kind.handler.downstream_calls) + ")");
    }
  }
  CheckEstimate(s, c);
}

}  // namespace drainsim::scenario::internal
