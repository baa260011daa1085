// `drainsim fit TELEMETRY... [--into SCENARIO] [-o OUT] [--window-s W]`: OpenTelemetry traces
// (OTLP/JSON), `drainsim live`'s live-events.jsonl and metric series (CSV, Prometheus,
// CloudWatch) to a scenario fragment whose fitted values carry their provenance
// (docs/TELEMETRY.md). Reading is tools/drainsim/fit_input.h over sim/telemetry/, fitting
// experiments/fit.h and experiments/fit_series.h, the outputs reports/fit_report.h; this file
// only wires them to files.
//
// Bad input (a file that cannot be read, is not what its kind says, holds no messaging process
// span, or a series without inflow_per_s) is exit 2 with the file, the JSON pointer or line, and
// the reason; nothing is written then.
// OUT is one output set (tools/drainsim/output_set.h): whole or not at all.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <system_error>
#include <vector>

#include "experiments/fit.h"
#include "experiments/fit_merge.h"
#include "experiments/fit_series.h"
#include "reports/fit_chart.h"
#include "reports/fit_report.h"
#include "sim/telemetry/otlp_read.h"
#include "tools/drainsim/fit_input.h"
#include "tools/drainsim/options.h"
#include "tools/drainsim/output_set.h"
#include "tools/drainsim/series_options.h"

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

base::Status ReadFileText(const std::string& path, std::string* text) {
  std::error_code error;
  const std::uintmax_t size = fs::file_size(path, error);
  if (error) return base::Failure{path + ": cannot read: " + error.message()};
  if (size > telemetry::kTextBytesMax) {
    return base::Failure{path + ": larger than " + std::to_string(telemetry::kTextBytesMax >> 20) +
                         " MiB"};
  }
  std::ifstream in(path, std::ios::binary);
  if (!in) return base::Failure{path + ": cannot open"};
  text->assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  return {};
}

// Whether two directory paths name the same directory (neither need exist yet).
bool SameDirectory(const std::string& a, const std::string& b) {
  std::error_code error;
  const fs::path pa = fs::weakly_canonical(fs::absolute(a), error);
  const fs::path pb = fs::weakly_canonical(fs::absolute(b), error);
  return !error && pa.lexically_normal() == pb.lexically_normal();
}

int FitFail(const std::string& reason) {
  std::fprintf(stderr, "drainsim fit: %s\n", reason.c_str());
  return kExitBadInput;
}

// Writes the fragment (OUT or stdout), the summary and, with --report, the report. The report's
// files and OUT are one output set when they share a directory (all or nothing); in two
// directories the report is written first and a failure of OUT says so.
int WriteFitOutputs(const po::variables_map& vm, const experiments::FitResult& fit,
                    const std::string& output) {
  const std::string summary = reports::FitSummary(fit);
  std::vector<reports::OutputFile> report;
  if (vm.count("report")) {
    report = {{"fit.md", reports::FitMarkdown(fit)}, {"fit.html", reports::FitHtml(fit)}};
  }
  const std::string report_dir = vm.count("report") ? vm["report"].as<std::string>() : "";
  if (!vm.count("out")) {
    if (!report.empty()) {
      if (const base::Status written = WriteOutputSet(report_dir, report); !written) {
        return FitFail(written.error());
      }
    }
    std::fputs(summary.c_str(), stderr);
    std::fputs(output.c_str(), stdout);
    return kExitOk;
  }
  const fs::path out = vm["out"].as<std::string>();
  const std::string dir = out.has_parent_path() ? out.parent_path().string() : ".";
  std::vector<reports::OutputFile> files = {{out.filename().string(), output}};
  const bool together = !report.empty() && SameDirectory(report_dir, dir);
  if (together && (out.filename() == "fit.md" || out.filename() == "fit.html")) {
    return FitFail("-o " + out.string() + ": the report writes that name in the same directory");
  }
  if (!report.empty() && !together) {
    if (const base::Status written = WriteOutputSet(report_dir, report); !written) {
      return FitFail(written.error());
    }
  }
  if (together) files.insert(files.end(), report.begin(), report.end());
  if (const base::Status written = WriteOutputSet(dir, files); !written) {
    return FitFail(written.error() + (!report.empty() && !together
                                          ? " (the report in " + report_dir + " was written)"
                                          : ""));
  }
  std::fputs(summary.c_str(), stdout);
  std::printf("fitted: %s\n", out.c_str());
  return kExitOk;
}

}  // namespace

int RunFit(const Args& args) {
  CommandLine line(
      "fit", "fit TELEMETRY... [--kind K] [--into SCENARIO] [-o OUT] [--window-s W] [--report DIR]",
      "Fits a scenario's numbers to OpenTelemetry traces in OTLP/JSON (such as drainsim run\n"
      "--format otlp writes), to drainsim live's live-events.jsonl, and to metric series (CSV,\n"
      "Prometheus query_range or CloudWatch GetMetricData JSON) whose inflow_per_s gives the\n"
      "arrivals: per message kind (drainsim.kind or messaging.destination.name),\n"
      "the handler time (lognormal by maximum likelihood and an empirical table, each with its\n"
      "Kolmogorov-Smirnov distance; the lognormal unless the data reject it at 5%), the failure\n"
      "probability of each error class with a Wilson 95% interval, attempts per message, and the\n"
      "Poisson arrival rate per --window-s window or, without it, per segment chosen from the "
      "data\n"
      "(a dispersion test at 5%, then change points by binary segmentation); a series' arrivals\n"
      "replace the spans' (it counts every message; traces are often sampled). Writes a scenario "
      "fragment (with --into, the scenario\n"
      "with the fragment merged in) whose every fitted value carries \"fitted\": {\"from\", "
      "\"n\",\n"
      "\"method\", \"ks\", \"interval\"}, to OUT or stdout; the summary goes to stdout when OUT "
      "is\n"
      "given, else to stderr. docs/TELEMETRY.md has the rules.\n"
      "Exit code 0, or 2 on bad input (the file, JSON pointer and reason; nothing written).");
  line.options.add_options()("telemetry", po::value<std::vector<std::string>>()->required(),
                             "OTLP/JSON trace files, live-events.jsonl of drainsim live, or metric "
                             "series (CSV, Prometheus, CloudWatch)")(
      "kind", po::value<std::string>(),
      "read every file as otlp, live, csv, prometheus or cloudwatch (default: recognised by its "
      "name and content, docs/TELEMETRY.md)")(
      "inflow-kind", po::value<std::string>(),
      "the message kind whose arrivals a series' inflow_per_s counts (default: the traces' one "
      "kind)")(
      "map", po::value<std::vector<std::string>>(),
      "read the series named NAME (Prometheus __name__, CloudWatch Id or Label) as FIGURE, "
      "e.g. rabbitmq_queue_messages_published_rate=inflow_per_s")(
      "into", po::value<std::string>(),
      "merge the fragment into this scenario (its kinds, "
      "errors faults and producers of the fitted kinds)")(
      "out,o", po::value<std::string>(), "write the fragment or scenario here (default: stdout)")(
      "window-s", po::value<double>()->default_value(0),
      "arrival-rate windows in seconds (default 0: segments chosen from the data, "
      "docs/TELEMETRY.md)")(
      "report", po::value<std::string>(),
      "also write fit.md and fit.html here: each fitted handler-time CDF over the data's ECDF, "
      "the arrivals per bin with the fitted rate");
  line.positional.add("telemetry", -1);
  po::variables_map vm;
  if (auto stop = ParseCommandLine(line, args, vm)) return *stop;
  const double window_s = vm["window-s"].as<double>();
  if (!(window_s >= 0 && window_s <= 1e9)) return FitFail("--window-s: must be 0..1e9 seconds");

  std::optional<FitInputKind> kind;
  if (vm.count("kind")) {
    const base::Expected<FitInputKind> named = ParseFitInputKind(vm["kind"].as<std::string>());
    if (!named) return FitFail(named.error());
    kind = *named;
  }
  const base::Expected<telemetry::SeriesReadOptions> series_options = SeriesOptions(
      vm.count("map") ? vm["map"].as<std::vector<std::string>>() : std::vector<std::string>{});
  if (!series_options) return FitFail(series_options.error());
  FitInputs inputs;
  if (base::Status s = ReadFitInputs(vm["telemetry"].as<std::vector<std::string>>(), kind,
                                     *series_options, &inputs);
      !s) {
    return FitFail(s.error());
  }
  experiments::FitResult fit = experiments::FitTelemetry(inputs.set, window_s);
  const std::string inflow_kind =
      vm.count("inflow-kind") ? vm["inflow-kind"].as<std::string>() : "";
  if (base::Status s = experiments::FitSeriesArrivals(inputs.series, inflow_kind, window_s, &fit);
      !s) {
    return FitFail(s.error());
  }
  std::string output = reports::FitFragment(fit);
  if (vm.count("into")) {
    const std::string path = vm["into"].as<std::string>();
    std::string base_text;
    if (base::Status s = ReadFileText(path, &base_text); !s) return FitFail(s.error());
    base::Expected<std::string> merged = experiments::MergeFitInto(base_text, path, output);
    if (!merged) return FitFail(merged.error());
    output = *merged;
  }
  return WriteFitOutputs(vm, fit, output);
}

}  // namespace drainsim::cli
