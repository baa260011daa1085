// Shared by the output-set tests: a directory read as a set of files, restored, and the
// commands that write output sets (every writer path of drainsim), each with an "old" and a
// "new" invocation that write different bytes.
#pragma once

#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "tests/cli/process.h"
#include "tests/experiments/small_scenario.h"

namespace drainsim::testing {

namespace fs = std::filesystem;

// Every entry of `dir`, hidden ones included: a file's text, or "<dir>" for a directory.
using FileSet = std::map<std::string, std::string>;

inline FileSet ReadSet(const fs::path& dir) {
  FileSet files;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(dir, ec)) {
    const std::string name = entry.path().filename().string();
    files[name] = entry.is_directory() ? "<dir>" : ReadFile(entry.path().string());
  }
  return files;
}

inline void RestoreSet(const fs::path& dir, const FileSet& files) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, text] : files) {
    if (text == "<dir>") {
      fs::create_directories(dir / name);
    } else {
      std::ofstream(dir / name, std::ios::binary) << text;
    }
  }
}

inline fs::path FreshTestDir(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("drainsim-output-set-test-" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

inline std::string WriteText(const fs::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
  return path.string();
}

// One writer path: its arguments for seed 1 ("old") or 2 ("new") writing into `out`.
struct Writer {
  std::string name;
  std::vector<std::string> (*args)(const fs::path& base, const fs::path& out, bool newer);
};

inline std::string Seed(bool newer) { return newer ? "2" : "1"; }

inline std::vector<std::string> RunArgs(const fs::path& base, const fs::path& out, bool newer) {
  return {"run",      (base / "small.json").string(),
          "--seed",   Seed(newer),
          "--format", "json,md,junit,csv",
          "--out",    out.string()};
}

// The writers of every output path; `base` holds small.json and, for merge, the parts
// (PrepareWriters).
inline std::vector<Writer> Writers() {
  return {
      {"run", RunArgs},
      {"run --replications",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         return {"run",
                 (base / "small.json").string(),
                 "--replications",
                 "2",
                 "--seed",
                 Seed(newer),
                 "--out",
                 out.string()};
       }},
      {"run --replications --shard",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         return {"run",
                 (base / "small.json").string(),
                 "--replications",
                 "2",
                 "--shard",
                 "1/2",
                 "--seed",
                 Seed(newer),
                 "--out",
                 out.string()};
       }},
      {"sweep",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         return {"sweep",          (base / "small.json").string(),
                 "--vary",         "/workers/count=2,3",
                 "--replications", "2",
                 "--metric",       "attempts",
                 "--seed",         Seed(newer),
                 "--out",          out.string()};
       }},
      {"compare",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         return {"compare",
                 (base / "small.json").string(),
                 (base / "small.json").string(),
                 "--replications",
                 "2",
                 "--metric",
                 "attempts",
                 "--seed",
                 Seed(newer),
                 "--out",
                 out.string()};
       }},
      {"tune",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         return {"tune",       (base / "small.json").string(),
                 "--param",    "/workers/count",
                 "--range",    "1:4",
                 "--minimize", "--constraint",
                 "lost<=0",    "--replications",
                 "2",          "--seed",
                 Seed(newer),  "--out",
                 out.string()};
       }},
      {"merge",
       [](const fs::path& base, const fs::path& out, bool newer) -> std::vector<std::string> {
         const fs::path parts = base / (newer ? "parts-new" : "parts-old");
         return {"merge", (parts / "part-1-of-1.json").string(), "--out", out.string()};
       }},
  };
}

// Writes small.json into `base`, and the parts merge reads.
inline void PrepareWriters(const fs::path& base) {
  WriteText(base / "small.json", kSmallScenario);
  for (const bool newer : {false, true}) {
    RunDrainsim({"run", (base / "small.json").string(), "--replications", "2", "--shard", "1/1",
                 "--seed", Seed(newer), "--out",
                 (base / (newer ? "parts-new" : "parts-old")).string()});
  }
}

}  // namespace drainsim::testing
