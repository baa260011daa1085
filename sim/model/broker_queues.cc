#include "sim/model/broker_queues.h"

#include <algorithm>

namespace drainsim::model {

bool BrokerQueues::InPipeline(const PipelineEntry& e) const {
  if (!messages_.IsLive(e.ref)) return false;
  const Message& m = messages_.Get(e.ref);
  return m.replays == e.replays &&
         (m.state == MessageState::kReady || m.state == MessageState::kDelayed ||
          m.state == MessageState::kInFlight);
}

void BrokerQueues::CompactPipeline() {
  std::erase_if(pipeline_, [this](const PipelineEntry& e) { return !InPipeline(e); });
}

double BrokerQueues::OldestAgeSeconds(engine::Instant now) {
  while (!pipeline_.empty() && !InPipeline(pipeline_.front())) pipeline_.pop_front();
  if (pipeline_.empty()) return 0;
  return (now - pipeline_.front().entered_at).seconds();
}

}  // namespace drainsim::model
