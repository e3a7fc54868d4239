#include "tribo/app/plot_command.hpp"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace tribo::app {

namespace fs = std::filesystem;

const std::vector<std::string>& plot_fields() {
  static const std::vector<std::string> fields{"velocity", "stress", "damage", "material",
                                               "displacement"};
  return fields;
}

std::string find_plot_script(std::vector<std::string>& looked) {
  std::vector<fs::path> candidates;
  if (const char* env = std::getenv("TRIBO_PLOT_SCRIPT"); env && *env) candidates.emplace_back(env);
  std::error_code ec;
  const fs::path exe = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    candidates.push_back(exe.parent_path() / ".." / "scripts" / "tribo_plot.py");
    candidates.push_back(exe.parent_path() / ".." / "share" / "tribo" / "tribo_plot.py");
  }
#ifdef TRIBO_SOURCE_DIR
  candidates.push_back(fs::path(TRIBO_SOURCE_DIR) / "scripts" / "tribo_plot.py");
#endif
  for (const fs::path& c : candidates) {
    const fs::path p = c.lexically_normal();
    looked.push_back(p.string());
    if (fs::is_regular_file(p, ec)) return p.string();
  }
  return {};
}

int run_plot(const PlotOptions& options) {
  std::vector<std::string> looked;
  const std::string script = find_plot_script(looked);
  if (script.empty()) {
    fmt::print(stderr, "tribo: error: cannot find tribo_plot.py (looked at {}); set TRIBO_PLOT_SCRIPT "
               "to its path\n", fmt::join(looked, ", "));
    return 1;
  }
  const char* env_python = std::getenv("TRIBO_PYTHON");
  const std::string python = env_python && *env_python ? env_python : "/usr/bin/python3";
  if (access(python.c_str(), X_OK) != 0) {
    fmt::print(stderr, "tribo: error: tribo plot needs {} (Debian packages python3, "
               "python3-matplotlib, python3-vtk9: scripts/install-deps.sh)\n", python);
    return 1;
  }
  std::vector<std::string> args{python, script, options.directory, "--field", options.field};
  if (options.frames) args.emplace_back("--frames");
  if (!options.times.empty()) {
    std::string list;
    for (double t : options.times) list += fmt::format("{}{}", list.empty() ? "" : ",", t);
    args.insert(args.end(), {"--times", list});
  }
  if (!options.movie.empty()) args.insert(args.end(), {"--movie", options.movie});

  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  std::fflush(stderr);
  const pid_t child = fork();
  if (child < 0) {
    fmt::print(stderr, "tribo: error: cannot start {}\n", python);
    return 1;
  }
  if (child == 0) {
    execv(python.c_str(), argv.data());
    std::fprintf(stderr, "tribo: error: cannot run %s\n", python.c_str());
    _exit(127);
  }
  int status = 0;
  while (waitpid(child, &status, 0) < 0) {
    if (errno != EINTR) return 1;
  }
  if (WIFEXITED(status)) return WEXITSTATUS(status) == 0 ? 0 : 1;
  fmt::print(stderr, "tribo: error: the plotting script stopped by signal {}\n", WTERMSIG(status));
  return 1;
}

}  // namespace tribo::app
