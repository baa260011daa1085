// What each fault type says of itself, beside its struct in faults.h (issue 15 step 2): its
// `type` word, what it is, what it acts on, its shape in time, the section it needs and whether
// the chaos swarm draws it. sim/config/fault_types.h gathers these into the descriptors that
// the model, the loader, the swarm and the reports read.
#pragma once

#include <cstdint>
#include <string_view>

namespace drainsim::config {

// What a fault acts on.
enum class FaultTarget : uint8_t {
  kAttempts,    // fails attempts as they run (errors)
  kMessages,    // fates chosen messages to fail on every attempt (synthetic, poison, bug)
  kDatabase,    // the database's speed, availability or pool
  kDownstream,  // the downstream API's availability or rate limit
  kWorkers,     // kills consumers
  kAcks,        // loses acks
  kBroker,      // the broker itself (a restart)
};

// How a fault is placed in time: what charts shade or mark and traces name.
enum class FaultShape : uint8_t {
  kWindow,   // active over [from, until): shaded; the trace names it opening and closing
  kOnset,    // applies to messages from `from` on (until a fix, if any): a mark at each edge
  kInstant,  // strikes at `from` (a broker restart may then be down until `until`): a line
};

// The scenario section a fault needs; the loader refuses it without one.
enum class FaultNeeds : uint8_t { kNothing, kDatabase, kDownstream };

struct FaultInfo {
  std::string_view name;  // the JSON `type`
  std::string_view what;  // one sentence, for docs and explanations
  FaultTarget target;
  FaultShape shape;
  FaultNeeds needs;
  bool swarm_draws;  // the chaos swarm draws it (docs/SWARM.md says why bug and synthetic don't)
  // The schema's description of the type (scenarios/schema.json, written by tools/docs/regenerate).
  std::string_view description{};
};

}  // namespace drainsim::config
