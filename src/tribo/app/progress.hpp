#pragma once
// Progress of a run on stderr: a bar redrawn in place on a terminal, one line per 10% otherwise.
#include <chrono>

namespace tribo::app {

class Progress {
 public:
  Progress(double end_time, bool enabled);
  // Called every step; cheap unless it is time to redraw (at most 5 times a second).
  void update(double time, long steps);
  void finish(double time, long steps);

 private:
  void draw(double time, long steps, bool final);
  double end_time_;
  bool enabled_;
  bool terminal_;
  int next_decile_ = 1;
  long last_steps_ = 0;
  std::chrono::steady_clock::time_point start_, last_draw_;
};

}  // namespace tribo::app
