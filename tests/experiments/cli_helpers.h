// Shared by the command tests (tests/experiments/, tests/telemetry/): fresh directories, small
// scenarios written to files, the output files of a command read back, and a substring check.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/experiments/small_scenario.h"

namespace drainsim::testing {

// Per process: another build directory's suite may run the same test at the same time (a
// fixed name let one remove the other's files mid-test).
inline std::filesystem::path FreshDir(const std::string& name) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() /
      ("drainsim-experiments-test-" + name + "-" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  return dir;
}

inline bool Contains(const std::string& haystack, const std::string& needle) {
  return haystack.find(needle) != std::string::npos;
}

inline std::string WriteFile(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// Every file of `dir`, by name: the output of one command.
inline std::vector<std::pair<std::string, std::string>> ReadDir(const std::filesystem::path& dir) {
  std::vector<std::pair<std::string, std::string>> files;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    files.emplace_back(entry.path().filename().string(), ReadFile(entry.path().string()));
  }
  std::sort(files.begin(), files.end());
  return files;
}

// stdout without the "report: PATH" lines, which name the output directory.
inline std::string WithoutReportLines(const std::string& text) {
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end == std::string::npos ? end : end - start + 1);
    if (line.rfind("report: ", 0) != 0) out += line;
    if (end == std::string::npos) break;
    start = end + 1;
  }
  return out;
}

}  // namespace drainsim::testing
