// The property of `drainsim fit`'s telemetry path, for the fuzz_otlp target and the replay of its
// corpus (tests/fuzz/otlp_corpus): any bytes read as an OTLP/JSON traces file
// (sim/telemetry/otlp_read.h), and what reads is fitted (experiments/fit.h) and rendered
// (reports/fit_report.h), as `drainsim fit` does.
//
// The property:
//  (1) nothing crashes, throws or asks for unbounded memory, whatever the bytes;
//  (2) the reader gives the spans or one problem that names the file, never a partial read;
//  (3) every span read ends no earlier than it starts;
//  (4) a fit of spans that read renders a fragment that is JSON, with an object per kind fitted.
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::fuzz {

// "" when the property holds, else what broke.
std::string CheckOtlpBytes(std::string_view bytes);

}  // namespace drainsim::fuzz
