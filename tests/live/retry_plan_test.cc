// Retries with backoff for real, the parts that need no broker (live/retry_plan.h): which retry
// deliveries and backoffs drainsim live runs, the delay queues' levels and names, and that the
// live run waits the simulation's own backoff for each (message, attempt).
#include "live/retry_plan.h"

#include <catch2/catch.hpp>
#include <map>
#include <string>
#include <vector>

#include "live/plan.h"
#include "sim/model/backoff.h"
#include "sim/model/observer.h"
#include "sim/model/simulation.h"
#include "sim/scenario/load.h"

namespace retry_plan_test {
namespace {

using drainsim::config::ErrorClass;
using drainsim::config::JitterKind;
using drainsim::config::RetryDelivery;

drainsim::config::Scenario LoadRetry() {
  auto loaded = drainsim::scenario::LoadScenarioFile(std::string(DRAINSIM_SOURCE_DIR) +
                                                     "/scenarios/live-retry.json");
  REQUIRE(loaded.ok());
  return *loaded.scenario;
}

std::vector<std::string> Pointers(const drainsim::config::Scenario& s) {
  std::vector<std::string> out;
  for (const auto& p : drainsim::live::CheckLiveSupport(s)) out.push_back(p.pointer);
  return out;
}

// Every sleep the simulation made, by message: (attempt that failed, µs), independently of the
// plan's recorder.
class SleepRecorder : public drainsim::model::RunObserver {
 public:
  void OnAttemptStart(const drainsim::model::AttemptInfo& info) override {
    slot_attempt_[info.slot] = info.attempt;
  }
  void OnSleep(const drainsim::model::SleepInfo& info) override {
    sleeps[info.message_id][slot_attempt_.at(info.slot)] = (info.until - info.at).micros();
  }
  std::map<uint64_t, std::map<int, int64_t>> sleeps;

 private:
  std::map<uint32_t, int> slot_attempt_;
};

}  // namespace

TEST_CASE("live retry: republish with a deterministic backoff and sleep_in_consumer are run",
          "[live]") {
  auto s = LoadRetry();
  CHECK(Pointers(s).empty());
  s.retry.backoff.jitter.kind = JitterKind::kFull;
  CHECK(Pointers(s) == std::vector<std::string>{"/retry/backoff/jitter"});
  s.retry.delivery = RetryDelivery::kSleepInConsumer;  // a sleep can wait any drawn delay
  CHECK(Pointers(s).empty());
  s.retry.delivery = RetryDelivery::kEtaInConsumer;
  CHECK(Pointers(s) == std::vector<std::string>{"/retry/delivery"});
  s = LoadRetry();
  s.retry.classes.transient.backoff = drainsim::config::Backoff{
      drainsim::config::SidekiqBackoff{}, drainsim::config::Jitter{JitterKind::kNone}};
  CHECK(Pointers(s) == std::vector<std::string>{"/retry/classes/transient/backoff/kind"});
}

TEST_CASE("live retry: one delay queue per delay level, named with the run id", "[live]") {
  auto s = LoadRetry();
  // transient 200, 400, 800 ms; the rabbitmq-quorum preset's other classes retry up to 1000
  // times (the broker's limit decides), which adds 1.6 s and the 2 s cap
  CHECK(drainsim::live::DelayLevelsMs(s.retry) == std::vector<int64_t>{200, 400, 800, 1600, 2000});
  for (auto* c :
       {&s.retry.classes.rate_limited, &s.retry.classes.permanent, &s.retry.classes.unknown}) {
    c->action = drainsim::config::ClassAction::kDeadLetter;
  }
  CHECK(drainsim::live::DelayLevelsMs(s.retry) == std::vector<int64_t>{200, 400, 800});
  // Another class with its own, overlapping curve: levels merged, sorted, without duplicates.
  s.retry.classes.unknown.attempts_max = 3;
  s.retry.classes.unknown.backoff = drainsim::config::Backoff{
      drainsim::config::ConstantBackoff{drainsim::engine::Duration::Millis(400)},
      drainsim::config::Jitter{JitterKind::kNone}};
  CHECK(drainsim::live::DelayLevelsMs(s.retry) == std::vector<int64_t>{200, 400, 800});
  s.retry.classes.transient.attempts_max = 6;  // 1.6 s, then the 2 s cap
  CHECK(drainsim::live::DelayLevelsMs(s.retry) == std::vector<int64_t>{200, 400, 800, 1600, 2000});
  CHECK(drainsim::live::DelayQueueName("drainsim_live_1_ab", 200) ==
        "drainsim_live_1_ab.delay.200ms");
  CHECK(drainsim::live::DelayLevelMs(1'499) == 1);
  CHECK(drainsim::live::DelayLevelMs(0) == 1);  // a TTL of 0 would expire at once or never
}

TEST_CASE("live retry: republish waits the simulation's delays, 200, 400 then 800 ms", "[live]") {
  const auto s = LoadRetry();
  const drainsim::live::Plan plan = drainsim::live::MakePlan(s, s.seed);
  int fated = 0;
  for (const auto& m : plan.messages) {
    if (!m.fate) {
      CHECK(m.backoff_us.empty());
      continue;
    }
    ++fated;
    CHECK(m.backoff_us == std::vector<int64_t>{200'000, 400'000, 800'000});
    for (int attempt = 1; attempt <= 3; ++attempt) {
      CHECK(drainsim::live::LiveBackoffUs(s, m, plan.seed, attempt, ErrorClass::kTransient) ==
            m.backoff_us[static_cast<size_t>(attempt - 1)]);
    }
  }
  CHECK(fated == 8);
}

TEST_CASE("live retry: sleep_in_consumer sleeps the simulation's jittered draws", "[live]") {
  auto s = LoadRetry();
  s.retry.delivery = RetryDelivery::kSleepInConsumer;
  s.retry.backoff.jitter.kind = JitterKind::kFull;
  const drainsim::live::Plan plan = drainsim::live::MakePlan(s, s.seed);
  SleepRecorder recorder;
  drainsim::model::RunOptions options;
  options.observer = &recorder;
  drainsim::model::RunSimulation(s, s.seed, options);
  REQUIRE(recorder.sleeps.size() == 8);
  int below_ceiling = 0;
  for (const auto& [id, sleeps] : recorder.sleeps) {
    const auto& m = plan.messages.at(id);
    REQUIRE(m.backoff_us.size() == 3);
    for (const auto& [attempt, us] : sleeps) {
      CHECK(drainsim::live::LiveBackoffUs(s, m, plan.seed, attempt, ErrorClass::kTransient) == us);
      const int64_t ceiling = 200'000 << (attempt - 1);
      CHECK(us <= ceiling);
      below_ceiling += us < ceiling ? 1 : 0;
    }
  }
  CHECK(below_ceiling > 0);  // full jitter drew them: not the curve's ceilings
  // An attempt the simulation never failed: a draw of its own stream, the same every time,
  // within full jitter's [0, ceiling].
  const auto& m = plan.messages.at(recorder.sleeps.begin()->first);
  const int64_t extra = drainsim::live::LiveBackoffUs(s, m, plan.seed, 4, ErrorClass::kTransient);
  CHECK(extra == drainsim::live::LiveBackoffUs(s, m, plan.seed, 4, ErrorClass::kTransient));
  CHECK(extra >= 0);
  CHECK(extra <= 1'600'000);
}

}  // namespace retry_plan_test
