// The corpus of the metric-series fuzz targets (tools/fuzz/series_check.h) as plain files, and
// the shipped worked example: every file must satisfy the readers' property, in every build.
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "tools/fuzz/live_events_check.h"
#include "tools/fuzz/series_check.h"

namespace drainsim::fuzz {
namespace series_corpus_test {
namespace {

namespace fs = std::filesystem;

std::string Bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream bytes;
  bytes << in.rdbuf();
  return bytes.str();
}

// Every file under `folder` through every reader (a CSV file read as JSON and the other way
// round is bad input, which the property covers too).
int Replay(const fs::path& folder) {
  int replayed = 0;
  for (const auto& entry : fs::recursive_directory_iterator(folder)) {
    if (!entry.is_regular_file()) continue;
    INFO(entry.path().string());
    const std::string bytes = Bytes(entry.path());
    CHECK(CheckSeriesCsvBytes(bytes) == "");
    CHECK(CheckSeriesPrometheusBytes(bytes) == "");
    CHECK(CheckSeriesCloudWatchBytes(bytes) == "");
    ++replayed;
  }
  return replayed;
}

TEST_CASE("the metric-series fuzz corpus replays without a property violation", "[fuzz][series]") {
  CHECK(Replay(fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/series_corpus") >= 10);
  CHECK(Replay(fs::path(DRAINSIM_SOURCE_DIR) / "scenarios/telemetry") >= 3);
}

TEST_CASE("the corpus's good files read", "[fuzz][series]") {
  const fs::path corpus = fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/series_corpus";
  CHECK(CheckSeriesCsvBytes(Bytes(corpus / "csv/good-crlf.csv")) == "");
  CHECK(CheckSeriesPrometheusBytes(Bytes(corpus / "prometheus/good-mapped.prom")) == "");
  CHECK(CheckSeriesCloudWatchBytes(Bytes(corpus / "cloudwatch/good-cli.json")) == "");
}

TEST_CASE("the live-events fuzz corpus and the shipped live log replay without a violation",
          "[fuzz][live_events]") {
  int replayed = 0;
  const fs::path corpus = fs::path(DRAINSIM_SOURCE_DIR) / "tests/fuzz/live_events_corpus";
  for (const auto& entry : fs::directory_iterator(corpus)) {
    INFO(entry.path().string());
    CHECK(CheckLiveEventsBytes(Bytes(entry.path())) == "");
    ++replayed;
  }
  CHECK(replayed >= 5);
  CHECK(CheckLiveEventsBytes(Bytes(fs::path(DRAINSIM_SOURCE_DIR) /
                                   "scenarios/telemetry/live-retry-events.jsonl")) == "");
}

}  // namespace
}  // namespace series_corpus_test
}  // namespace drainsim::fuzz
