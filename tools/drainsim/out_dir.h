// Where a command writes: the default output directory made from a scenario's name, and the
// check of --out made before anything is simulated.
//
// Decision (issue 20, defect 5): a scenario's `name` stays a free label - the loader accepts
// it, the reports print it as it is - but where it becomes a path it is turned into one safe
// path component, and a changed name is said on stderr. Refusing names at the loader would
// break scenarios whose name is a sentence; a label must simply never choose where files go.
//
// Contract:
//  (1) SafeComponent(name) is a single path component that stays inside its parent: no '/' or
//      '\\', no control character, never "", "." or "..", no leading '.', at most 255 bytes
//      (cut before a UTF-8 continuation byte). A name that already is one is returned as is.
//  (2) DefaultOutDir returns "out/" + SafeComponent(component) and, when that differs from
//      `component`, prints one note on stderr naming both.
//  (3) CheckOutDir(dir) succeeds when `dir` is, or can be created as, a writable directory
//      (probed by creating and removing a directory in it or in its nearest existing
//      ancestor), else fails with the reason and the errno text. It creates nothing that stays.
#pragma once

#include <string>

#include "sim/base/expected.h"

namespace drainsim::cli {

std::string SafeComponent(const std::string& name);
std::string DefaultOutDir(const char* command, const std::string& component);
base::Status CheckOutDir(const std::string& dir);

}  // namespace drainsim::cli
