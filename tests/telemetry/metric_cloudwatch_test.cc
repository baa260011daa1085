// The CloudWatch GetMetricData reader of `drainsim backtest` (sim/telemetry/metric_series.h): the
// AWS CLI's output (ISO 8601 times, newest first), unix-second times, pages of one series merged,
// mapping by Id and Label, each bad-input reason at its JSON pointer; and --offset-s (Shifted).
#include <catch2/catch.hpp>
#include <string>

#include "sim/telemetry/metric_series.h"

namespace drainsim::telemetry {
namespace metric_cloudwatch_test {
namespace {

using Catch::Matchers::Contains;

const SeriesReadOptions kNoOptions;

// A response with `results` as its MetricDataResults.
std::string Response(const std::string& results) {
  return R"({"MetricDataResults": )" + results + R"(, "Messages": []})";
}

std::string Error(const std::string& text, const SeriesReadOptions& options = kNoOptions) {
  const auto read = ReadSeriesCloudWatch(text, "cw.json", options);
  REQUIRE_FALSE(read.ok());
  return read.error();
}

TEST_CASE("series cloudwatch: the AWS CLI's output, newest first, read in time order",
          "[telemetry]") {
  SeriesReadOptions options;
  options.name_map = {{"ApproximateNumberOfMessagesVisible", "depth"}};
  const std::string text = Response(R"([
    {"Id": "m1", "Label": "ApproximateNumberOfMessagesVisible",
     "Timestamps": ["2026-03-01T02:10:00+00:00", "2026-03-01T02:05:00+00:00",
                    "2026-03-01T02:00:00+00:00"],
     "Values": [0.0, 120.0, 300.0], "StatusCode": "Complete"},
    {"Id": "dlq_depth", "Label": "ApproximateNumberOfMessagesVisible",
     "Timestamps": ["2026-03-01T03:05:00.500Z", "2026-03-01T04:00:00+01:00"],
     "Values": [7, 5], "StatusCode": "Complete"}])");
  // ReadSeries picks the CloudWatch reader by its MetricDataResults.
  for (const auto& read : {ReadSeriesCloudWatch(text, "cw.json", options),
                           ReadSeries("\n " + text, "cw.json", options)}) {
    REQUIRE(read.ok());
    REQUIRE(read->figures.size() == 2);
    const auto& depth = read->figures.at("depth");  // by the Label, through --map
    REQUIRE(depth.size() == 3);
    CHECK(depth[0].t_s == 0);  // 02:00 UTC, the file's earliest
    CHECK(depth[0].value == 300);
    CHECK(depth[1].t_s == 300);
    CHECK(depth[2].t_s == 600);
    CHECK(depth[2].value == 0);
    const auto& dlq = read->figures.at("dlq_depth");  // by the Id, a figure name
    REQUIRE(dlq.size() == 2);
    CHECK(dlq[0].t_s == 3600);  // 04:00+01:00 is 03:00 UTC
    CHECK(dlq[0].value == 5);
    CHECK(dlq[1].t_s == 3900.5);
  }
}

TEST_CASE("series cloudwatch: unix seconds, and pages of one series merged", "[telemetry]") {
  const auto read = ReadSeriesCloudWatch(Response(R"([
    {"Id": "depth", "Timestamps": [1000, 1060], "Values": [4, 3], "StatusCode": "PartialData"},
    {"Id": "depth", "Timestamps": [1120], "Values": [0], "StatusCode": "Complete"}])"),
                                         "cw.json", kNoOptions);
  REQUIRE(read.ok());
  const auto& depth = read->figures.at("depth");
  REQUIRE(depth.size() == 3);
  CHECK(depth[2].t_s == 120);
  CHECK(depth[2].value == 0);
}

TEST_CASE("series cloudwatch: every bad-input reason names the pointer", "[telemetry]") {
  CHECK_THAT(Error("[]"), Contains("cw.json: /: must be an object"));
  CHECK_THAT(Error(R"({"MetricDataResults": {}})"),
             Contains("cw.json: /MetricDataResults: must be an array"));
  CHECK_THAT(Error(Response("[]")), Contains("/MetricDataResults: no results"));
  CHECK_THAT(Error(Response(R"([{"Timestamps": [], "Values": []}])")),
             Contains("/MetricDataResults/0: no Id and no Label"));
  CHECK_THAT(Error(Response(R"([{"Id": "oldest_age", "Timestamps": [1], "Values": [1]}])")),
             Contains("/MetricDataResults/0/Id: units missing: oldest_age is in seconds"));
  CHECK_THAT(Error(Response(R"([{"Id": "m1", "Label": "Queue depth", "Timestamps": [1],
                                 "Values": [1]}])")),
             Contains("--map ID=FIGURE"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1], "Values": [1],
                                 "StatusCode": "Forbidden"}])")),
             Contains("/MetricDataResults/0/StatusCode: is Forbidden"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1], "Values": [1],
                                 "StatusCode": "PartialData"}])")),
             Contains("depth: StatusCode PartialData and no page of it Complete"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Values": [1]}])")),
             Contains("/MetricDataResults/0/Timestamps: must be an array (no timestamps)"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1, 2], "Values": [1]}])")),
             Contains("/MetricDataResults/0/Values: 1 values for 2 timestamps"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": ["2026-03-01T02:00:00"],
                                 "Values": [1]}])")),
             Contains("/MetricDataResults/0/Timestamps/0: not a date-time with a zone"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": ["2026-02-30T02:00:00Z"],
                                 "Values": [1]}])")),
             Contains("/MetricDataResults/0/Timestamps/0: not a date-time"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [-5], "Values": [1]}])")),
             Contains("/MetricDataResults/0/Timestamps/0: must be at or after 1970"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1], "Values": [-1]}])")),
             Contains("/MetricDataResults/0/Values/0: must be finite and >= 0"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1], "Values": ["1"]}])")),
             Contains("/MetricDataResults/0/Values/0: must be a number"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [], "Values": []}])")),
             Contains("/MetricDataResults: depth: no points"));
  CHECK_THAT(Error(Response(R"([{"Id": "depth", "Timestamps": [1, 1], "Values": [1, 2]}])")),
             Contains("depth: two points at the same time"));
  CHECK_THAT(Error("{\"MetricDataResults\": [" + std::string(100, '[')), Contains("nested deeper"));
}

TEST_CASE("series offset: the scenario's 0 moved into the observation", "[telemetry]") {
  const auto read =
      ReadSeriesCsv("t_s,depth,dlq_depth\n0,9,1\n60,8,\n120,7,2\n180,6,\n", "obs.csv", kNoOptions);
  REQUIRE(read.ok());
  const auto shifted = Shifted(*read, 60);
  REQUIRE(shifted.ok());
  const auto& depth = shifted->figures.at("depth");
  REQUIRE(depth.size() == 3);  // the point before the offset is left out
  CHECK(depth[0].t_s == 0);
  CHECK(depth[0].value == 8);
  CHECK(depth[2].t_s == 120);
  CHECK(shifted->figures.at("dlq_depth").size() == 1);
  const auto earlier = Shifted(*read, -30);  // the scenario starts before the observation
  REQUIRE(earlier.ok());
  CHECK(earlier->figures.at("depth")[0].t_s == 30);
  const auto past = Shifted(*read, 150);
  REQUIRE_FALSE(past.ok());
  CHECK_THAT(past.error(), Contains("obs.csv: dlq_depth: no point at or after the offset (150"));
}

}  // namespace
}  // namespace metric_cloudwatch_test
}  // namespace drainsim::telemetry
