// Loading: a file or JSON text through experiments/loaded_scenario.h, the loader of the CLI's
// experiment commands, and the loaded scenario as an immutable Python object.
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "experiments/loaded_scenario.h"
#include "python/bindings.h"
#include "sim/scenario/load.h"

namespace drainsim::python {

namespace py = pybind11;
using experiments::LoadedScenario;

namespace {

// [(pointer, message, line)], the line as `drainsim check` prints it ("FILE: /pointer: ...").
py::list Problems(const std::string& path, const std::vector<scenario::Problem>& problems,
                  bool warnings) {
  py::list out;
  for (const scenario::Problem& p : problems) {
    const std::string line =
        warnings ? scenario::FormatWarning(path, p) : scenario::FormatProblem(path, p);
    out.append(py::make_tuple(p.pointer, p.message, line));
  }
  return out;
}

// (Scenario or None, problems, warnings): the Python side raises or warns.
py::tuple Outcome(const std::string& path, experiments::ScenarioLoad load) {
  py::object scenario = py::none();
  if (load.loaded) scenario = py::cast(std::make_shared<LoadedScenario>(std::move(*load.loaded)));
  return py::make_tuple(scenario, Problems(path, load.problems, false),
                        Problems(path, load.warnings, true));
}

}  // namespace

void BindScenario(py::module_& m) {
  py::class_<LoadedScenario, std::shared_ptr<LoadedScenario>>(m, "Scenario")
      .def_property_readonly("name", [](const LoadedScenario& s) { return s.scenario.name; })
      .def_property_readonly("path", [](const LoadedScenario& s) { return s.path; })
      .def_property_readonly("seed", [](const LoadedScenario& s) { return s.scenario.seed; })
      .def_property_readonly("hash", [](const LoadedScenario& s) { return s.hash; })
      .def("document_json", [](const LoadedScenario& s) { return s.document.dump(); })
      .def("canonical_json",
           [](const LoadedScenario& s) { return scenario::DumpCanonical(s.scenario); });
  m.def(
      "load_file",
      [](const std::string& path) {
        return Outcome(path, experiments::LoadScenarioForExperiment(path));
      },
      py::arg("path"));
  m.def(
      "load_text",
      [](const std::string& path, const std::string& text) {
        return Outcome(path, experiments::LoadScenarioTextForExperiment(path, text));
      },
      py::arg("path"), py::arg("text"));
}

}  // namespace drainsim::python
