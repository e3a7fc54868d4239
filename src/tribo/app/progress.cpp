#include "tribo/app/progress.hpp"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace tribo::app {

namespace {
std::string format_duration(double seconds) {
  if (!(seconds >= 0.0) || seconds > 1e7) return "--";
  const long s = static_cast<long>(seconds + 0.5);
  if (s >= 3600) return fmt::format("{}h{:02d}m", s / 3600, (s / 60) % 60);
  if (s >= 60) return fmt::format("{}m{:02d}s", s / 60, s % 60);
  return fmt::format("{}s", s);
}
}  // namespace

Progress::Progress(double end_time, bool enabled)
    : end_time_(end_time), enabled_(enabled), terminal_(isatty(STDERR_FILENO) != 0) {
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

void Progress::update(double time, long steps) {
  if (!enabled_) return;
  if (terminal_) {
    if ((steps & 15) != 0) return;  // the clock is not free either
    const auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = now;
    draw(time, steps, false);
  } else if (time >= next_decile_ * 0.1 * end_time_ * (1.0 - 1e-12) && next_decile_ < 10) {
    while (next_decile_ < 10 && time >= next_decile_ * 0.1 * end_time_ * (1.0 - 1e-12)) ++next_decile_;
    draw(time, steps, false);
  }
}

void Progress::finish(double time, long steps) {
  if (!enabled_) return;
  draw(time, steps, true);
}

void Progress::draw(double time, long steps, bool final) {
  const double elapsed =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  const double fraction = end_time_ > 0.0 ? std::min(1.0, time / end_time_) : 1.0;
  const double rate = elapsed > 0.0 ? steps / elapsed : 0.0;
  const double left = fraction > 0.0 ? elapsed * (1.0 - fraction) / fraction : -1.0;
  if (terminal_) {
    constexpr int width = 30;
    const int filled = static_cast<int>(fraction * width);
    std::string bar(filled, '#');
    bar.resize(width, '.');
    fmt::print(stderr, "\r[{}] {:5.1f}%  t = {:.4g} / {:.4g} s  {:.0f} steps/s  left {}   ", bar,
               100.0 * fraction, time, end_time_, rate, format_duration(left));
    if (final) fmt::print(stderr, "\n");
  } else {
    fmt::print(stderr, "{:5.1f}%  t = {:.4g} / {:.4g} s  step {}  {:.0f} steps/s  left {}\n",
               100.0 * fraction, time, end_time_, steps, rate, format_duration(left));
  }
  std::fflush(stderr);
}

}  // namespace tribo::app
