// The metric-series readers of `drainsim backtest` (sim/telemetry/metric_series.h): good CSV and
// Prometheus query_range input, and each bad-input reason with its line or JSON pointer.
#include "sim/telemetry/metric_series.h"

#include <catch2/catch.hpp>
#include <string>

namespace drainsim::telemetry {
namespace metric_series_test {
namespace {

using Catch::Matchers::Contains;
using Catch::Matchers::Equals;

const SeriesReadOptions kNoOptions;

std::string CsvError(const std::string& text, const SeriesReadOptions& options = kNoOptions) {
  const auto read = ReadSeriesCsv(text, "obs.csv", options);
  REQUIRE_FALSE(read.ok());
  return read.error();
}

std::string PromError(const std::string& text, const SeriesReadOptions& options = kNoOptions) {
  const auto read = ReadSeriesPrometheus(text, "obs.json", options);
  REQUIRE_FALSE(read.ok());
  return read.error();
}

TEST_CASE("series csv: figures by column, empty fields skipped, CRLF and quotes", "[telemetry]") {
  const auto read =
      ReadSeriesCsv("t_s,\"depth\",dlq_depth,oldest_age_s\r\n0,5,0,1.5\r\n10,7,,2\r\n20,0,3,0\r\n",
                    "obs.csv", kNoOptions);
  REQUIRE(read.ok());
  REQUIRE(read->figures.size() == 3);
  const auto& depth = read->figures.at("depth");
  REQUIRE(depth.size() == 3);
  CHECK(depth[1].t_s == 10);
  CHECK(depth[1].value == 7);
  REQUIRE(read->figures.at("dlq_depth").size() == 2);  // the empty field is no sample
  CHECK(read->figures.at("dlq_depth")[1].t_s == 20);
  CHECK(read->figures.at("oldest_age_s")[0].value == 1.5);
}

TEST_CASE("series csv: drainsim's other columns are skipped when named", "[telemetry]") {
  SeriesReadOptions options;
  options.ignored_columns = {"parked", "in_flight"};
  const auto read = ReadSeriesCsv("t_s,depth,parked,in_flight\n0,1,2,3\n", "s.csv", options);
  REQUIRE(read.ok());
  CHECK(read->figures.size() == 1);
  CHECK_THAT(CsvError("t_s,depth,parked\n0,1,2\n"),
             Contains("line 1: column parked: unknown figure"));
}

TEST_CASE("series csv: every bad-input reason names the line", "[telemetry]") {
  CHECK_THAT(CsvError(""), Equals("obs.csv: line 1: no header row (t_s and figure columns)"));
  CHECK_THAT(CsvError("depth,dlq_depth\n1,2\n"),
             Equals("obs.csv: line 1: no t_s column (no timestamps)"));
  CHECK_THAT(CsvError("time,depth\n1,2\n"),
             Contains("line 1: units missing: the time column is t_s"));
  CHECK_THAT(CsvError("t_s,depth\n"), Equals("obs.csv: line 2: no rows (no timestamps)"));
  CHECK_THAT(CsvError("t_s,oldest_age\n0,1\n"),
             Contains("line 1: column oldest_age: units missing: oldest_age is in seconds: name it "
                      "oldest_age_s"));
  CHECK_THAT(CsvError("t_s,oldest_age_ms\n0,1\n"),
             Contains("unknown unit: oldest_age is in seconds"));
  CHECK_THAT(CsvError("t_s,queue_size\n0,1\n"),
             Contains("line 1: column queue_size: unknown figure"));
  CHECK_THAT(CsvError("t_s,depth,depth\n0,1,1\n"), Contains("line 1: column depth appears twice"));
  CHECK_THAT(CsvError("t_s,parked\n0,1\n", {{}, {"parked"}}), Contains("line 1: no figure column"));
  CHECK_THAT(CsvError("t_s,depth\n0,1\n10,2\n10,3\n"),
             Contains("line 4: t_s 10 is not after the previous row's (times must increase)"));
  CHECK_THAT(CsvError("t_s,depth\n5,1\n4,2\n"), Contains("line 3: t_s 4 is not after"));
  CHECK_THAT(CsvError("t_s,depth\n0,1\n1,x\n"), Contains("line 3: depth: not a number: \"x\""));
  CHECK_THAT(CsvError("t_s,depth\n0,-1\n"), Contains("line 2: depth: negative (-1)"));
  CHECK_THAT(CsvError("t_s,depth\n,1\n"), Contains("line 2: t_s: not a number"));
  CHECK_THAT(CsvError("t_s,depth\n0,1,2\n"), Contains("line 2: 3 fields, the header has 2"));
  CHECK_THAT(CsvError("t_s,depth\n0,\"1\n"), Contains("line 2: a quote is not closed"));
  CHECK_THAT(CsvError("t_s,depth\n0,inf\n"), Contains("line 2: depth: not a finite number"));
  CHECK_THAT(CsvError("t_s,depth,dlq_depth\n0,1,\n"), Contains("column dlq_depth has no value"));
}

std::string Prom(const std::string& result) {
  return R"({"status": "success", "data": {"resultType": "matrix", "result": )" + result + "}}";
}

TEST_CASE("series prometheus: mapped by __name__, times from the earliest sample", "[telemetry]") {
  SeriesReadOptions options;
  options.name_map = {{"rabbitmq_queue_messages_ready", "depth"}};
  const auto read = ReadSeriesPrometheus(
      Prom(R"([{"metric": {"__name__": "rabbitmq_queue_messages_ready", "queue": "jobs"},
                "values": [[1700000010, "4"], [1700000025.5, "6"]]},
               {"metric": {"__name__": "dlq_depth"}, "values": [[1700000000, "0"], [1700000015, "2"]]}])"),
      "obs.json", options);
  REQUIRE(read.ok());
  REQUIRE(read->figures.size() == 2);
  CHECK(read->figures.at("depth")[0].t_s == 10);
  CHECK(read->figures.at("depth")[1].t_s == 25.5);
  CHECK(read->figures.at("depth")[1].value == 6);
  CHECK(read->figures.at("dlq_depth")[0].t_s == 0);
  CHECK(ReadSeries("  " + Prom(R"([{"metric": {"__name__": "depth"}, "values": [[1, "2"]]}])"), "x",
                   kNoOptions)
            .ok());
}

TEST_CASE("series prometheus: every bad-input reason names the pointer", "[telemetry]") {
  CHECK_THAT(PromError("{"), Contains("obs.json: line 1: not JSON"));
  CHECK_THAT(PromError(std::string(100, '[')), Contains("line 1: nested deeper than 64 levels"));
  CHECK_THAT(PromError("[]"), Contains("obs.json: /: must be an object"));
  CHECK_THAT(PromError(R"({"status": "error", "error": "bad query"})"),
             Contains("/status: must be \"success\" (the response's error: bad query)"));
  CHECK_THAT(PromError(R"({"status": "success", "data": {"resultType": "vector", "result": []}})"),
             Contains("/data/resultType: must be \"matrix\""));
  CHECK_THAT(PromError(Prom("[]")), Contains("/data/result: no series"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {}, "values": [[1, "2"]]}])")),
             Contains("/data/result/0/metric: no __name__"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "up"}, "values": [[1, "2"]]}])")),
             Contains("/data/result/0/metric/__name__: unknown figure up"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "oldest_age"}, "values": [[1, "2"]]}])")),
             Contains("/data/result/0/metric/__name__: units missing"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}}])")),
             Contains("/data/result/0: no \"values\" (no timestamps)"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "histograms": []}])")),
             Contains("native histogram"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": []}])")),
             Contains("/data/result/0/values: no samples (no timestamps)"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [["a", "2"]]}])")),
             Contains("/data/result/0/values/0/0: no timestamp"));
  CHECK_THAT(
      PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [[2, "1"], [2, "1"]]}])")),
      Contains("/data/result/0/values/1/0: not after the previous sample's time"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [[1, 2]]}])")),
             Contains("/data/result/0/values/0/1: must be the value as a string"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [[1, "NaN"]]}])")),
             Contains("/data/result/0/values/0/1: not a finite number"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [[1, "-3"]]}])")),
             Contains("/data/result/0/values/0/1: negative"));
  CHECK_THAT(PromError(Prom(R"([{"metric": {"__name__": "depth"}, "values": [[1, "2"]]},
                                {"metric": {"__name__": "depth"}, "values": [[1, "2"]]}])")),
             Contains("/data/result/1: a second series for depth (the first is /data/result/0)"));
}

}  // namespace
}  // namespace metric_series_test
}  // namespace drainsim::telemetry
