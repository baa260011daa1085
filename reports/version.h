// The version drainsim reports: `drainsim --version`, report.json's `drainsim_version`, every
// experiment's output, and the Python module (python/). Generated at configure time
// (version.cc.in) so that a rebuild on a new commit recompiles one file only. In reports/ because
// every report names the binary that made it; the CLI and the Python module read it here.
#pragma once

#include <string>

namespace drainsim::reports {
const char* VersionString();  // e.g. "0.1.0"
const char* GitCommit();      // e.g. "3f2a9c1d0b7e", "…-dirty", or "unknown"
// "0.1.0 (commit 3f2a9c1d0b7e)": ReportContext::drainsim_version and Experiment's.
std::string VersionText();
}  // namespace drainsim::reports
