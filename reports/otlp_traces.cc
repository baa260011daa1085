#include "reports/otlp_traces.h"

#include <unordered_map>

#include "reports/life_text.h"
#include "reports/metrics.h"
#include "reports/otlp_json.h"
#include "reports/trace_events.h"
#include "reports/trace_outcomes.h"
#include "sim/base/check.h"
#include "sim/config/enum_names.h"

namespace drainsim::reports {

namespace {

constexpr int kSpanKindConsumer = 5;  // opentelemetry.proto.trace.v1.Span.SpanKind
constexpr int kStatusCodeError = 2;   // opentelemetry.proto.trace.v1.Status.StatusCode
constexpr int kExecutionBits = 20;
static_assert(kOtlpSpansMax < (size_t{1} << kExecutionBits));

// messaging.system for the broker being modelled: the conventions' well-known values where
// there is one, the product's name otherwise, "drainsim" for drainsim's own broker.
std::string_view MessagingSystem(const std::optional<config::BrokerPreset>& preset) {
  if (!preset) return "drainsim";
  switch (*preset) {
    case config::BrokerPreset::kSqs:
      return "aws_sqs";
    case config::BrokerPreset::kRabbitmqQuorum:
      return "rabbitmq";
    case config::BrokerPreset::kSidekiq:
      return "sidekiq";
    case config::BrokerPreset::kCelery:
      return "celery";
    case config::BrokerPreset::kBullmq:
      return "bullmq";
    case config::BrokerPreset::kPubsub:
      return "gcp_pubsub";
    case config::BrokerPreset::kAzureServiceBus:
      return "servicebus";
    case config::BrokerPreset::kNatsJetstream:
      return "nats";
    case config::BrokerPreset::kKafka:
    case config::BrokerPreset::kKafkaShare:
      return "kafka";
  }
  return "drainsim";
}

// The conventions' delivery-count attribute for the system, or "" when they name none.
std::string_view DeliveryCountKey(std::string_view system) {
  if (system == "gcp_pubsub") return "messaging.gcp_pubsub.message.delivery_attempt";
  if (system == "servicebus") return "messaging.servicebus.message.delivery_count";
  return "";
}

std::string TraceId(uint64_t seed, uint64_t message_id) {
  return "\"" + Hex16(seed) + Hex16(message_id + 1) + "\"";
}

std::string SpanId(uint64_t message_id, int64_t execution) {
  DRAINSIM_CHECK(execution > 0 && execution < (int64_t{1} << kExecutionBits));
  return "\"" + Hex16(((message_id + 1) << kExecutionBits) + static_cast<uint64_t>(execution)) +
         "\"";
}

// Status and the exception event of a failed or crashed attempt; "" for the others.
std::string ErrorMembers(const model::AttemptSpan& s, const std::string& words,
                         const std::string& type) {
  OtlpAttributes exception;
  exception.Str("exception.type", type).Str("exception.message", words);
  return ",\"status\":{\"code\":" + std::to_string(kStatusCodeError) +
         ",\"message\":" + JsonQuote(words) + "},\"events\":[{\"timeUnixNano\":" + OtlpTime(s.end) +
         ",\"name\":\"exception\",\"attributes\":" + exception.Text() + "}]";
}

struct SpanContext {
  const model::TraceLog& log;
  uint64_t seed = 0;
  std::string_view system;
};

std::string SpanText(const SpanContext& c, const model::AttemptSpan& s, int64_t execution) {
  const std::string kind = s.kind_index < c.log.kinds.size() ? c.log.kinds[s.kind_index] : "";
  const bool failed = s.ended && s.outcome == model::AttemptOutcome::kFailed;
  const bool crashed = s.ended && s.outcome == model::AttemptOutcome::kCrashed;
  const std::string error_type = failed    ? std::string(config::NameOf(s.error))
                                 : crashed ? "worker_crashed"
                                           : "";
  OtlpAttributes a;
  a.Str("messaging.system", c.system)
      .Str("messaging.operation.type", "process")
      .Str("messaging.operation.name", "process")
      .Str("messaging.destination.name", kind)
      .Str("messaging.message.id", std::to_string(s.message_id));
  if (const std::string_view key = DeliveryCountKey(c.system); !key.empty()) a.Int(key, s.attempt);
  a.Str("drainsim.kind", kind)
      .Int("drainsim.attempt", s.attempt)
      .Int("drainsim.execution", execution)
      .Int("drainsim.worker", s.worker)
      .Str("drainsim.outcome", AttemptClassName(AttemptClassOf(s)));
  if (s.duplicate) a.Str("drainsim.duplicate.cause", model::DuplicateCauseName(s.duplicate_cause));
  if (!error_type.empty()) a.Str("error.type", error_type);

  const std::string trace_id = TraceId(c.seed, s.message_id);
  std::string text = "{\"traceId\":" + trace_id + ",\"spanId\":" + SpanId(s.message_id, execution) +
                     ",\"name\":" + JsonQuote("process " + kind) +
                     ",\"kind\":" + std::to_string(kSpanKindConsumer) +
                     ",\"startTimeUnixNano\":" + OtlpTime(s.start) +
                     ",\"endTimeUnixNano\":" + OtlpTime(s.end) + ",\"attributes\":" + a.Text();
  if (execution > 1) {
    text += ",\"links\":[{\"traceId\":" + trace_id +
            ",\"spanId\":" + SpanId(s.message_id, execution - 1) + "}]";
  }
  if (!error_type.empty()) {
    text += ErrorMembers(s, SpanOutcomeText(s, c.log.faults), error_type);
  }
  return text + "}";
}

constexpr int kSpanKindClient = 3;
// Statement span ids have the top bit set, which no attempt span's has (message ids below 2^43),
// and their ordinal in the file below it.
constexpr uint64_t kStatementIdBit = uint64_t{1} << 63;

// A database statement as the OpenTelemetry database conventions' client span, a child of its
// attempt's span (docs/TELEMETRY.md, "Database statements").
std::string StatementText(const SpanContext& c, const model::StatementSpan& s, uint64_t ordinal) {
  const std::string_view operation = s.claim ? "INSERT" : "EXECUTE";
  const std::string target = s.claim ? "drainsim_claims" : "drainsim";
  OtlpAttributes a;
  a.Str("db.system.name", "postgresql")
      .Str("db.namespace", "drainsim")
      .Str("db.operation.name", operation);
  if (s.claim) a.Str("db.collection.name", target);
  a.Str("drainsim.db.statement", s.claim ? "claim" : "db_op");
  std::string error;
  if (s.failure != model::FailureCause::kNone) {
    // PostgreSQL's SQLSTATE: 57014 query_canceled (statement_timeout), 57P03 cannot_connect_now.
    const bool timeout = s.failure == model::FailureCause::kDbTimeout;
    error = timeout ? "timeout" : "refused";
    a.Str("db.response.status_code", timeout ? "57014" : "57P03").Str("error.type", error);
  }
  std::string text = "{\"traceId\":" + TraceId(c.seed, s.message_id) + ",\"spanId\":\"" +
                     Hex16(kStatementIdBit | ordinal) +
                     "\",\"parentSpanId\":" + SpanId(s.message_id, s.execution) +
                     ",\"name\":" + JsonQuote(std::string(operation) + " " + target) +
                     ",\"kind\":" + std::to_string(kSpanKindClient) +
                     ",\"startTimeUnixNano\":" + OtlpTime(s.start) +
                     ",\"endTimeUnixNano\":" + OtlpTime(s.end) + ",\"attributes\":" + a.Text();
  if (!error.empty()) {
    text += ",\"status\":{\"code\":" + std::to_string(kStatusCodeError) +
            ",\"message\":" + JsonQuote("statement " + error) + "}";
  }
  return text + "}";
}

// The statements of the attempts written (`executions`: per message, how many), at most
// kOtlpStatementsMax; what the resource says of them when the run made any.
std::string StatementsText(const SpanContext& c,
                           const std::unordered_map<uint64_t, int64_t>& executions,
                           OtlpAttributes& bound) {
  std::string text;
  int64_t written = 0;
  for (const model::StatementSpan& s : c.log.statements) {
    const auto it = executions.find(s.message_id);
    if (it == executions.end() || s.execution > it->second) continue;  // its attempt is not
    if (static_cast<size_t>(written) == kOtlpStatementsMax) break;
    text += ',' + StatementText(c, s, static_cast<uint64_t>(++written));
  }
  const int64_t recorded = static_cast<int64_t>(c.log.statements.size());
  const int64_t left_out = recorded + c.log.statements_left_out - written;
  if (recorded + c.log.statements_left_out > 0) {
    bound.Int("drainsim.otlp.statement_spans", written)
        .Int("drainsim.otlp.statements_left_out", left_out);
  }
  return text;
}

// The spans, and what the resource says of the bound.
std::string SpansText(const ReportInput& input, OtlpAttributes& bound) {
  const model::TraceLog* log = input.trace;
  if (log == nullptr) {
    bound.Int("drainsim.otlp.attempts", input.results.attempts)
        .Int("drainsim.otlp.spans", 0)
        .Int("drainsim.otlp.attempts_left_out", input.results.attempts)
        .Str("drainsim.otlp.note", "attempts were not recorded: no span is written");
    return "";
  }
  const SpanContext context{*log, input.results.seed,
                            MessagingSystem(input.context.marks.broker_preset)};
  std::unordered_map<uint64_t, int64_t> executions;  // message id -> attempts so far
  std::string text;
  int64_t written = 0;
  for (const model::AttemptSpan& s : log->spans) {  // in start order
    if (s.sleep) continue;
    if (static_cast<size_t>(written) == kOtlpSpansMax) break;
    if (written > 0) text += ',';
    text += SpanText(context, s, ++executions[s.message_id]);
    ++written;
  }
  const int64_t left_out = log->attempts_seen - written;
  bound.Int("drainsim.otlp.attempts", log->attempts_seen)
      .Int("drainsim.otlp.spans", written)
      .Int("drainsim.otlp.attempts_left_out", left_out)
      .Str("drainsim.otlp.note",
           left_out == 0
               ? "every attempt of the run is a span"
               : "only the first " + std::to_string(written) +
                     " attempts to start are spans (at most " + std::to_string(kOtlpSpansMax) +
                     "); " + std::to_string(left_out) + " later attempts are left out");
  // After the attempts, in the file and in what the resource says.
  if (written > 0) text += StatementsText(context, executions, bound);
  return text;
}

}  // namespace

std::string OtlpTraces(const ReportInput& input) {
  const OtlpOrigin origin{input.results.scenario_name, input.context.scenario_path,
                          input.context.scenario_hash, input.context.drainsim_version,
                          input.results.seed,          input.results.fingerprint};
  OtlpAttributes bound;
  const std::string spans = SpansText(input, bound);
  return "{\"resourceSpans\":[{\"resource\":" + OtlpResource(origin, bound) +
         ",\"scopeSpans\":[{\"scope\":" + OtlpScope(origin) + ",\"spans\":[" + spans + "]}]}]}\n";
}

}  // namespace drainsim::reports
