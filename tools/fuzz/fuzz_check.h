// The property the scenario fuzzer checks, shared by the libFuzzer target and the corpus
// replay test that runs in every `tools/test`.
//
// For any bytes: the loader returns either a scenario or problems (never both, never
// neither), and a scenario it returns round-trips: load -> dump -> load gives an equal
// scenario whose dump is the same text. Crashes, hangs and sanitizer reports are the other
// failures the fuzzer finds by itself.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::fuzz {

// "" when `bytes` satisfy the property, otherwise what went wrong.
std::string CheckScenarioBytes(std::string_view bytes);

}  // namespace drainsim::fuzz
