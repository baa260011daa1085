// The C++ side of the Python module, drainsim._core: each Bind* adds one group of functions. The
// public face is python/drainsim/__init__.py (docs/python.md); _core is its implementation and
// may change without notice.
//
// Contract:
//  (1) Every function calls the library functions the CLI calls (experiments/single_run.h,
//      loaded_scenario.h, experiment_setup.h, compare_setup.h, replicate.h): the same scenario,
//      path, seed and values give the bytes the CLI writes.
//  (2) The GIL is released while simulations run, and only then: nothing inside touches a
//      Python object (the scenarios are immutable from Python, shared read-only).
//  (3) Bad values raise ValueError (std::invalid_argument) with the CLI's wording; a run that
//      broke a model invariant raises drainsim.ModelError (experiments::ModelErrorInRun).
#pragma once

#include <pybind11/pybind11.h>

namespace drainsim::python {

// Scenario (a loaded scenario, immutable), load_file, load_text (bind_scenario.cc).
void BindScenario(pybind11::module_& m);

// run_report, replications_json, compare_json (bind_runs.cc).
void BindRuns(pybind11::module_& m);

}  // namespace drainsim::python
