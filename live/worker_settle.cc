#include <utility>

#include "live/duplicate_copy.h"
#include "live/handler.h"
#include "live/reconnect.h"
#include "live/retry_plan.h"
#include "live/stop_signal.h"
#include "live/worker_impl.h"

namespace drainsim::live::worker_impl {

// Publishes to `queue` on the worker's confirm connection (opened on first use) and waits for
// the publisher confirm.
bool Worker::PublishConfirmed(const std::string& queue, const Done& done,
                              const AmqpHeaders& headers, std::optional<int64_t> expiration_ms) {
  const std::string name = "drainsim live: worker " + std::to_string(index_) + " parking";
  // Under a broker_restart, a connection the broker dropped is opened again and the copy sent
  // again (at most twice more): a copy the broker took before it went away is then a duplicate.
  for (int round = 0; round < 3; ++round) {
    if (!park_conn_) {
      base::Expected<std::unique_ptr<AmqpConnection>> opened =
          state_.reconnect ? OpenWithRetry(
                                 state_.amqp_url, name, ReconnectPolicy{},
                                 [](AmqpConnection& c) { return c.ConfirmSelect(); },
                                 [this] { return StopRequested() || state_.failed.load(); })
                           : AmqpConnection::Open(state_.amqp_url, name);
      if (!opened) {
        state_.Fail("worker parking: " + opened.error());
        return false;
      }
      park_conn_ = std::move(*opened);
      if (!park_conn_->ConfirmSelect()) {
        state_.Fail("worker parking: " + park_conn_->error());
        return false;
      }
      if (round > 0) ++state_.reconnects;
    }
    if (round > 0) ++state_.publishes_resent;
    if (park_conn_->Publish(queue, std::to_string(done.id), headers, "{}", expiration_ms) &&
        park_conn_->WaitConfirms(std::chrono::seconds(10)) &&
        park_conn_->confirmed() == park_conn_->published()) {
      return true;
    }
    if (!state_.reconnect || !park_conn_->connection_lost()) break;
    ++state_.connections_lost;
    park_conn_.reset();
  }
  state_.Fail("worker publishing to " + queue + ": " +
              (park_conn_ ? park_conn_->error() : "the broker went away"));
  return false;
}

bool Worker::Park(const Done& done) {
  const PlannedMessage& m = state_.plan.messages.at(done.id);
  AmqpHeaders headers = {{"x-drainsim-id", done.id},
                         {"x-drainsim-kind", m.kind},
                         {"x-drainsim-key", m.key},
                         {"x-drainsim-parked", done.verdict.detail}};
  if (!PublishConfirmed(state_.topology.parking_queue, done, headers, std::nullopt)) return false;
  state_.log->Write("park", done.id, index_, done.attempt, done.verdict.detail);
  return conn_->Ack(done.delivery_tag);
}

// retry.delivery republish (live/retry_plan.h): a copy with the next attempt's number into the
// delay queue of its backoff's level, TTL = that level; confirmed, then the original is acked.
bool Worker::Republish(const Done& done) {
  const int64_t level_ms = DelayLevelMs(done.backoff_us);
  const auto queue = state_.topology.delay_queues.find(level_ms);
  if (queue == state_.topology.delay_queues.end()) {
    state_.Fail("no delay queue for a backoff of " + std::to_string(level_ms) + " ms");
    return false;
  }
  AmqpHeaders headers = done.headers;
  headers.erase("x-delivery-count");  // the broker's count for the original, not the copy's
  headers["x-drainsim-attempt"] = static_cast<int64_t>(done.attempt + 1);
  // Logged as it is sent: the TTL counts from here, and the confirm can take a while on a busy
  // machine (a delivery then seemed to come back before its TTL). A failed publish fails the run.
  state_.log->Write("republish", done.id, index_, done.attempt,
                    done.verdict.detail + "; delay_ms=" + std::to_string(level_ms));
  if (!PublishConfirmed(queue->second, done, headers, level_ms)) return false;
  return conn_->Ack(done.delivery_tag);
}

bool Worker::Settle(const Done& done, bool* crash) {
  if (done.session != session_) {
    // A result from an earlier connection (a job a slot took just as it ended): its delivery
    // tag died with that channel, and the broker has returned the message.
    if (done.verdict.action != Action::kDrop) ++state_.settles_dropped;
    state_.log->Write("settle_dropped", done.id, index_, done.attempt, done.verdict.detail);
    --state_.in_flight;
    state_.Touch();
    return true;
  }
  bool ok = true;
  switch (done.verdict.action) {
    case Action::kAck:
      if (done.fault == SuccessFault::kCrashAfterCommit) {
        // The work committed; the worker dies before the ack (the caller drops the connection).
        ++state_.crash_after_commit;
        state_.log->Write("crash_after_commit", done.id, index_, done.attempt, done.verdict.detail);
        *crash = true;
        return true;  // counted out of in_flight by Abandon
      }
      if (done.fault == SuccessFault::kAckLost) {
        // The ack is never sent: the delivery stays unacked until its channel is gone.
        ++state_.acks_lost;
        ++withheld_;
        state_.log->Write("ack_lost", done.id, index_, done.attempt, done.verdict.detail);
        state_.Touch();
        return true;
      }
      ok = conn_->Ack(done.delivery_tag);
      if (ok) state_.acked[done.id] = true;  // else the broker returns it: it runs again
      state_.log->Write(ok ? "ack" : "ack_failed", done.id, index_, done.attempt,
                        done.verdict.detail);
      break;
    case Action::kRequeue:
    case Action::kDeadLetter: {
      const bool requeue = done.verdict.action == Action::kRequeue;
      const bool nack = state_.scenario.retry.requeue_with == config::RequeueWith::kNack;
      ok = conn_->Reject(done.delivery_tag, requeue, nack);
      state_.log->Write(requeue ? (nack ? "nack_requeue" : "reject_requeue")
                                : (nack ? "nack_dead_letter" : "reject_dead_letter"),
                        done.id, index_, done.attempt, done.verdict.detail);
      break;
    }
    case Action::kPark:
      ok = Park(done);
      break;
    case Action::kRetryLater:
      ok = Republish(done);
      break;
    case Action::kDrop:
      break;
  }
  --state_.in_flight;
  state_.Touch();
  return ok;
}

}  // namespace drainsim::live::worker_impl
