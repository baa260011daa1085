// The output set: every file one drainsim command writes into its output directory, replaced
// as a whole or not at all. Every writer goes through WriteOutputSet: `run` (its --format
// files), `run --replications`, `sweep`, `tune`, `compare`, `merge`, the --shard parts, and
// `live --serve-services`'s state file (a set of one file; live_serve.cc).
//
// How (why not one rename per file): the files are first written in full, fsync'ed and closed
// in a staging directory DIR/.drainsim-staging-XXXXXX (same file system, so renames are
// atomic). Only then, file by file, the existing DIR/NAME is hard-linked into STAGING/old/ (its
// backup, with rename as the fallback on file systems without hard links) and STAGING/NAME is
// renamed over DIR/NAME (each name always exists: a reader sees the old file or the new one).
// If any step fails, the names already switched are rolled back from their backups, so the
// directory holds the complete old set again. Then the staging directory is removed.
// SIGINT, SIGTERM, SIGHUP and SIGQUIT are blocked for the whole call and delivered when it
// returns: a Ctrl-C while writing a 2 MB trace takes effect a moment later, after the set is
// whole and no staging file is left. (Linux renameat2(RENAME_EXCHANGE) of a whole staging
// directory would switch atomically, but only if the set owned the directory; --out may be a
// directory with other files in it.)
//
// What the set is: the files this call writes, by name. Other files in DIR are never touched,
// including files of an earlier run that this one does not write (report.md after a re-run
// with only --format json): drainsim cannot tell them from a user's own file, so it never
// deletes or moves a file it is not replacing in this call.
//
// Contract:
//  (1) Returns success and DIR holds every file of `files` with its text; or returns the error
//      ("cannot write DIR/report.json: No space left on device": the file, what failed, the
//      errno text) and every name of `files` in DIR is as it was before the call (absent if it
//      was absent). This holds for any single failing system call.
//  (2) No staging file or directory is left in DIR, success or failure (unless a rollback
//      itself fails, a second failure: then the error says where the earlier files are kept).
//  (3) A name of `files` that is a directory in DIR is refused before anything is written.
//  (4) A catchable termination signal arriving during the call never leaves a mix of old and
//      new files or a staging file: it is delivered after the call. SIGKILL and power loss are
//      not covered (a staging directory may then be left; the files that are in place are
//      whole, since each was fsync'ed before its rename).
//
// REQUIRES: every name is a plain file name (no '/', not "." or ".."), names are distinct.
// Thread-safety: call from one thread while no other thread runs (signals are blocked for the
// calling thread only).
#pragma once

#include <string>
#include <vector>

#include "reports/output.h"
#include "sim/base/expected.h"

namespace drainsim::cli {

base::Status WriteOutputSet(const std::string& dir, const std::vector<reports::OutputFile>& files);

}  // namespace drainsim::cli
