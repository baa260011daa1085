#include "tools/drainsim/out_dir.h"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

namespace drainsim::cli {

namespace {

namespace fs = std::filesystem;

constexpr size_t kComponentBytesMax = 255;  // NAME_MAX: a name of 200 bytes keeps "-sweep"

}  // namespace

std::string SafeComponent(const std::string& name) {
  std::string safe;
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    safe += (c == '/' || c == '\\' || byte < 0x20 || byte == 0x7f) ? '_' : c;
  }
  if (safe.size() > kComponentBytesMax) {
    size_t cut = kComponentBytesMax;
    while (cut > 0 && (static_cast<unsigned char>(safe[cut]) & 0xC0) == 0x80) --cut;
    safe.resize(cut);
  }
  if (safe.empty()) return "_";
  if (safe[0] == '.') safe[0] = '_';  // ".", ".." and hidden names
  return safe;
}

std::string DefaultOutDir(const char* command, const std::string& component) {
  const std::string safe = SafeComponent(component);
  if (safe != component) {
    std::fprintf(stderr,
                 "drainsim %s: note: \"%s\" (from the scenario's name) is not a safe "
                 "directory name; writing into out/%s instead (--out chooses)\n",
                 command, component.c_str(), safe.c_str());
  }
  return (fs::path("out") / safe).string();
}

base::Status CheckOutDir(const std::string& dir) {
  if (dir.empty()) return base::Failure{"--out is empty"};
  fs::path existing = dir;
  struct stat st;
  while (stat(existing.c_str(), &st) != 0) {
    // ENOTDIR: a path through a file; the walk up finds the file and names it.
    if (errno != ENOENT && errno != ENOTDIR) {
      return base::Failure{"cannot use --out " + dir + ": " + std::strerror(errno)};
    }
    const fs::path parent = existing.parent_path();
    existing = parent.empty() || parent == existing ? fs::path(".") : parent;
  }
  if (!S_ISDIR(st.st_mode)) {
    return base::Failure{"cannot use --out " + dir + ": " + existing.string() + ": " +
                         std::strerror(ENOTDIR)};
  }
  std::string probe = (existing / ".drainsim-probe-XXXXXX").string();
  if (mkdtemp(probe.data()) == nullptr) {
    return base::Failure{"cannot use --out " + dir + ": cannot write in " + existing.string() +
                         ": " + std::strerror(errno)};
  }
  rmdir(probe.c_str());
  return {};
}

}  // namespace drainsim::cli
