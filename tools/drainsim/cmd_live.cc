// `drainsim live SCENARIO`: the scenario run for real on a loopback RabbitMQ and PostgreSQL
// (private ones started for the run, or --amqp / --postgres), compared with the simulation of
// the same seed on the counts that must agree exactly, and side by side with --replications N
// simulated replications (live/side_by_side.h). live/ does the work; this file is the command
// line: options, the support check, the broker-version check, the outputs, exit codes.
// The replications run after the services have stopped, so they take no CPU from the live run.
#include <algorithm>
#include <ctime>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "live/amqp_connection.h"
#include "live/broker_restart.h"
#include "live/db_faults.h"
#include "live/db_outage.h"
#include "live/fault_plan.h"
#include "live/harness.h"
#include "live/live_report.h"
#include "live/live_series.h"
#include "live/plan.h"
#include "live/services.h"
#include "live/side_by_side.h"
#include "live/side_by_side_html.h"
#include "live/side_by_side_report.h"
#include "live/stop_signal.h"
#include "sim/scenario/load.h"
#include "tools/drainsim/experiment_cli.h"
#include "tools/drainsim/live_db_work.h"
#include "tools/drainsim/live_serve.h"
#include "tools/drainsim/live_services_cli.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/out_dir.h"
#include "tools/drainsim/output_set.h"
#include "tools/drainsim/scenario_input.h"

namespace drainsim::cli {

namespace {

constexpr const char* kLiveDescription =
    "Runs the scenario for real: a private RabbitMQ and PostgreSQL on 127.0.0.1 (started in a\n"
    "temporary directory on free ports, stopped and deleted at the end, also on Ctrl-C), or the\n"
    "ones given by --amqp / --postgres (then only the run's own uniquely named queues and tables\n"
    "are declared and deleted). Publishes what the simulation of the same seed publishes, when\n"
    "it publishes it, with the same poison messages; workers run the handlers against the\n"
    "database; at the end the DLQ and the parking queue are inspected and every published id is\n"
    "accounted for. Then it runs --replications N simulations of the scenario (seeds\n"
    "ReplicationSeed(seed, i)) and compares, figure by figure, the live value with the\n"
    "simulation's mean and 95% prediction interval (a figure constant over the replications\n"
    "exactly; wall times within --time-tolerance-s). Writes live-events.jsonl, live.json,\n"
    "report.json, report.md and report.html into --out.\n"
    "Supported now: kinds with database work and claim rows, any producer schedule, a main-queue\n"
    "backlog, retry.delivery requeue, broker.delivery_limit (quorum queue), poison,\n"
    "synthetic_failures, errors, bug, worker_crash, ack_loss, db_outage, db_slowdown,\n"
    "db_connections and broker_restart faults (errors fail the attempts the simulation failed;\n"
    "crashes drop the connection; a lost ack is never sent, and the consumer timeout,\n"
    "visibility_timeout_s, returns it; an outage refuses connections and ends the database's\n"
    "backends; a slowdown multiplies the server's sleeps; db_connections limits the pool's\n"
    "checkouts; a restart stops and starts the private node's RabbitMQ application, and every\n"
    "client reconnects; refused with --amqp).\n"
    "Anything else is refused at its JSON pointer (exit 2).\n"
    "--db-work cpu makes each database statement burn real server CPU (calibrated on the\n"
    "server at the start) instead of pg_sleep; --db-cpus K pins the private PostgreSQL to K\n"
    "CPUs; --db-curve measures the server's overload curve (no scenario, no broker).\n"
    "--check-services starts the private services, prints their ports and start time, and\n"
    "stops them (no scenario needed). --serve-services --state-file F starts them, writes their\n"
    "URLs, pids and ports to F (JSON) and keeps them up for runs with --amqp / --postgres until\n"
    "SIGTERM/Ctrl-C, until F is removed, or 30 minutes at most; then stops them.\n"
    "Exit code 0: conservation holds, the exact counts agree with the simulation of the same\n"
    "seed and every compared figure is inside; 1: model and reality disagree (or messages were\n"
    "lost; the files are written all the same); 2: bad input, an unsupported field, services\n"
    "that cannot start, an operating error or an interrupted run.";

constexpr int64_t kReplicationsMax = 100'000;

std::string UtcNow() {
  char buf[32];
  const std::time_t now = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&now, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  return buf;
}

// Loads SCENARIO and checks that drainsim live can run it; every problem on stderr.
std::optional<config::Scenario> LoadForLive(const std::string& path) {
  scenario::LoadResult loaded = scenario::LoadScenarioFile(path);
  std::vector<scenario::Problem> problems = std::move(loaded.problems);
  if (loaded.ok()) problems = live::CheckLiveSupport(*loaded.scenario);
  // A scenario live cannot run has its problems said, not its warnings.
  ReportLoad(path, problems, problems.empty() ? loaded.warnings : std::vector<scenario::Problem>());
  if (!loaded.ok() || !problems.empty()) return std::nullopt;
  if (!loaded.scenario->expect.empty()) {
    std::fprintf(stderr, "note: the scenario's expectations are not judged by drainsim live yet\n");
  }
  return std::move(loaded.scenario);
}

int LiveExitCode(const live::LiveResult& result, const std::vector<live::Check>& checks) {
  if (result.interrupted) {
    std::fprintf(stderr, "drainsim live: interrupted (signal %d); services stopped\n",
                 live::StopSignal());
    return kExitBadInput;
  }
  if (!result.error.empty()) {
    std::fprintf(stderr, "drainsim live: error: %s\n", result.error.c_str());
    return kExitBadInput;
  }
  const bool agree =
      std::all_of(checks.begin(), checks.end(), [](const live::Check& c) { return c.passed(); });
  return agree && result.lost == 0 && result.unfinished == 0 ? kExitOk : kExitExpectationFailed;
}

struct SideBySideOptions {
  int64_t replications = 30;
  int jobs = 1;
  live::SideBySideOptions compare;
};

// --replications, --jobs, --time-tolerance-s; false (after saying why) when one is bad.
bool ReadSideBySideOptions(const po::variables_map& vm, SideBySideOptions* o) {
  o->replications = vm["replications"].as<int64_t>();
  o->compare.time_tolerance_s = vm["time-tolerance-s"].as<double>();
  if (o->replications < 2 || o->replications > kReplicationsMax) {
    std::fprintf(stderr, "drainsim live: --replications must be in 2..%lld\n",
                 static_cast<long long>(kReplicationsMax));
    return false;
  }
  if (!(o->compare.time_tolerance_s >= 0 && o->compare.time_tolerance_s <= 3600)) {
    std::fprintf(stderr, "drainsim live: --time-tolerance-s must be in 0..3600\n");
    return false;
  }
  const base::Expected<int> jobs = JobsOption(vm);
  if (!jobs) {
    BadInput("live", jobs.error());
    return false;
  }
  o->jobs = *jobs;
  return true;
}

void AddLiveOptions(CommandLine& line) {
  line.options.add_options()("scenario", po::value<std::string>(), "scenario JSON file")(
      "seed", po::value<uint64_t>(), "seed (default: the scenario's `seed`)")(
      "out", po::value<std::string>(), "output directory (default: out/live-SCENARIO-NAME)")(
      "amqp", po::value<std::string>(), "an existing broker: amqp://user:pass@host:port/vhost")(
      "postgres", po::value<std::string>(),
      "an existing database: a libpq connection string or URL")(
      "wall-max-s", po::value<double>()->default_value(600),
      "bound on the whole run, wall seconds")(
      "settle-max-s", po::value<double>()->default_value(120),
      "after the last publish, how long to wait for the main queue to empty")(
      "replications", po::value<int64_t>()->default_value(30),
      "simulated replications the live run is compared with (2..100000)")(
      "time-tolerance-s", po::value<double>()->default_value(0.1, "0.1"),
      "widens the interval of wall-time figures by this much on each side (timing jitter)")(
      "check-services", po::bool_switch(), "start the private services, report, stop them")(
      "serve-services", po::bool_switch(), "start the private services, keep them up for others")(
      "state-file", po::value<std::string>(), "--serve-services: where their URLs are written")(
      "keep-data", po::bool_switch(), "keep the services' scratch directory (debugging)");
  AddJobsOption(line.options);
  AddDbWorkOptions(line.options);  // live_db_work.h
  line.positional.add("scenario", 1);
}

// A live run's scenario and settings, checked before any service starts.
struct LiveSetup {
  std::string path;
  config::Scenario scenario;
  uint64_t seed = 0;
  std::string out_dir;
  SideBySideOptions side;
};

// The scenario's database work, with a CPU-bound server's cores applied; false (after saying
// why) when the scenario cannot have the work asked for.
bool ApplyDbWork(const po::variables_map& vm, const LiveSetup& setup, live::DbWorkOptions* db_work,
                 live::ServiceOptions* service_options) {
  const config::Scenario& s = setup.scenario;
  if (const base::Status fits = live::CheckDbWorkForScenario(*db_work, s.database.has_value());
      !fits) {
    std::fprintf(stderr, "%s: /database: %s\n", setup.path.c_str(), fits.error().c_str());
    return false;
  }
  if (s.database && s.database->cores) {  // a CPU-bound server: run its work as CPU
    std::string note;
    *db_work = live::WithScenarioCores(
        *db_work, !vm["db-work"].defaulted(), !vm["db-cpus"].defaulted(), *s.database->cores,
        vm.count("postgres") > 0, static_cast<int>(live::AllowedCpus().size()), &note);
    service_options->postgres_cpus = DbCpus(*db_work);
    if (!note.empty()) std::printf("%s\n", note.c_str());
  }
  return true;
}

// Reads and checks everything a live run needs before a service starts; nullopt after saying
// why when something is wrong.
std::optional<LiveSetup> PrepareLive(const po::variables_map& vm, live::DbWorkOptions* db_work,
                                     live::ServiceOptions* service_options) {
  LiveSetup setup;
  if (!ReadSideBySideOptions(vm, &setup.side)) return std::nullopt;
  setup.path = vm["scenario"].as<std::string>();
  std::optional<config::Scenario> loaded = LoadForLive(setup.path);
  if (!loaded) return std::nullopt;
  setup.scenario = std::move(*loaded);
  // A restart for real only of the run's own broker (live/broker_restart.h), said before
  // anything starts.
  const std::vector<scenario::Problem> restart_problems =
      live::BrokerRestartProblems(setup.scenario, !service_options->amqp_url.empty());
  ReportLoad(setup.path, restart_problems, {});
  if (!restart_problems.empty()) return std::nullopt;
  if (!ApplyDbWork(vm, setup, db_work, service_options)) return std::nullopt;
  setup.seed = vm.count("seed") ? vm["seed"].as<uint64_t>() : setup.scenario.seed;
  setup.out_dir = vm.count("out") ? vm["out"].as<std::string>()
                                  : DefaultOutDir("live", "live-" + setup.scenario.name);
  if (const base::Status usable = CheckOutDir(setup.out_dir); !usable) {
    std::fprintf(stderr, "drainsim live: --out: %s\n", usable.error().c_str());
    return std::nullopt;
  }
  return setup;
}

live::LiveOptions LiveOptionsFor(const po::variables_map& vm, const LiveSetup& setup,
                                 const live::Services& services, const live::DbWorkOptions& db_work,
                                 const live::ServiceOptions& service_options) {
  live::LiveOptions options;
  options.amqp_url = services.amqp_url();
  options.postgres_url = setup.scenario.database ? services.postgres_url() : "";
  options.events_path = setup.out_dir + "/live-events.jsonl";
  options.wall_max_s = vm["wall-max-s"].as<double>();
  options.db_work = db_work.work;
  options.db_cpus = service_options.postgres_cpus;
  options.settle_max_s = vm["settle-max-s"].as<double>();
  if (const live::PrivateRabbitMq* mq = services.rabbit()) {
    options.broker_control =
        live::BrokerControl{mq->ControlSpec(), mq->control_output_path(), mq->node_log_path()};
  }
  return options;
}

// A finished run beside `replications` simulated ones: printed, and its three reports added to
// `files`. Returns the comparison's exit code.
int SideBySide(const LiveSetup& setup, const std::string& started_at,
               const live::LiveResult& result, const live::Plan& plan,
               const std::string& events_path, std::vector<reports::OutputFile>* files) {
  const config::Scenario& s = setup.scenario;
  const live::SimulatedSide simulated =
      live::RunSimulatedSide(s, setup.seed, setup.side.replications, setup.side.jobs);
  live::SideBySideRun run;
  run.scenario_name = s.name;
  run.scenario_path = setup.path;
  run.seed = setup.seed;
  run.started_at_utc = started_at;
  run.live = &result;
  run.simulated = &simulated;
  run.options = setup.side.compare;
  run.rows = live::CompareSides(s, result, simulated, setup.side.compare);
  run.where = live::ReadWhereTimeWent(events_path, plan);
  run.where.simulated = live::SimulatedWaitOf(simulated);
  run.exit_code = live::ComparisonExitCode(run.rows);
  std::fputs(live::SideBySideText(run).c_str(), stdout);
  files->push_back({"report.json", live::SideBySideJson(run)});
  files->push_back({"report.md", live::SideBySideMarkdown(run)});
  size_t samples = 0;
  for (const auto& r : simulated.main_queue) samples = std::max(samples, r.size());
  const std::optional<live::LiveSeries> series =
      live::LiveMainQueue(events_path, simulated.sample_every_s, samples);
  files->push_back({"report.html", live::SideBySideHtml(run, series)});
  return run.exit_code;
}

// The scenario run for real, compared with the simulation, its reports written.
int RunScenarioLive(const po::variables_map& vm, const LiveSetup& setup,
                    const live::DbWorkOptions& db_work, live::ServiceOptions service_options) {
  const config::Scenario& s = setup.scenario;
  const live::Plan plan = live::MakePlan(s, setup.seed);
  if (!s.database) service_options.postgres_url = "-";
  // The pool's largest size (a db_connections fault may grow it: live/db_faults.h).
  service_options.max_connections = s.database ? static_cast<int>(live::PoolSizeMax(s)) : 10;
  service_options.consumer_timeout_ms = live::ConsumerTimeoutMs(s);  // ack_loss: fault_plan.h
  const std::string started_at = UtcNow();
  const std::unique_ptr<live::Services> services =
      StartServices(setup.scenario, setup.path, setup.out_dir, service_options);
  if (!services) return kExitBadInput;
  const live::LiveOptions options = LiveOptionsFor(vm, setup, *services, db_work, service_options);
  const live::LiveResult result = live::RunLive(s, plan, options);
  const live::ServiceFigures figures = StopServices(*services);
  const std::vector<live::Check> checks = live::ExactChecks(result, plan);
  live::PrintSummary(stdout, s.name, result, plan, figures, checks);
  // live-events.jsonl is streamed while the run goes on (a log, written as it happens);
  // live.json, report.json and report.md are one output set, written whole or not at all.
  std::vector<reports::OutputFile> files = {
      {"live.json", live::LiveJson(s.name, setup.path, started_at, result, plan, figures, checks)}};
  const int live_exit = LiveExitCode(result, checks);
  int exit_code = live_exit;
  if (live_exit != kExitBadInput) {  // a run that finished: compare it
    if (SideBySide(setup, started_at, result, plan, options.events_path, &files) != 0) {
      exit_code = kExitExpectationFailed;
    }
  }
  if (const base::Status written = WriteOutputSet(setup.out_dir, files); !written) {
    std::fprintf(stderr, "drainsim live: %s\n", written.error().c_str());
    return kExitBadInput;
  }
  std::printf("events: %s\n", options.events_path.c_str());
  for (const reports::OutputFile& f : files) {
    std::printf("report: %s/%s\n", setup.out_dir.c_str(), f.name.c_str());
  }
  return exit_code;
}

}  // namespace

int RunLive(const Args& args) {
  CommandLine line("live",
                   "live SCENARIO [--seed N] [--out DIR] [--amqp URL] [--postgres URL] "
                   "[--wall-max-s S] [--settle-max-s S] [--replications N] [--jobs K] "
                   "[--time-tolerance-s S] [--db-work sleep|cpu] [--db-cpus K] | "
                   "live --db-curve [--db-work cpu] [--db-cpus K] | live --check-services | "
                   "live --serve-services --state-file F",
                   kLiveDescription);
  AddLiveOptions(line);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  live::InstallStopHandlers();

  live::ServiceOptions service_options;
  if (vm.count("amqp")) service_options.amqp_url = vm["amqp"].as<std::string>();
  if (vm.count("postgres")) service_options.postgres_url = vm["postgres"].as<std::string>();
  service_options.keep_data = vm["keep-data"].as<bool>();
  live::DbWorkOptions db_work;
  if (!ReadDbWorkOptions(vm, &db_work)) return kExitBadInput;
  if (vm["db-curve"].as<bool>()) {
    return RunDbCurve(db_work, service_options, vm["db-curve-cell-s"].as<double>());
  }
  service_options.postgres_cpus = DbCpus(db_work);
  if (vm["check-services"].as<bool>()) return CheckServices(service_options);
  if (vm["serve-services"].as<bool>()) {
    return ServeServices(service_options,
                         vm.count("state-file") ? vm["state-file"].as<std::string>() : "",
                         kServeMaxS);
  }
  if (!vm.count("scenario")) {
    std::fprintf(stderr, "drainsim live: give a SCENARIO (or --check-services)\n");
    return kExitBadInput;
  }
  const std::optional<LiveSetup> setup = PrepareLive(vm, &db_work, &service_options);
  if (!setup) return kExitBadInput;
  return RunScenarioLive(vm, *setup, db_work, service_options);
}

}  // namespace drainsim::cli
