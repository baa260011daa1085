// Partial results of a sharded experiment (`--shard i/N`) and their merge (`drainsim merge`).
//
// A partial file holds the experiment's description (experiment.h) and the records of the runs
// its shard made, by run index. Merging N partial files of one experiment gives every record in
// index order, exactly as the unsharded run kept them, so the merged output is byte-identical to
// the unsharded one: the output is rendered from the description and the records alone.
//
// Contract:
//  (1) ReadPartial(PartialText(...)) gives back the same experiment, shard and records (numbers
//      are written in nlohmann's shortest round-trip form; seeds and fingerprints as strings of
//      digits and hex, which no JSON tool rounds).
//  (2) Shards are numbered from 1 everywhere a person reads them: the file name, the file's
//      "shard": {"number", "count"} and every message.
//  (3) Merge refuses, with a message naming the file, parts of different experiments (any field
//      of the description, the drainsim version included), different shard counts, a shard
//      given twice, a missing shard, and a part holding a run that is not its shard's.
//
// Thread-safety: pure functions.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "experiments/experiment.h"
#include "experiments/runner.h"
#include "sim/base/expected.h"

namespace drainsim::experiments {

struct Partial {
  Experiment experiment;
  Shard shard;
  std::vector<int64_t> indices;    // increasing, each held by `shard`
  std::vector<RunRecord> records;  // records[k] is run indices[k]
};

// "part-2-of-8.json": the second of eight shards (numbered from 1, as --shard numbers them)
std::string PartialFileName(const Shard& shard);

// REQUIRES: indices.size() == records.size()
std::string PartialText(const Partial& partial);

// The partial in `text`, or why it is not one this binary wrote.
base::Expected<Partial> ReadPartial(const std::string& text);

struct Merged {
  Experiment experiment;
  std::vector<RunRecord> records;  // by run index, all of them
};

// `names[i]` names parts[i] in messages. REQUIRES: parts.size() == names.size()
base::Expected<Merged> Merge(const std::vector<Partial>& parts,
                             const std::vector<std::string>& names);

}  // namespace drainsim::experiments
