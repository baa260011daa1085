// Routing: each event of a run to the handler that owns it (Handle for a message's and a
// worker's events, HandleControl for the run's own: faults, drains, samples, scaling).
#include "sim/model/world.h"

namespace drainsim::model {

void World::Handle(const Event& event) {
  switch (event.type) {
    case EventType::kProducerTick:
      ProducerTick(event.a);
      break;
    case EventType::kDelayDue:
      DelayDue(event);
      break;
    case EventType::kReturnDue:
      ReturnDue(event);
      break;
    case EventType::kVisibilityExpired:
      VisibilityWake();
      break;
    case EventType::kAttemptStep:
      AttemptStep(event);
      break;
    case EventType::kDbServiceEnd:
    case EventType::kDbDeadline:
      DatabaseEvent(event);
      break;
    case EventType::kLiveQuery:
      LiveQuery();
      break;
    case EventType::kSample:
      TakeSample();
      break;
    case EventType::kEtaDue:
      EtaDue(event);
      break;
    case EventType::kLockExpired:
      LockExpired(event);
      break;
    case EventType::kStalledCheck:
      StalledCheck(event);
      break;
    default:
      HandleControl(event);
      break;
  }
}

void World::HandleControl(const Event& event) {
  switch (event.type) {
    case EventType::kFaultEdge:
      FaultEdge(event);
      break;
    case EventType::kWorkerCrash:
      CrashEvent(event);
      break;
    case EventType::kWorkerRestart:
      RestartWorker(event);
      break;
    case EventType::kSessionTimeout:
      SessionTimedOut(event);
      break;
    case EventType::kEsmScale:
      EsmScale();
      break;
    case EventType::kAutoCommitDue:
      KafkaAutoCommitDue(event);
      break;
    case EventType::kAutoscaleTick:
      AutoscaleTick();
      break;
    case EventType::kAutoscaleStart:
      AutoscaleStart(event);
      break;
    case EventType::kAutoscaleKill:
      AutoscaleKill(event);
      break;
    case EventType::kBrokerRestart:
      BrokerRestart(event);
      break;
    case EventType::kBrokerResume:
      ResumeBroker();
      break;
    case EventType::kDlqExpire:
      DlqExpire(event);
      break;
    case EventType::kDrainTick:
      if (event.b == 1) {
        drains_.MarkDue(event.a);
        StartDueDrain();
      } else {
        DrainTick(event.a);
      }
      break;
    case EventType::kDrainAdjust:
      DrainAdjust(event.a);
      break;
    case EventType::kBreakerHalfOpen:
      BreakerHalfOpen();
      break;
    case EventType::kDeadLetterRoom:
      DeadLetterRoom();
      break;
    case EventType::kTestStall:
      broker_.set_down(true);  // and no kBrokerResume: nothing is delivered again
      break;
    case EventType::kTestDefect:
      audit_.MakeDefect(options_.test_defect, /*heal=*/event.b == 1);
      break;
    case EventType::kStop:
      break;
    case EventType::kProducerTick:
    case EventType::kDelayDue:
    case EventType::kReturnDue:
    case EventType::kVisibilityExpired:
    case EventType::kAttemptStep:
    case EventType::kDbServiceEnd:
    case EventType::kDbDeadline:
    case EventType::kLiveQuery:
    case EventType::kSample:
    case EventType::kEtaDue:
    case EventType::kLockExpired:
    case EventType::kStalledCheck:
      DRAINSIM_CHECK(false);  // Handle's
      break;
  }
}

}  // namespace drainsim::model
