#include "tools/fuzz/merge_check.h"

#include <optional>
#include <vector>

#include "experiments/experiment_result.h"
#include "experiments/partial.h"

namespace drainsim::fuzz {

namespace {

constexpr size_t kPartsMax = 8;

std::vector<std::string> SplitParts(std::string_view bytes) {
  std::vector<std::string> parts;
  size_t start = 0;
  while (parts.size() < kPartsMax) {
    const size_t end = bytes.find('\f', start);
    parts.emplace_back(bytes.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) break;
    start = end + 1;
  }
  return parts;
}

}  // namespace

std::string CheckMergeBytes(std::string_view bytes) {
  std::vector<experiments::Partial> parts;
  std::vector<std::string> names;
  for (const std::string& text : SplitParts(bytes)) {
    base::Expected<experiments::Partial> part = experiments::ReadPartial(text);
    if (!part && part.error().empty()) return "ReadPartial refused without a reason";
    if (!part) continue;
    const std::string written = experiments::PartialText(*part);
    const base::Expected<experiments::Partial> again = experiments::ReadPartial(written);
    if (!again) return "a partial's own text does not read back: " + again.error();
    if (experiments::PartialText(*again) != written) return "PartialText is not a fixed point";
    names.push_back("part" + std::to_string(names.size()));
    parts.push_back(std::move(*part));
  }
  if (parts.empty()) return "";
  const base::Expected<experiments::Merged> merged = experiments::Merge(parts, names);
  if (!merged && merged.error().empty()) return "Merge refused without a reason";
  if (!merged) return "";
  if (static_cast<int64_t>(merged->records.size()) != merged->experiment.RunCount()) {
    return "a merge without a record for every run";
  }
  const reports::Rendered rendered =
      experiments::RenderExperiment(merged->experiment, merged->records);
  if (rendered.text.empty()) return "a merge rendered to nothing";
  return "";
}

}  // namespace drainsim::fuzz
