// What an experiment command produces, before anything touches a file: the text for stdout and
// the files for --out DIR. Rendering is separate from running so that `drainsim merge` renders
// exactly what the unsharded command would have, from the experiment and its records alone.
#pragma once

#include <string>
#include <vector>

namespace drainsim::reports {

struct OutputFile {
  std::string name;  // a file name in the output directory: "replications.json"
  std::string text;
};

struct Rendered {
  std::string text;  // stdout
  std::vector<OutputFile> files;
  int exit_code = 0;  // 0, or 1 when an expectation failed in some replication or a gate failed
  // The "report: DIR/FILE" lines go to stderr rather than after `text` on stdout: `text` is a
  // document to be used as it is (compare --format markdown's pull-request comment).
  bool list_files_on_stderr = false;
};

}  // namespace drainsim::reports
