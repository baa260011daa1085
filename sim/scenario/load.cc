// LoadScenarioText / LoadScenarioFile / FormatProblem: the entry points of load.h, and the
// reading of the top level and the `run` section.
#include "sim/scenario/load.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "sim/scenario/fitted_values.h"
#include "sim/scenario/parse.h"
#include "sim/scenario/plausibility.h"
#include "sim/scenario/presets.h"
#include "sim/scenario/read_sections.h"

namespace drainsim::scenario {

namespace internal {

namespace {

constexpr double kSamplesMax = 1e7;
constexpr double kEventsMax = 1e11;
constexpr size_t kSchemaUriBytesMax = 2000;

void ReadRunSection(const Node& node, Context& c, config::Run* run) {
  ObjectReader o(node);
  if (!o.valid()) {
    if (node.is_null()) node.TypeError("an object");
    return;
  }
  if (auto until = ReadInstant(o.Required("until_s"), Range::AboveAtMost(0, kRunSecondsMax))) {
    run->until = *until;
    c.run_until = *until;
  }
  const Node sample = o.Optional("sample_every_s");
  if (auto every = ReadSeconds(sample, Range::Above(0))) {
    // A period longer than the run is allowed (one sample): the default 10 s must stay valid
    // for runs shorter than that, or the dump of such a run would not load back.
    if (c.run_until && c.run_until->seconds() / every->seconds() > kSamplesMax) {
      sample.Error("would record " + FormatNumber(c.run_until->seconds() / every->seconds()) +
                   " samples per series; at most 1e7 are supported (got " +
                   Describe(sample.json()) + ")");
    } else {
      run->sample_every = *every;
    }
  }
  if (auto n = ReadInt(o.Optional("events_max"), Range::Closed(1, kEventsMax))) {
    run->events_max = *n;
  }
  o.Finish();
}

// `document` is changed: a preset's defaults are inserted (presets.h) before it is read.
config::Scenario ReadScenario(Json& document, Problems& problems) {
  config::Scenario s;
  const Node root(&document, "", &problems);
  if (!document.is_object()) {
    root.TypeError("a JSON object");
    return s;
  }
  ObjectReader o(root);
  const Node version = o.Required("format_version");
  if (auto v = ReadInt(version)) {
    if (*v != kFormatVersion) {
      // A different version means a different vocabulary: judging the rest would only list
      // every renamed key as unknown.
      version.Error("must be 1 (got " + Describe(version.json()) +
                    "); this drainsim reads format version 1 only");
      return s;
    }
  }
  // Inserting keys into the objects of `document` leaves the nodes above valid (nlohmann's
  // objects are std::maps).
  ApplyPresetDefaults(document);
  Context c(problems);
  if (auto name = ReadString(o.Required("name"), 200, false)) s.name = *name;
  if (auto text = ReadString(o.Optional("description"), 10000, true)) s.description = *text;
  if (auto seed = ReadUint64(o.Optional("seed"))) s.seed = *seed;
  // Editors read "$schema" to offer completion; drainsim checks that it is a string and then
  // drops it: it is not part of the scenario, and the canonical dump does not write it.
  ReadString(o.Optional("$schema"), kSchemaUriBytesMax, false);
  ReadRunSection(o.Required("run"), c, &s.run);
  ReadKinds(o.Required("kinds"), c, &s.kinds);
  ReadBroker(o.Optional("broker"), c, &s.broker);
  ReadWorkers(o.Required("workers"), c, &s.workers);
  ReadDatabase(o.Optional("database"), c, &s.database);
  ReadDownstream(o.Optional("downstream"), c, &s.downstream);
  ReadRetry(o.Optional("retry"), c, &s.retry);
  const Node producers = o.Optional("producers");
  const Node backlog = o.Optional("backlog");
  ReadProducers(producers, c, &s.producers);
  ReadBacklog(backlog, c, &s.backlog);
  auto empty_list = [](const Node& n) {
    return !n.present() || (n.json().is_array() && n.json().empty());
  };
  if (empty_list(producers) && empty_list(backlog)) {
    problems.Add("/producers",
                 "the scenario publishes nothing: give at least one producer or backlog entry");
  }
  ReadFaults(o.Optional("faults"), c, &s.faults);
  ReadDrains(o.Optional("drains"), c, &s.drains);
  ReadAlerts(o.Optional("alerts"), c, &s.alerts);
  ReadExpect(o.Optional("expect"), c, &s.expect);
  o.Finish();
  CheckScenario(s, c);
  CheckBrokerLimits(s, c);
  return s;
}

}  // namespace

}  // namespace internal

namespace {

LoadResult LoadText(std::string_view text, internal::Problems& problems) {
  LoadResult result;
  try {
    if (auto document = internal::ParseDocument(text, problems)) {
      config::Scenario scenario = internal::ReadScenario(*document, problems);
      if (problems.empty()) {
        result.warnings = PlausibilityWarnings(scenario);
        result.scenario = std::move(scenario);
      }
    }
  } catch (const std::exception& e) {
    // Nothing above throws on any input; this keeps contract (3) even on allocation failure.
    problems.Add("", std::string("internal error while loading: ") + e.what());
    result.scenario.reset();
  }
  result.problems = problems.Take();
  DRAINSIM_CHECK(result.scenario.has_value() == result.problems.empty());
  return result;
}

}  // namespace

LoadResult LoadScenarioText(std::string_view text) {
  internal::Problems problems;
  return LoadText(text, problems);
}

FittedLoad LoadScenarioTextWithFitted(std::string_view text) {
  internal::Problems problems;
  FittedLoad out;
  out.load = LoadText(text, problems);
  if (out.load.ok()) out.fitted = std::move(problems.fitted);
  return out;
}

LoadResult LoadScenarioFile(const std::string& path) {
  LoadResult result;
  auto fail = [&result](std::string message) {
    result.problems.push_back({"", std::move(message)});
    return result;
  };
  struct stat info {};
  if (::stat(path.c_str(), &info) != 0) {
    if (errno == ENOENT) return fail("no such file");
    return fail(std::string("cannot open: ") + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) return fail("is a directory, not a scenario file");
  // A FIFO or a device could block or never end; scenarios are regular files.
  if (!S_ISREG(info.st_mode)) return fail("is not a regular file");
  if (static_cast<uint64_t>(info.st_size) > internal::kTextBytesMax) {
    char size[32];
    std::snprintf(size, sizeof size, "%.1f", static_cast<double>(info.st_size) / (1 << 20));
    return fail(std::string("file is ") + size + " MiB; scenarios of at most 16 MiB are supported");
  }
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return fail(std::string("cannot open: ") + std::strerror(errno));
  std::string text;
  char buffer[65536];
  while (true) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int error = errno;
      ::close(fd);
      return fail(std::string("cannot read: ") + std::strerror(error));
    }
    if (n == 0) break;
    text.append(buffer, static_cast<size_t>(n));
    // The file may have grown since stat; never hold more than the limit plus one chunk.
    if (text.size() > internal::kTextBytesMax) break;
  }
  ::close(fd);
  return LoadScenarioText(text);
}

std::string FormatProblem(std::string_view file, const Problem& problem) {
  std::string out(file);
  out += ": ";
  // Pointers and messages are built from escaped text already; this guards the terminal
  // against anything that slipped through (a raw control byte in a key, say).
  auto append = [&out](std::string_view text) {
    for (char c : text) {
      const auto byte = static_cast<unsigned char>(c);
      if (byte < 0x20 || byte == 0x7F) {
        char escaped[8];
        std::snprintf(escaped, sizeof escaped, "\\x%02X", byte);
        out += escaped;
      } else {
        out += c;
      }
    }
  };
  if (!problem.pointer.empty()) {
    append(problem.pointer);
    out += ": ";
  }
  append(problem.message);
  return out;
}

std::string FormatWarning(std::string_view file, const Problem& warning) {
  return FormatProblem(file, {warning.pointer, "warning: " + warning.message});
}

}  // namespace drainsim::scenario
