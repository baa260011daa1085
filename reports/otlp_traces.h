// otlp-traces.json: the run's attempts as OpenTelemetry spans in OTLP/JSON, for the tools users
// already have (Jaeger, Tempo, Grafana, an OpenTelemetry Collector's otlpjsonfile receiver) and
// for `drainsim fit`. docs/TELEMETRY.md has the layout in full.
//
// Layout: {"resourceSpans": [{"resource", "scopeSpans": [{"scope", "spans": [...]}]}]}, one span
// per handler attempt (backoff sleeps are not attempts), following the OpenTelemetry messaging
// semantic conventions for a consumer's "process" span:
//   kind 5 (SPAN_KIND_CONSUMER); name "process <kind>"; attributes messaging.system (from the
//   broker preset: rabbitmq, aws_sqs, gcp_pubsub, servicebus, sidekiq, celery, bullmq; else
//   "drainsim"), messaging.operation.type and messaging.operation.name "process",
//   messaging.destination.name (the message kind: drainsim's one main queue, named per kind),
//   messaging.message.id, the broker's delivery count where the conventions name one
//   (messaging.gcp_pubsub.message.delivery_attempt, messaging.servicebus.message.delivery_count),
//   and drainsim.* (kind, attempt, execution, worker, outcome, duplicate).
//   A failed attempt has status ERROR (code 2) with the failure in words, error.type = its error
//   class, and an "exception" event at its end with exception.type = the error class
//   (rate_limited, transient, permanent, unknown) and exception.message = what failed. A crashed
//   attempt is ERROR with error.type and exception.type "worker_crashed". Others leave the status
//   unset, as the conventions ask of success.
// Database statements (recorded with model::TraceOptions::statements): each a CLIENT span (kind
//   3), child of its attempt's span (parentSpanId), with the OpenTelemetry database conventions:
//   db.system.name "postgresql", db.namespace "drainsim", db.operation.name "INSERT" (the
//   idempotency claim, db.collection.name "drainsim_claims") or "EXECUTE" (a db_op); a timed-out
//   or refused one has status ERROR, error.type "timeout" / "refused" and
//   db.response.status_code (SQLSTATE 57014 / 57P03). Written after the attempt spans, in the
//   order they ended, only for attempts that are spans; at most kOtlpStatementsMax.
// Ids: a trace per message, traceId = 16 hex digits of the seed then 16 of (message id + 1);
//   spanId = ((message id + 1) << 20) + execution, the execution being the attempt's number over
//   all the message's lives (from 1). An attempt after the first links to the one before it.
// Times: simulated time as unix nanoseconds from kOtlpEpochUnixNanos (2026-01-01T00:00:00Z).
//
// Contract:
//  (1) A pure function of its ReportInput: byte-identical output for the same run.
//  (2) Bounded: at most kOtlpSpansMax spans, the first attempts to start (so each message's
//      spans are its first executions, and ids and links are exact); the resource's
//      drainsim.otlp.* attributes say how many attempts the run made and how many were left out.
//  (3) Without a TraceLog (ReportInput::trace null) it writes no span and says so.
//  (4) Ids are unique: spanId is injective for message ids below 2^43 and executions below 2^20
//      (kOtlpSpansMax < 2^20); a statement's has the top bit set and its ordinal below it.
#pragma once

#include <cstddef>
#include <string>

#include "reports/report_input.h"

namespace drainsim::reports {

// The attempt spans written at most: the trace format's bound (model::TraceOptions::spans_max).
inline constexpr size_t kOtlpSpansMax = 200'000;

// Database statement spans written at most (the recorder's bound,
// model::TraceOptions::statements_max).
inline constexpr size_t kOtlpStatementsMax = 200'000;

std::string OtlpTraces(const ReportInput& input);

}  // namespace drainsim::reports
