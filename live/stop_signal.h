// Ctrl-C and SIGTERM for `drainsim live`: the first asks every loop to wind down and the services
// to be torn down (the normal exit path); a second one during the teardown is ignored, so the
// teardown finishes and nothing is left running.
//
// Contract:
//  (1) InstallStopHandlers() sets SIGINT and SIGTERM handlers that only store the signal number
//      (async-signal-safe); StopRequested() reads it. Loops poll it at least every 100 ms.
//  (2) RequestStop() sets it from code (a fatal error in one thread stops the others).
//  (3) SIGPIPE is ignored (a broker that closes its socket is an error value, not a death).
#pragma once

namespace drainsim::live {

void InstallStopHandlers();
bool StopRequested();
// The signal that asked for the stop (0: none, or requested by code).
int StopSignal();
void RequestStop();

}  // namespace drainsim::live
