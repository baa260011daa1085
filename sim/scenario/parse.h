// Turning bytes into a JSON document, safely: the first stage of every load.
//
// Contract:
//  (1) Input larger than kTextBytesMax, input that is not UTF-8, empty input, input nested
//      deeper than kDepthMax, syntax errors (with line and column) and duplicate keys are
//      reported as Problems; nothing throws.
//  (2) The depth check runs on the raw bytes before any parser sees them, so no later walk of
//      the document can recurse more than kDepthMax levels.
//  (3) Returns a document iff no problem was found.
//
// Thread-safety: reentrant.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "sim/scenario/json_reader.h"

namespace drainsim::scenario::internal {

inline constexpr size_t kTextBytesMax = size_t{16} << 20;  // 16 MiB
inline constexpr int kDepthMax = 64;

// "line L, column C" of byte `offset` of `text` (1-based; columns count bytes).
std::string LineColumn(std::string_view text, size_t offset);

std::optional<Json> ParseDocument(std::string_view text, Problems& problems);

}  // namespace drainsim::scenario::internal
