// The lines of a message's life; the "why" paragraph is in explain_why.cc.
#include "reports/explain_report.h"

#include <algorithm>
#include <cstdio>
#include <set>
#include <vector>

#include "reports/explain_rules.h"
#include "reports/life_text.h"
#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

using model::LifeEvent;
using Type = model::LifeEvent::Type;

std::string Line(engine::Instant at, const std::string& text) {
  char time[40];
  std::snprintf(time, sizeof(time), "%12s s  ", Seconds3(at).c_str());
  return time + text + "\n";
}

std::string Backoff(engine::Instant from, engine::Instant until) {
  char text[40];
  std::snprintf(text, sizeof(text), "%.3f", (until - from).seconds());
  return text;
}

std::string PublishText(const LifeEvent& e, const model::MessageLife& life,
                        const ExplainScene& scene) {
  if (!life.from_backlog) {
    return "published by producer " + std::to_string(life.source_index) + " (" +
           scene.producer_kinds.at(life.source_index) + ")";
  }
  const config::DlqReason reason = scene.backlog_reasons.at(life.source_index);
  std::string text = "in backlog entry " + std::to_string(life.source_index) + " at the start, ";
  switch (e.to) {
    case model::MessageState::kDeadLettered:
      text += "in the DLQ (reason " + std::string(config::NameOf(reason)) + ")";
      break;
    case model::MessageState::kDelayed:
      text += "waiting in the delay queue";
      break;
    default:
      text += "in the main queue";
      break;
  }
  return text + "; first published at " + Seconds3(life.published_at) + " s";
}

// A return the broker's delayed retry (broker.delayed_retry) holds: the return's own words, then
// the wait.
std::string DelayedReturnText(const LifeEvent& e) {
  using C = model::TransitionCause;
  std::string what = e.cause == C::kCrashRequeue        ? "returned: its worker crashed"
                     : e.cause == C::kVisibilityTimeout ? "returned by the consumer timeout"
                                                        : "returned by its consumer";
  return what + "; the broker's delayed retry holds it until " + Seconds3(e.until) + " s (" +
         Backoff(e.at, e.until) + " s)";
}

std::string TransitionText(const LifeEvent& e, const ExplainScene& scene) {
  using C = model::TransitionCause;
  if (scene.delayed_retry && e.to == model::MessageState::kDelayed &&
      (e.cause == C::kReturned || e.cause == C::kCrashRequeue ||
       e.cause == C::kVisibilityTimeout)) {
    return DelayedReturnText(e);
  }
  if (scene.delayed_retry && e.cause == C::kRetryDue &&
      e.redelivery != model::RedeliveryCause::kNone) {
    return "delayed retry due: back with the returned messages";
  }
  switch (e.cause) {
    case C::kDelivered:
      return "delivered to worker " + std::to_string(e.worker);
    case C::kThrottled:
      return "received by a Lambda poller; the invocation was throttled (every execution "
             "environment busy): not processed, back when its visibility timeout ends";
    case C::kRetryDue:
      return "retry due: back in the main queue";
    case C::kVisibilityTimeout:
      return "visibility timeout: back in the main queue (" +
             std::string(RedeliveryText(e.redelivery)) + ")";
    case C::kCrashRequeue:
      return e.redelivery == model::RedeliveryCause::kCrashAfterCommit
                 ? "requeued: its worker crashed between commit and ack"
                 : "requeued: its worker crashed";
    case C::kBrokerRestart:
      return "requeued: the broker restarted";
    case C::kRetryScheduled:
      return "retry scheduled for " + Seconds3(e.until) + " s (backoff " + Backoff(e.at, e.until) +
             " s)";
    case C::kDeadLettered:
      return "dead-lettered: reason " + std::string(config::NameOf(e.dlq_reason)) + " (after " +
             std::to_string(e.attempt) + " attempts; last error " +
             std::string(config::NameOf(e.error)) + ")";
    case C::kBrokerLost:
      return "discarded by the broker: broker_lost, cause " +
             std::string(model::BrokerLossCauseName(e.loss));
    case C::kDeadLetterWaiting:
      return "refused by the full DLQ (reason " + std::string(config::NameOf(e.dlq_reason)) +
             "): waits in the main queue for room (at-least-once dead-lettering)";
    case C::kReplayed:
      return "replayed by drain " + std::to_string(e.drain) +
             ": back in the main queue, attempts counted from 1 again";
    case C::kParkedByPolicy:
      return "parked by the retry policy (" + std::string(config::NameOf(e.error)) +
             " errors are parked): needs a human";
    case C::kParkedByDrain:
      return "parked by drain " + std::to_string(e.drain) +
             " (its selection does not replay it): needs a human";
    case C::kAcked:
      return "acked: done";
    case C::kExpired:
      return "expired in the DLQ (retention ran out): lost";
    case C::kRejected:
      return "rejected at publish: the main queue was full";
    case C::kReturned:
      return e.to == model::MessageState::kDelayed
                 ? "returned by its consumer; the broker's redelivery backoff holds it"
                 : "returned to the queue by its consumer (nack, reject or abandon)";
    case C::kRetentionExpired:
      return "deleted by main-queue retention before delivery: lost";
    case C::kFailed:
      return "failed: the broker has no DLQ, so it needs a human";
  }
  (void)scene;
  return "";
}

std::string AttemptEndText(const LifeEvent& e, const model::TraceLog& log) {
  const std::string attempt = "attempt " + std::to_string(e.attempt);
  switch (e.outcome) {
    case model::AttemptOutcome::kFailed: {
      std::string text =
          attempt + " failed: " + FailureText(e.error, e.failure, e.fault, log.faults);
      if (!e.current) {
        text +=
            " (a stale copy: the broker had already handed the message out again, so this "
            "failure routes nothing)";
      }
      return text;
    }
    case model::AttemptOutcome::kCrashed:
      return e.during_sleep ? "worker " + std::to_string(e.worker) +
                                  " crashed while it slept through the backoff"
                            : "worker " + std::to_string(e.worker) + " crashed during " + attempt;
    case model::AttemptOutcome::kSuppressed:
    case model::AttemptOutcome::kSucceeded:
      break;
  }
  std::string text = e.outcome == model::AttemptOutcome::kSuppressed
                         ? attempt +
                               " found the claim row (the work was done or in progress "
                               "elsewhere): duplicate suppressed, not run again"
                         : attempt + " succeeded";
  switch (e.ack) {
    case model::AckFate::kAcked:
      return text + "; acked: done";
    case model::AckFate::kLost:
      return text + ", but its ack was lost (ack_loss)";
    case model::AckFate::kBrokerDown:
      return text + ", but its ack was lost: the broker was restarting";
    case model::AckFate::kIgnored:
    case model::AckFate::kNone:
      return text +
             "; its ack was ignored: the message had already been acked or handed out "
             "again";
  }
  return text;
}

// events[i + 1] is of `type`, at the same instant, and recorded right after events[i] (not
// across the life's gap, `gap`: MessageLife::gap_at, or 0 for none).
bool SameInstant(const std::vector<LifeEvent>& events, size_t i, Type type, size_t gap) {
  return i + 1 < events.size() && i + 1 != gap && events[i + 1].type == type &&
         events[i + 1].at == events[i].at;
}

// "attempt 2 started on worker 3", and how long the delivery waited in the worker's prefetch
// buffer when `delivered` (the latest delivery) went to the same worker earlier.
std::string AttemptStartText(const LifeEvent& e, const LifeEvent* delivered) {
  std::string text =
      "attempt " + std::to_string(e.attempt) + " started on worker " + std::to_string(e.worker);
  if (delivered != nullptr && delivered->worker == e.worker && delivered->at < e.at) {
    text +=
        " (after " + Backoff(delivered->at, e.at) + " s in its prefetch buffer, behind other work)";
  }
  return text;
}

// An attempt's commit, or a duplicate execution with its cause.
std::string CommitText(const LifeEvent& e) {
  if (!e.duplicate) return "attempt " + std::to_string(e.attempt) + " committed its work";
  std::string text =
      "ran again although its key had committed: duplicate execution "
      "(cause: " +
      std::string(model::DuplicateCauseName(e.duplicate_cause)) + ")";
  if (e.visible) text += ", visible: its kind's idempotency is none";
  return text;
}

std::string LifeLines(const model::MessageLife& life, const model::TraceLog& log,
                      const ExplainScene& scene) {
  std::string out;
  const std::vector<LifeEvent>& events = life.events;
  const LifeEvent* delivered = nullptr;  // the latest delivery, for the wait in a worker's buffer
  bool committed = false;                // the running attempt committed before it ended
  const size_t gap = life.events_left_out > 0 ? life.gap_at : 0;
  std::set<std::string> rules_named;  // a preset's rule is named once, where it first acted
  bool throttled = false;             // its latest receive was throttled (workers.lambda_esm)
  for (size_t i = 0; i < events.size(); ++i) {
    const LifeEvent& e = events[i];
    if (gap > 0 && i == gap) {
      out += Line(events[i - 1].at, "... " + LifeGapText(life, log.life_events_max));
      delivered = nullptr;
    }
    if (e.type == Type::kTransition && throttled &&
        e.cause == model::TransitionCause::kVisibilityTimeout) {
      // Nobody ran it: the timeout of a throttled receive, not of a failed attempt.
      out += Line(e.at, "visibility timeout of the throttled receive: back in the main queue");
      throttled = false;
      continue;
    }
    if (e.type == Type::kTransition) throttled = e.cause == model::TransitionCause::kThrottled;
    if (e.type == Type::kTransition && e.cause == model::TransitionCause::kDelivered) {
      delivered = &e;
    }
    if (e.type == Type::kAttemptStart) committed = false;
    switch (e.type) {
      case Type::kPublish:
        out += Line(e.at, PublishText(e, life, scene));
        break;
      case Type::kTransition:
        // An ack is said by the attempt that sent it (the next event, at the same instant).
        if (e.cause == model::TransitionCause::kAcked &&
            SameInstant(events, i, Type::kAttemptEnd, gap)) {
          break;
        }
        if (e.cause == model::TransitionCause::kDelivered &&
            SameInstant(events, i, Type::kAttemptStart, gap) && events[i + 1].worker == e.worker) {
          out += Line(e.at, TransitionText(e, scene) + ", attempt " +
                                std::to_string(events[i + 1].attempt) + " started");
          ++i;
          break;
        }
        out += Line(e.at, TransitionText(e, scene));
        break;
      case Type::kAttemptStart:
        out += Line(e.at, AttemptStartText(e, delivered));
        break;
      case Type::kAttemptEnd:
        if (e.outcome == model::AttemptOutcome::kCrashed && committed) {
          out += Line(e.at, "worker " + std::to_string(e.worker) +
                                " crashed between the commit "
                                "and the ack of attempt " +
                                std::to_string(e.attempt));
          break;
        }
        out += Line(e.at, AttemptEndText(e, log));
        break;
      case Type::kCommit:
        committed = true;
        out += Line(e.at, CommitText(e));
        break;
      case Type::kSleep:
        out += Line(e.at, "sleeping in the consumer until " + Seconds3(e.until) + " s (backoff " +
                              Backoff(e.at, e.until) + " s), holding its slot");
        break;
    }
    out += RuleLines(e, scene, &rules_named);
  }
  return out;
}

// `text` after `prefix`, wrapped at word boundaries to lines of at most `width` characters
// (longer words stay whole), continuation lines indented as deep as the prefix.
std::string Wrap(const std::string& prefix, const std::string& text, size_t width = 100) {
  std::string out = prefix;
  size_t line_length = prefix.size();
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const size_t word = end - start;
    if (line_length > prefix.size() && line_length + 1 + word > width) {
      out += "\n" + std::string(prefix.size(), ' ');
      line_length = prefix.size();
    } else if (line_length > prefix.size()) {
      out += ' ';
      ++line_length;
    }
    out.append(text, start, word);
    line_length += word;
    start = end + 1;
  }
  return out + "\n";
}

// RabbitMQ's name for why a message was dead-lettered: the application rejecting it without
// requeue is "rejected"; the broker's own reasons keep their names.
std::string_view RabbitDeathReason(config::DlqReason reason) {
  switch (reason) {
    case config::DlqReason::kMaxLength:
      return "maxlen";
    case config::DlqReason::kDeliveryLimit:
      return "delivery_limit";
    default:
      return "rejected";
  }
}

// The message's dead-letter history, folded the way RabbitMQ's x-death header folds it: one
// entry per reason with a count and the time of the latest, most recent first, plus the first
// death's reason (x-first-death-reason). Empty if it was never dead-lettered.
std::string DeathHistory(const model::MessageLife& life, const ExplainScene& scene) {
  struct Death {
    std::string reason;
    int64_t count = 0;
    engine::Instant last;
  };
  const bool rabbit = scene.rabbitmq_quorum;
  std::vector<Death> deaths;
  std::string first;
  for (const LifeEvent& e : life.events) {
    if (e.type != Type::kTransition || e.cause != model::TransitionCause::kDeadLettered) continue;
    const std::string reason(rabbit ? RabbitDeathReason(e.dlq_reason)
                                    : config::NameOf(e.dlq_reason));
    if (first.empty()) first = reason;
    auto it = std::find_if(deaths.begin(), deaths.end(),
                           [&](const Death& d) { return d.reason == reason; });
    if (it == deaths.end()) {
      deaths.push_back(Death{reason, 0, e.at});
      it = deaths.end() - 1;
    }
    ++it->count;
    it->last = e.at;
  }
  if (deaths.empty()) return "";
  if (life.events_left_out > 0) first += " (counted over the recorded events only)";
  std::sort(deaths.begin(), deaths.end(),
            [](const Death& a, const Death& b) { return a.last > b.last; });
  std::string text;
  for (const Death& d : deaths) {
    if (!text.empty()) text += "; ";
    text += "{queue main, reason " + d.reason + ", count " + std::to_string(d.count) + ", time " +
            Seconds3(d.last) + " s}";
  }
  return text + "; x-first-death-reason " + first;
}

std::string ExplainHeader(const model::MessageLife& life, const model::TraceLog& log) {
  std::string text = "message " + std::to_string(life.id);
  text += " (kind " + (life.kind_index < log.kinds.size() ? log.kinds[life.kind_index] : "?");
  if (!life.key.empty()) text += ", key " + life.key;
  return text + ")\n";
}

}  // namespace

std::string ExplainLives(const model::TraceLog& log, const ExplainScene& scene) {
  DRAINSIM_CHECK(!log.lives.empty());
  std::string out;
  int64_t commits = 0;
  int64_t duplicates = 0;
  int64_t left_out = 0;  // events not recorded, over all lives
  for (const model::MessageLife& life : log.lives) {
    if (!out.empty()) out += "\n";
    out += ExplainHeader(life, log);
    out += LifeLines(life, log, scene);
    if (const std::string deaths = DeathHistory(life, scene); !deaths.empty()) {
      out += Wrap("x-death: ", deaths);
    }
    out += Wrap("why: ", WhyParagraph(life, log, scene));
    left_out += life.events_left_out;
    for (const LifeEvent& e : life.events) {
      if (e.type != Type::kCommit) continue;
      ++commits;
      if (e.duplicate) ++duplicates;
    }
  }
  if (log.lives.size() > 1) {
    out += "\n" + Wrap("key " + log.lives.front().key + ": ",
                       std::to_string(log.lives.size()) +
                           " messages carry it; their work committed " + std::to_string(commits) +
                           " times (" + std::to_string(duplicates) + " duplicate executions)" +
                           (left_out > 0 ? ", counted over the recorded events only." : "."));
  }
  return out;
}

}  // namespace drainsim::reports
