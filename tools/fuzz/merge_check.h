// The property of `drainsim merge`'s part reader, for the fuzz_merge target and the replay of
// its corpus (tests/fuzz/merge_corpus): any bytes, split at form feeds ('\f', which JSON never
// holds unescaped) into up to 8 part files, are read by experiments::ReadPartial; the parts
// that read are merged as `drainsim merge` does, and a merge is rendered.
//
// The property:
//  (1) nothing crashes, throws or asks for unbounded memory, whatever the bytes;
//  (2) ReadPartial gives a partial or an error message, never both or neither;
//  (3) a partial read round-trips: PartialText -> ReadPartial -> PartialText gives the same text;
//  (4) Merge gives a merge or an error message; a merge has a record for every run, and renders.
//
// Thread-safety: reentrant.
#pragma once

#include <string>
#include <string_view>

namespace drainsim::fuzz {

// "" when the property holds, else what broke.
std::string CheckMergeBytes(std::string_view bytes);

}  // namespace drainsim::fuzz
