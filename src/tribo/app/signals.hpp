#pragma once
// SIGINT and SIGTERM during a run: the first one only raises a flag that the time loop reads once
// a step, so the run stops between steps after writing a checkpoint (run_driver.hpp). The handler
// is installed with SA_RESETHAND: a second signal has the default action and ends the program at
// once, which is safe because every file is written atomically.
namespace tribo::app {

// Installs the handlers for its lifetime and restores the previous ones after. A SIGINT that was
// ignored when the program started (a background job of a script, nohup) stays ignored.
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
};

// 0, or the number of the first stop signal received.
int stop_requested();
// Forget a received signal (tests; a run that has handled it).
void clear_stop_request();
// As if `signal` had arrived (tests, and a run told to stop by other means).
void request_stop(int signal);

// "SIGINT", "SIGTERM", or "a stop signal".
const char* signal_name(int signal);

}  // namespace tribo::app
