#include "tribo/app/signals.hpp"

#include <csignal>

namespace tribo::app {

namespace {

volatile std::sig_atomic_t received = 0;

extern "C" void on_stop_signal(int signal) { received = signal; }

struct Saved {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};
Saved saved;

void install(int signal, struct sigaction* previous) {
  struct sigaction action {};
  action.sa_handler = on_stop_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESETHAND | SA_RESTART;  // SA_RESTART: a write(2) in progress completes
  sigaction(signal, &action, previous);
}

}  // namespace

StopSignals::StopSignals() {
  struct sigaction current {};
  sigaction(SIGINT, nullptr, &current);
  if (current.sa_handler != SIG_IGN) install(SIGINT, &saved.interrupt);
  else saved.interrupt = current;
  install(SIGTERM, &saved.terminate);
}

StopSignals::~StopSignals() {
  sigaction(SIGINT, &saved.interrupt, nullptr);
  sigaction(SIGTERM, &saved.terminate, nullptr);
}

int stop_requested() { return received; }
void clear_stop_request() { received = 0; }
void request_stop(int signal) { received = signal; }

const char* signal_name(int signal) {
  switch (signal) {
    case SIGINT: return "SIGINT";
    case SIGTERM: return "SIGTERM";
    default: return "a stop signal";
  }
}

}  // namespace tribo::app
