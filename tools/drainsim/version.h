// The version drainsim reports (--version, and later in every report). Generated at configure
// time so that a rebuild on a new commit recompiles one file only.
#pragma once

namespace drainsim::cli {
const char* VersionString();  // e.g. "0.1.0"
const char* GitCommit();      // e.g. "3f2a9c1d0b7e", "…-dirty", or "unknown"
}  // namespace drainsim::cli
