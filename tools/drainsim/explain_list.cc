#include "tools/drainsim/explain_list.h"

#include <cstdio>
#include <utility>
#include <vector>

#include "reports/explain_list.h"
#include "reports/report_input.h"
#include "sim/base/check.h"
#include "sim/model/simulation.h"
#include "tools/drainsim/cli.h"
#include "tools/drainsim/run_watch.h"

namespace drainsim::cli {

namespace {

// One run of the scenario with `observer` (and the progress line) watching.
model::Results RunWith(const config::Scenario& scenario, uint64_t seed,
                       model::RunObserver& observer, bool progress) {
  RunWatch watch(scenario, std::nullopt, progress, &observer);
  model::RunOptions options;
  options.observer = watch.observer();
  model::Results results = model::RunSimulation(scenario, seed, options);
  watch.Finish(results);
  return results;
}

// The keys of `members` (sorted by id), from a second run that renders only theirs.
void ReadKeys(const config::Scenario& scenario, uint64_t seed, uint64_t fingerprint,
              std::vector<model::ClassMember>& members, bool progress) {
  if (members.empty()) return;
  std::vector<uint64_t> ids;
  ids.reserve(members.size());
  for (const model::ClassMember& m : members) ids.push_back(m.id);
  model::KeyReader reader(std::move(ids));
  const model::Results again = RunWith(scenario, seed, reader, progress);
  // The same scenario and seed make the same run (sim/model/simulation.h (4)).
  DRAINSIM_CHECK(again.fingerprint == fingerprint);
  std::vector<std::string> keys = std::move(reader).Keys();
  for (size_t i = 0; i < members.size(); ++i) members[i].key = std::move(keys[i]);
}

}  // namespace

int ListClass(const config::Scenario& scenario, const std::string& path, uint64_t seed,
              model::MessageClass message_class, bool progress) {
  model::ClassRecorder recorder(message_class);
  const model::Results results = RunWith(scenario, seed, recorder, progress);
  if (results.model_error) {
    std::fprintf(stderr,
                 "drainsim explain: model error (a drainsim bug, not the scenario's): invariant "
                 "%s broken: %s\nreproduce: %s\n",
                 results.model_error->invariant.c_str(), results.model_error->detail.c_str(),
                 reports::ReproduceCommand(path, seed).c_str());
    return kExitModelError;
  }
  std::vector<model::ClassMember> members = recorder.Finish();
  ReadKeys(scenario, seed, results.fingerprint, members, progress);
  const reports::ListedRun run{scenario.name, seed, results.fingerprint};
  std::fputs(reports::ExplainList(message_class, members, run).c_str(), stdout);
  return kExitOk;
}

}  // namespace drainsim::cli
