// Drains for real: the scenario's DLQ backlog put into the run's DLQ before the run starts, and
// the drain plan run against the broker at its start time (issue 14).
//
// The drainer takes the DLQ's messages one by one with basic.get (manual acks) and, as the
// simulation's drain does (sim/model/world_drain.cc):
//   selected and not yet replayed by this drain -> republished to the main queue at the plan's
//       pace (a token bucket on the wall clock: drip rate_per_s/burst, bounded rate_per_s,
//       bulk unpaced), with a publisher confirm, and only then acked from the DLQ;
//   not selected, and in the DLQ when the drain started, with `others: park` -> published to
//       the parking queue with a confirm, then acked;
//   anything else (left, back in the DLQ after its replay, past the limit) -> held unacked and
//       returned to the DLQ when the drain ends (basic.nack with requeue, then the connection
//       closes), so that the DLQ is left as the simulation leaves it.
// A republished message is a new message to RabbitMQ: its x-delivery-count starts over, as the
// simulation's replay resets the broker's count. The application's attempt count follows
// broker.redrive_attempts through the header x-drainsim-life-base (worker.cc: attempt in this
// life = the harness's deliveries of the id - life base): reset starts at attempt 1, keep goes
// on from the attempts of the last life less one (Sidekiq's manual retry).
//
// Contract:
//  (1) A DLQ message is acked only after its copy's publish was confirmed, so a crash between
//      the two leaves two copies (a duplicate, never a loss).
//  (2) The messages in the DLQ when the drain starts (their number read then) are sorted first:
//      only they can be parked by `others: park`, as in the simulation.
//  (3) At most `limit` replays; at the limit the drain ends and takes nothing more, except to
//      finish sorting the messages of (2).
//  (4) Every wait polls DrainShared::stop, StopRequested() and RunState::failed at least every
//      50 ms; an operating error is RunState::Fail().
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "live/amqp_connection.h"
#include "live/run_state.h"
#include "sim/model/token_bucket.h"

namespace drainsim::live {

// What the simulation's drain selects on, read from a DLQ message: the backlog's headers
// (x-drainsim-dlq-reason, -error) for a message put there before the run, else the broker's
// x-death reason ("delivery_limit"; "rejected" is max_attempts, or not_retryable when the
// error's retry class dead-letters at once) and the error class of its fate (a message with no
// fate failed in the database, which the handler classes transient).
struct DlqView {
  std::string kind;
  config::DlqReason reason = config::DlqReason::kMaxAttempts;
  config::ErrorClass error = config::ErrorClass::kTransient;
};
DlqView ViewOf(const AmqpMessage& message, const config::Scenario& scenario);
bool Selected(const config::DrainSelect& select, const DlqView& view);

// The replay pace on the wall clock: microseconds since the drain's start at which the next
// replay may go. model::TokenBucket's exact arithmetic (full at the start, as the simulation's).
// REQUIRES: now_us never decreases from one call to the next.
class WallPacer {
 public:
  // rate_per_s null: unpaced (bulk, bounded without a rate).
  WallPacer(std::optional<double> rate_per_s, int64_t burst);
  static WallPacer For(const config::Drain& drain);
  // Takes the next token: returns when (>= now_us) it may be used.
  int64_t Take(int64_t now_us);

 private:
  std::optional<model::TokenBucket> bucket_;
  int64_t last_us_ = 0;
};

// The x-drainsim-life-base of a replay's copy: worker.cc numbers a delivery's attempt as the
// id's deliveries so far minus it. `deliveries`: the id's deliveries before the replay;
// `base`: the life base of the copy that ended in the DLQ. reset: the next delivery is
// attempt 1; keep: it goes on from the last life's attempts less one (never below 1).
int64_t ReplayLifeBase(int64_t deliveries, int64_t base, config::RedriveAttempts attempts);

struct DrainFigures {
  bool started = false;
  double started_at_s = 0;  // wall seconds since the run's start
  double planned_start_s = 0;  // the plan's start_at_s: time_to_empty_s counts from here
  std::optional<double> ended_at_s;
  int64_t replayed = 0;
  int64_t parked = 0;  // unselected at the start, `others: park`
  int64_t left = 0;    // selected, not replayed when it ended at its limit
  std::optional<double> last_replay_at_s;
  // The drainer's busy time per replay after the first, in ms (live/drainer_busy.h).
  std::vector<double> busy_ms;
  double slack_ms = 0;  // BucketSlackMs of the drain: the busy time its bucket absorbs
};

struct DrainShared {
  std::atomic<bool> stop{false};  // set by the harness once the run is empty: end the drain
  std::atomic<bool> idle{false};  // the drainer has nothing to do now (its last get was empty)
  DrainFigures figures;           // the drainer's thread writes it; read after join
};

// Puts the plan's DLQ backlog into the run's DLQ (persistent, with confirms) before the run
// starts; false (and RunState::Fail) unless every one was confirmed. Returns how many.
int64_t SeedDlq(RunState& state);

// Runs drain plan 0 of the scenario (CheckLiveSupport allows one) until shared.stop.
void RunDrainer(RunState& state, std::chrono::steady_clock::time_point run_start,
                DrainShared& shared);

}  // namespace drainsim::live
