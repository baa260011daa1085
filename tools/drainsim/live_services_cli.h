// The private (or given) services of a `drainsim live` run, as the command line starts,
// checks, prints and stops them: `--check-services`, and a run's services checked for its
// scenario before anything is published (pinned as asked, a private database for an outage, the
// broker's delivery-limit counting). live/services.h starts and stops the processes; this file
// is what the command says about them.
#pragma once

#include <memory>
#include <string>

#include "live/harness.h"
#include "live/live_report.h"
#include "live/services.h"
#include "sim/config/config.h"

namespace drainsim::cli {

// `drainsim live --check-services`: starts the private services, prints their pids, ports and
// start time, stops them. Returns the exit code.
int CheckServices(const live::ServiceOptions& options);

// The services for a run of `s` (read from `scenario_path`), checked, and `out_dir` made;
// nullptr after saying why on stderr.
std::unique_ptr<live::Services> StartServices(const config::Scenario& s,
                                              const std::string& scenario_path,
                                              const std::string& out_dir,
                                              const live::ServiceOptions& service_options);

// Stops the services; their start and stop figures for the reports.
live::ServiceFigures StopServices(live::Services& services);

}  // namespace drainsim::cli
