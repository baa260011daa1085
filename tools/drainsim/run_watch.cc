#include "tools/drainsim/run_watch.h"

#include <cmath>
#include <utility>
#include <vector>

namespace drainsim::cli {

RunWatch::RunWatch(const config::Scenario& scenario, std::optional<model::TraceOptions> trace,
                   bool progress, model::RunObserver* also)
    : line_(progress), run_progress_(line_) {
  std::vector<model::RunObserver*> observers;
  if (trace) {
    recorder_.emplace(scenario, std::move(*trace));
    observers.push_back(&*recorder_);
  }
  if (also != nullptr) observers.push_back(also);
  if (line_.active()) observers.push_back(&run_progress_);
  if (observers.size() == 1) {
    observer_ = observers.front();
  } else if (observers.size() > 1) {
    tee_.emplace(std::move(observers));
    observer_ = &*tee_;
  }
}

std::optional<model::TraceLog> RunWatch::Finish(const model::Results& results) {
  line_.Finish();
  if (!recorder_) return std::nullopt;
  // Results keep the end in seconds; they came from whole microseconds.
  const auto end_us = static_cast<int64_t>(std::llround(results.ended_at_s * 1e6));
  return recorder_->Finish(engine::Instant::Micros(end_us));
}

}  // namespace drainsim::cli
