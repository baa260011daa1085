// The test defects' schedule (the defects themselves: ledger_audit.cc).
#include "sim/model/world.h"

namespace drainsim::model {

void World::ScheduleTestDefect() {
  if (options_.test_defect == TestDefect::kNone) return;
  if (options_.test_defect_at < until_) {
    At(options_.test_defect_at, Event{EventType::kTestDefect, 0, 0});
  }
  if (options_.test_defect == TestDefect::kMisstateAtRest &&
      options_.test_defect_heal_at < until_) {
    At(options_.test_defect_heal_at, Event{EventType::kTestDefect, 0, 1});
  }
}

}  // namespace drainsim::model
