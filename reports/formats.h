// The report formats `drainsim run --format` knows: one table entry per format, naming the file
// it writes and the function that renders it. Adding a format (html, trace) is one entry.
//
// Contract:
//  (1) Names are distinct lowercase words; file names are distinct.
//  (2) Every writer is a pure function of its ReportInput (reports/report_input.h): the same
//      run gives byte-identical files.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reports/output.h"
#include "reports/report_input.h"
#include "sim/base/expected.h"

namespace drainsim::reports {

struct Format {
  std::string_view name;       // "json": what --format takes
  std::string_view file_name;  // "report.json": written into --out DIR
  std::string_view summary;    // one line for --help
  std::string (*write)(const ReportInput& input);
  // The writer reads ReportInput::trace: the run must be recorded (model::TraceRecorder).
  bool needs_trace_log = false;
  // A second file the format writes beside file_name (otlp: the metrics beside the traces);
  // empty and null for the others.
  std::string_view companion_file_name = {};
  std::string (*write_companion)(const ReportInput& input) = nullptr;
  // The writer reads the trace log's database statements (model::TraceOptions::statements).
  bool needs_statements = false;
};

// Every format, in the order --help lists them.
std::span<const Format> Formats();

// The format named `name`, or nullptr iff none is.
const Format* FindFormat(std::string_view name);

// Every file `format` writes for `input`: file_name, then the companion when there is one.
std::vector<OutputFile> RenderFormat(const Format& format, const ReportInput& input);

// "json, md, junit, csv"
std::string FormatNames();

// Parses a comma-separated list ("json,md,junit"). Each name once, in the order given; a repeated
// name counts once. The formats, or the problem, naming the bad value and the known names.
base::Expected<std::vector<const Format*>> ParseFormatList(std::string_view list);

}  // namespace drainsim::reports
