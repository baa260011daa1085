// The property of `drainsim backtest`'s metric-series readers (sim/telemetry/metric_series.h), for
// the fuzz_series_csv, fuzz_series_prometheus and fuzz_series_cloudwatch targets and the replay of
// their corpus (tests/fuzz/series_corpus/csv, .../prometheus, .../cloudwatch): any bytes read as
// each format.
//
// The property:
//  (1) nothing crashes, throws or asks for unbounded memory, whatever the bytes;
//  (2) the reader gives the series or one problem that starts with the file's name;
//  (3) every series read is a figure name, holds a point, has strictly increasing finite times
//      and finite values >= 0 (metric_series.h (3));
//  (4) reading the same bytes twice gives the same series (determinism).
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::fuzz {

// "" when the property holds, else what broke.
std::string CheckSeriesCsvBytes(std::string_view bytes);
std::string CheckSeriesPrometheusBytes(std::string_view bytes);
std::string CheckSeriesCloudWatchBytes(std::string_view bytes);

}  // namespace drainsim::fuzz
