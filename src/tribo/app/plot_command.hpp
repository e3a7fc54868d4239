#pragma once
// `tribo plot DIR`: pictures of a run without ParaView. The drawing is scripts/tribo_plot.py
// (matplotlib, and VTK's Python modules for frames) run by /usr/bin/python3; this finds the
// script, checks the interpreter and passes the options on.
#include <string>
#include <vector>

namespace tribo::app {

struct PlotOptions {
  std::string directory;      // a run's output folder
  bool frames = false;        // also snapshots of the particles
  std::string field = "velocity";
  std::vector<double> times;  // snapshots nearest these times (s); empty = six over the run
  std::string movie;          // "", "gif" or "mp4"
};

// The fields --field takes (tribo_plot.py's FIELDS).
const std::vector<std::string>& plot_fields();

// Runs the script and returns its exit status (0 done, 1 an error it reported), or 1 with a
// message on stderr when the script or the interpreter cannot be found or started.
int run_plot(const PlotOptions& options);

// Where tribo_plot.py is: $TRIBO_PLOT_SCRIPT, else beside the executable (../scripts/ of a build
// folder inside the source tree, ../share/tribo/ of an install), else the source tree the program
// was built from. Empty when none exists; `looked` lists the places tried.
std::string find_plot_script(std::vector<std::string>& looked);

}  // namespace tribo::app
