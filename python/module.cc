// drainsim._core: the module definition. python/bindings.h says what the module promises.
#include <pybind11/pybind11.h>

#include "experiments/runner.h"
#include "python/bindings.h"
#include "reports/version.h"
#include "sim/model/memory_cost.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "drainsim's C++ core; use the drainsim package (docs/python.md)";
  m.attr("__version__") = drainsim::reports::VersionString();
  m.attr("version_text") = drainsim::reports::VersionText();
  // A run that broke one of the model's invariants: a drainsim bug, never the scenario's.
  pybind11::register_exception<drainsim::experiments::ModelErrorInRun>(m, "ModelError",
                                                                       PyExc_RuntimeError);
  // A run that would hold more messages pending at once than the default cap (about 8.2e7,
  // sim/model/memory_cost.h): stopped there, nothing returned (the CLI's exit code 7).
  pybind11::register_exception<drainsim::model::PendingMessagesMaxExceeded>(
      m, "PendingMessagesMaxError", PyExc_MemoryError);
  drainsim::python::BindScenario(m);
  drainsim::python::BindRuns(m);
}
