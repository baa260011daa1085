#include "reports/trace_flows.h"

#include <algorithm>
#include <tuple>

namespace drainsim::reports {

namespace {

// A slice of a message's flow: an attempt span or an outcome slice, by index.
struct Member {
  uint64_t message_id = 0;
  engine::Instant at;
  int rank = 0;  // the order at one instant: see contract (2)
  bool outcome = false;
  size_t index = 0;
  auto Key() const { return std::tie(message_id, at, rank, outcome, index); }
};

constexpr int kRankBeforeAttempts = 0;
constexpr int kRankAttempt = 1;
constexpr int kRankAfterAttempts = 2;

int RankOf(OutcomeClass outcome) {
  return outcome == OutcomeClass::kAcked || outcome == OutcomeClass::kDuplicate
             ? kRankAfterAttempts
             : kRankBeforeAttempts;
}

std::vector<Member> MembersOf(const model::TraceLog& log,
                              const std::vector<OutcomeSlice>& outcomes) {
  std::vector<Member> members;
  members.reserve(log.spans.size() + outcomes.size());
  for (size_t i = 0; i < log.spans.size(); ++i) {
    const model::AttemptSpan& s = log.spans[i];
    members.push_back(Member{s.message_id, s.start, kRankAttempt, false, i});
  }
  for (size_t i = 0; i < outcomes.size(); ++i) {
    const OutcomeSlice& o = outcomes[i];
    members.push_back(Member{o.life->id, o.event->at, RankOf(o.outcome), true, i});
  }
  std::sort(members.begin(), members.end(),
            [](const Member& a, const Member& b) { return a.Key() < b.Key(); });
  return members;
}

FlowRole RoleAt(size_t position, size_t count) {
  if (count < 2) return FlowRole::kNone;
  if (position == 0) return FlowRole::kStart;
  if (position + 1 == count) return FlowRole::kEnd;
  return FlowRole::kStep;
}

}  // namespace

TraceFlows FlowsOf(const model::TraceLog& log, const std::vector<OutcomeSlice>& outcomes) {
  TraceFlows flows;
  flows.spans.assign(log.spans.size(), FlowRole::kNone);
  flows.outcomes.assign(outcomes.size(), FlowRole::kNone);
  const std::vector<Member> members = MembersOf(log, outcomes);
  for (size_t first = 0; first < members.size();) {
    size_t end = first;
    while (end < members.size() && members[end].message_id == members[first].message_id) ++end;
    for (size_t m = first; m < end; ++m) {
      const FlowRole role = RoleAt(m - first, end - first);
      (members[m].outcome ? flows.outcomes : flows.spans)[members[m].index] = role;
    }
    first = end;
  }
  return flows;
}

}  // namespace drainsim::reports
