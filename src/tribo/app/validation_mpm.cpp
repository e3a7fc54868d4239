// MPM validation problems: decks of examples/ against closed-form results (PHYSICS.md,
// "Closed-form checks").
#include <fmt/format.h>
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <functional>
#include <numbers>

#include "tribo/app/run_driver.hpp"
#include "tribo/app/validation_problem.hpp"
#include "tribo/io/history.hpp"
#include "tribo/mpm/mpm_simulation.hpp"
#include "tribo/parallel/communicator.hpp"

namespace tribo::app {

namespace fs = std::filesystem;

std::vector<double> History::column(const std::string& name) const {
  for (std::size_t c = 0; c < columns.size(); ++c)
    if (columns[c] == name) {
      std::vector<double> values;
      for (const auto& row : rows) values.push_back(row[c]);
      return values;
    }
  throw std::runtime_error("validation: no history column " + name);
}

namespace {

// Process 0's history sent to every process (the run's folder may be on process 0's machine
// only): the column names, then the rows, as one message through all_to_all.
void share_history(const parallel::Communicator& processes, History& h) {
  std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(processes.size()));
  if (processes.rank() == 0) {
    std::string names;
    for (const std::string& c : h.columns) names += c + '\n';
    const std::uint64_t header[3] = {names.size(), h.rows.size(), h.columns.size()};
    std::vector<std::byte> message(sizeof header + names.size());
    std::memcpy(message.data(), header, sizeof header);
    std::memcpy(message.data() + sizeof header, names.data(), names.size());
    for (const auto& row : h.rows) {
      const std::size_t at = message.size();
      message.resize(at + row.size() * sizeof(double));
      std::memcpy(message.data() + at, row.data(), row.size() * sizeof(double));
    }
    for (int r = 1; r < processes.size(); ++r) send[static_cast<std::size_t>(r)] = message;
  }
  const auto received = processes.all_to_all(std::move(send));
  if (processes.rank() == 0) return;
  const std::vector<std::byte>& message = received[0];
  std::uint64_t header[3];
  std::memcpy(header, message.data(), sizeof header);
  const std::string names(reinterpret_cast<const char*>(message.data() + sizeof header), header[0]);
  h.columns.clear();
  for (std::size_t start = 0; start < names.size();) {
    const std::size_t end = names.find('\n', start);
    h.columns.push_back(names.substr(start, end - start));
    start = end + 1;
  }
  h.rows.assign(header[1], std::vector<double>(header[2]));
  std::size_t at = sizeof header + header[0];
  for (auto& row : h.rows) {
    std::memcpy(row.data(), message.data() + at, row.size() * sizeof(double));
    at += row.size() * sizeof(double);
  }
}

}  // namespace

History run_example(const std::string& deck, const std::function<void(SimulationSpec&)>& change) {
  History h;
  h.spec = load_example(deck);
  if (change) change(h.spec);
  // Under mpirun (docs/parallel.md) a PD deck, or an MPM deck that can run across the processes,
  // does, into one folder named by process 0; any other deck runs whole on every process, each in
  // its own folder (the same result everywhere: the checks below then agree on every process).
  const parallel::Communicator world = parallel::Communicator::world();
  const bool across = world.size() > 1 && (h.spec.method == Method::Pd || mpm::unsupported_across_processes(h.spec).empty());
  const long long pid = ::getpid();
  const long long tag = across ? world.sum(world.rank() == 0 ? pid : 0LL) : pid;
  // One folder per process: two problems may run one deck at once (ctest -j).
  const fs::path dir =
      fs::temp_directory_path() / fmt::format("tribo-validate-{}-{}", fs::path(deck).stem().string(), tag);
  RunOptions options;
  options.output_directory = dir;
  options.progress = false;
  options.write_frames = false;
  options.one_process = !across;
  const RunReport report = run_simulation(h.spec, options);
  if (report.exit_code != 0) throw std::runtime_error(fmt::format("{}: {}", deck, report.exit_reason));
  if (!across || world.rank() == 0) h.rows = io::read_history_csv(dir / "history.csv", &h.columns);
  if (across) share_history(world, h);  // also waits until every process is done with the folder
  std::error_code ignored;  // processes sharing the folder remove it at once
  fs::remove_all(dir, ignored);
  return h;
}

namespace {

double gravity_angle(const SimulationSpec& spec) { return std::atan2(spec.gravity.x(), -spec.gravity.y()); }

// Least-squares fit of x(t) = c0 + c1 t + 0.5 a t^2 over rows with t >= t_from; returns a.
double fitted_acceleration(const std::vector<double>& t, const std::vector<double>& x, double t_from) {
  Eigen::Matrix3d A = Eigen::Matrix3d::Zero();
  Eigen::Vector3d b = Eigen::Vector3d::Zero();
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] < t_from) continue;
    const Eigen::Vector3d phi(1.0, t[i], 0.5 * t[i] * t[i]);
    A += phi * phi.transpose();
    b += phi * x[i];
  }
  return A.ldlt().solve(b)[2];
}

// Every body of the deck (boxes, disks and spheres, the shapes of these decks) moved up by half a
// cell: the floor's top, which the validation decks put on
// a node row, then lies halfway between two rows, and the particles (filled at a quarter and three
// quarters of each cell) sit half a cell higher against the nodes. A result that holds only on the
// aligned lattice is tuned to it (issue 13; docs/mpm-contact.md, "Lattice offset").
void shift_bodies_half_a_cell_up(SimulationSpec& spec) {
  const double dy = 0.5 * spec.mpm.cell[1];
  for (BodySpec& body : spec.bodies) {
    body.geometry.min.y() += dy;
    body.geometry.max.y() += dy;
    body.geometry.center.y() += dy;
  }
}

enum class Lattice { Aligned, HalfCellOffset };

// The deck's own normal law (impulse, the default) or the penalty law (docs/mpm-contact.md,
// "Penalty normal law") with its default scale, and the name suffix of that variant.
void use_normal_law(SimulationSpec& spec, ContactNormalLaw law) { spec.mpm.contact.normal_law = law; }
std::string law_suffix(ContactNormalLaw law) { return law == ContactNormalLaw::Penalty ? "-penalty" : ""; }
std::string lattice_suffix(Lattice lattice) { return lattice == Lattice::HalfCellOffset ? "-offset" : ""; }

std::vector<ValidationRow> incline(const std::string& deck, const std::string& name, double mu, double tolerance,
                                   Lattice lattice = Lattice::Aligned,
                                   ContactNormalLaw law = ContactNormalLaw::Impulse) {
  const History h = run_example(deck, [&](SimulationSpec& spec) {
    if (lattice == Lattice::HalfCellOffset) shift_bodies_half_a_cell_up(spec);
    use_normal_law(spec, law);
  });
  const std::vector<double> t = h.column("time");
  const std::vector<double> x = h.column("centroid.block.x");
  const double theta = gravity_angle(h.spec);
  const double g = h.spec.gravity.norm();
  const double T = t.back();
  const double reference = ramped_travel(g * (std::sin(theta) - mu * std::cos(theta)), T, h.spec.gravity_ramp);
  return {compare_relative(name, fmt::format("travel at t = {:.3g} s (m)", T), reference, x.back() - x.front(),
                           tolerance)};
}

std::vector<ValidationRow> incline_stick() {
  const History h = run_example("validation/incline-stick.yaml");
  const std::vector<double> t = h.column("time");
  const std::vector<double> x = h.column("centroid.block.x");
  const double theta = gravity_angle(h.spec);
  const double g = h.spec.gravity.norm();
  // The slipping case: the same block and load with mu_k = 0.2 alone (the analytic rigid-block
  // travel; the slipping deck matches it to 0.03%). Issue 3: |x| < 1% of it.
  const double slipping = ramped_travel(g * (std::sin(theta) - 0.2 * std::cos(theta)), t.back(), h.spec.gravity_ramp);
  return {compare_absolute("incline-stick", "travel (m), mu_s = 0.7", 0.0, x.back() - x.front(), 0.01 * slipping)};
}

// A body rolling without slip down the incline of `deck`: the acceleration of `body`, fitted from
// 20 ms on (the contact settles and rolling starts), against factor g sin th (a cylinder 2/3, a
// sphere 5/7), within `tolerance`.
std::vector<ValidationRow> fitted_slide(const std::string& deck, const std::string& name, const std::string& body,
                                        double factor, double tolerance) {
  const History h = run_example(deck);
  const double theta = gravity_angle(h.spec);
  const double g = h.spec.gravity.norm();
  const double a = fitted_acceleration(h.column("time"), h.column("centroid." + body + ".x"), 0.02);
  return {compare_relative(name, "acceleration (m/s^2)", factor * g * std::sin(theta), a, tolerance)};
}

// Issue 13: 3D, a sphere rolling without slip, (5/7) g sin th within 5%. Not in ctest: the deck
// (8 cells per radius) takes ~110 s on one core; at 5 cells per radius (~15 s) it is -5.3%.
std::vector<ValidationRow> sphere_incline() {
  return fitted_slide("validation/sphere-incline.yaml", "sphere-incline", "sphere", 5.0 / 7.0, 0.05);
}

std::vector<ValidationRow> oblique_disks() {
  const History h = run_example("oblique-disks.yaml");
  const std::vector<double> px = h.column("momentum.x"), py = h.column("momentum.y");
  const std::vector<double> vl = h.column("velocity.left.x");
  // Scale: the momentum of one disk, |m v| (the total starts at zero).
  double mass = 0.0;
  for (const BodySpec& b : h.spec.bodies)
    mass = std::max(mass, b.geometry.measure() * h.spec.thickness * h.spec.materials[b.material_index].density);
  const double scale = mass * std::abs(vl.front());
  double drift = 0.0;
  for (std::size_t i = 0; i < px.size(); ++i)
    drift = std::max(drift, std::hypot(px[i] - px[0], py[i] - py[0]) / scale);
  return {compare_absolute("oblique-disks", "max |P(t) - P(0)| / |m v0|", 0.0, drift, 1e-10)};
}

// Largest |E(t) - E(0)| / E(0) of kinetic + strain + potential + frictional work (issue 13: 1%).
double energy_drift(const History& h) {
  const std::vector<double> e = h.column("energy.total");
  double drift = 0.0;
  for (double v : e) drift = std::max(drift, std::abs(v - e.front()) / std::abs(e.front()));
  return drift;
}

// Least-squares slope of y(t) over t_from <= t <= t_to.
double fitted_slope(const std::vector<double>& t, const std::vector<double>& y, double t_from, double t_to) {
  double n = 0, st = 0, sy = 0, stt = 0, sty = 0;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (t[i] < t_from || t[i] > t_to) continue;
    n += 1;
    st += t[i];
    sy += y[i];
    stt += t[i] * t[i];
    sty += t[i] * y[i];
  }
  return (n * sty - st * sy) / (n * stt - st * st);
}

double friction_of_first_pair(const SimulationSpec& spec) { return spec.mpm.contact.pairs.front().law.friction; }

// first_pass_to_particles: false runs the deck with NairnMPM's pass semantics (the frictional work
// then counts the post-update pass alone); the same tolerances hold.
std::vector<ValidationRow> slide_to_rest(bool first_pass_to_particles, Lattice lattice = Lattice::Aligned,
                                         ContactNormalLaw law = ContactNormalLaw::Impulse) {
  const std::string name = first_pass_to_particles ? "slide-to-rest" + law_suffix(law) + lattice_suffix(lattice)
                                                   : "slide-to-rest-nairn-passes";
  const History h = run_example("validation/slide-to-rest.yaml", [&](SimulationSpec& spec) {
    spec.mpm.contact.first_pass_to_particles = first_pass_to_particles;
    if (lattice == Lattice::HalfCellOffset) shift_bodies_half_a_cell_up(spec);
    use_normal_law(spec, law);
  });
  const std::vector<double> t = h.column("time"), x = h.column("centroid.block.x");
  const double g = h.spec.gravity.norm(), mu = friction_of_first_pair(h.spec);
  const double v0 = h.spec.bodies.front().velocity.x();
  const double travel = v0 * v0 / (2.0 * mu * g);
  // Stopped at v0 / (mu g) = 0.34 s; the last 0.2 s of the run (from 0.4 s) are at rest.
  std::size_t from = 0;
  while (from + 1 < t.size() && t[from] < t.back() - 0.2 - 1e-9) ++from;
  return {compare_relative(name, "travel (m)", travel, x[from] - x.front(), 0.03),
          compare_absolute(name, "max |E(t) - E(0)| / E(0)", 0.0, energy_drift(h), 0.01),
          compare_absolute(name, "drift in the last 0.2 s / travel", 0.0, (x.back() - x[from]) / travel,
                           0.001)};
}

// Issue 13: kinetic + strain + frictional work of the oblique impact constant within 1%. With APIC
// transfers (the default since stop 16) 0.77%; FLIP's 1.68% (the free disks' numerical loss after
// they separate, and the normal, perfectly inelastic part of node contact; docs/mpm-contact.md).
std::vector<ValidationRow> oblique_disks_energy(Lattice lattice = Lattice::Aligned,
                                                ContactNormalLaw law = ContactNormalLaw::Impulse) {
  const History h = run_example("oblique-disks.yaml", [&](SimulationSpec& spec) {
    if (lattice == Lattice::HalfCellOffset) shift_bodies_half_a_cell_up(spec);
    use_normal_law(spec, law);
  });
  const std::string name = "oblique-disks-energy" + law_suffix(law) + lattice_suffix(lattice);
  return {compare_absolute(name, "max |E(t) - E(0)| / E(0)", 0.0, energy_drift(h), 0.01)};
}

struct RollingDisk {
  double deceleration, rolling_speed, v0, mu, g, energy;
};

// The disk launched without spin: sliding deceleration over 0.05-0.25 s (stick at 0.34 s), the
// rolling speed as the mean over 0.45-0.50 s (issue 13's window), and the energy.
// slip: the deck's contact.slip (node) or surface (docs/mpm-contact.md, "Slip at the surface").
RollingDisk rolling_disk_run(ContactSlipPoint slip = ContactSlipPoint::Node, Lattice lattice = Lattice::Aligned,
                             ContactNormalLaw law = ContactNormalLaw::Impulse) {
  const History h = run_example("validation/rolling-disk.yaml", [&](SimulationSpec& spec) {
    spec.mpm.contact.slip = slip;
    if (lattice == Lattice::HalfCellOffset) shift_bodies_half_a_cell_up(spec);
    use_normal_law(spec, law);
  });
  const std::vector<double> t = h.column("time"), v = h.column("velocity.disk.x");
  RollingDisk r{};
  r.v0 = h.spec.bodies.front().velocity.x();
  r.mu = friction_of_first_pair(h.spec);
  r.g = h.spec.gravity.norm();
  r.deceleration = -fitted_slope(t, v, 0.05, 0.25);
  double sum = 0.0;
  int n = 0;
  for (std::size_t i = 0; i < t.size(); ++i)
    if (t[i] >= 0.45 - 1e-9 && t[i] <= 0.50 + 1e-9) {
      sum += v[i];
      ++n;
    }
  r.rolling_speed = sum / n;
  r.energy = energy_drift(h);
  return r;
}

std::vector<ValidationRow> rolling_disk() {
  const RollingDisk r = rolling_disk_run();
  return {compare_relative("rolling-disk", "sliding deceleration (m/s^2)", r.mu * r.g, r.deceleration, 0.03),
          compare_absolute("rolling-disk", "max |E(t) - E(0)| / E(0)", 0.0, r.energy, 0.01)};
}

std::vector<ValidationRow> rolling_disk_speed() {
  const RollingDisk r = rolling_disk_run();
  return {compare_relative("rolling-disk-speed", "rolling speed (m/s)", 2.0 / 3.0 * r.v0, r.rolling_speed, 0.03)};
}

// Issue 13 with contact.slip: surface (not the default, not in ctest: its energy row measures
// 1.018%, over the 1% the node default keeps; docs/mpm-contact.md).
std::vector<ValidationRow> rolling_disk_surface() {
  const RollingDisk r = rolling_disk_run(ContactSlipPoint::Surface);
  const std::string name = "rolling-disk-surface";
  return {compare_relative(name, "sliding deceleration (m/s^2)", r.mu * r.g, r.deceleration, 0.03),
          compare_relative(name, "rolling speed (m/s)", 2.0 / 3.0 * r.v0, r.rolling_speed, 0.03),
          compare_absolute(name, "max |E(t) - E(0)| / E(0)", 0.0, r.energy, 0.01)};
}

// Issue 13's rows on the lattice moved by half a cell (not in ctest: its energy row fails, 2.56%
// at 10 cells per radius, and grows with refinement; docs/mpm-contact.md, "Lattice offset").
std::vector<ValidationRow> rolling_disk_offset() {
  const RollingDisk r = rolling_disk_run(ContactSlipPoint::Node, Lattice::HalfCellOffset);
  const std::string name = "rolling-disk-offset";
  return {compare_relative(name, "sliding deceleration (m/s^2)", r.mu * r.g, r.deceleration, 0.03),
          compare_relative(name, "rolling speed (m/s)", 2.0 / 3.0 * r.v0, r.rolling_speed, 0.03),
          compare_absolute(name, "max |E(t) - E(0)| / E(0)", 0.0, r.energy, 0.01)};
}

// Issue 13's rows with the penalty normal law: deceleration, rolling speed and energy together.
std::vector<ValidationRow> rolling_disk_penalty(Lattice lattice) {
  const RollingDisk r = rolling_disk_run(ContactSlipPoint::Node, lattice, ContactNormalLaw::Penalty);
  const std::string name = "rolling-disk-penalty" + lattice_suffix(lattice);
  return {compare_relative(name, "sliding deceleration (m/s^2)", r.mu * r.g, r.deceleration, 0.03),
          compare_relative(name, "rolling speed (m/s)", 2.0 / 3.0 * r.v0, r.rolling_speed, 0.03),
          compare_absolute(name, "max |E(t) - E(0)| / E(0)", 0.0, r.energy, 0.01)};
}

}  // namespace

void add_mpm_validation_problems(std::vector<ValidationProblem>& problems) {
  problems.push_back({"incline-slip", "block slipping down a 30 degree incline, mu = 0.2",
                      [] { return incline("validation/incline-slip.yaml", "incline-slip", 0.2, 0.03); }});
  problems.push_back({"incline-frictionless", "frictionless block on a 30 degree incline",
                      [] { return incline("validation/incline-frictionless.yaml", "incline-frictionless", 0.0, 0.02); }});
  problems.push_back({"incline-stick", "block held by static friction mu_s = 0.7 > tan 30", incline_stick});
  problems.push_back({"incline-static-slip", "mu_s = 0.5 < tan 30: the block slides at mu_k = 0.2", [] {
                        return incline("validation/incline-static-slip.yaml", "incline-static-slip", 0.2, 0.03);
                      }});
  problems.push_back({"rolling-cylinder", "cylinder rolling without slip, mu = 0.5", [] {
                        return fitted_slide("rolling-cylinder.yaml", "rolling-cylinder", "cylinder", 2.0 / 3.0, 0.05);
                      }});
  problems.push_back({"oblique-disks", "two disks in oblique frictional impact: momentum", oblique_disks});
  problems.push_back({"oblique-disks-energy", "two disks in oblique frictional impact: energy", [] { return oblique_disks_energy(); }});
  problems.push_back({"incline-elastic-floor", "block on an elastic floor, 30 degrees, mu = 0.2 (two deformable bodies)",
                      [] { return incline("validation/incline-elastic-floor.yaml", "incline-elastic-floor", 0.2, 0.03); }});
  // Issue 13 off the aligned lattice (docs/mpm-contact.md, "Lattice offset"): the elastic floor passes
  // with the stop-18 defaults (in ctest); the oblique disks' energy fails (1.76%), not in ctest.
  problems.push_back({"incline-elastic-floor-offset", "the same with the bodies half a cell off the node rows", [] {
                        return incline("validation/incline-elastic-floor.yaml", "incline-elastic-floor-offset", 0.2, 0.03,
                                       Lattice::HalfCellOffset);
                      }});
  problems.push_back({"oblique-disks-energy-offset", "the oblique impact with the disks half a cell higher: energy",
                      [] { return oblique_disks_energy(Lattice::HalfCellOffset); }});
  problems.push_back({"sphere-incline", "3D sphere rolling without slip down 30 degrees, mu = 0.5", sphere_incline});
  problems.push_back({"slide-to-rest", "block sliding to rest, mu = 0.3: travel, energy, no drift",
                      [] { return slide_to_rest(true); }});
  problems.push_back({"slide-to-rest-nairn-passes", "the same with first_pass_to_particles: false (NairnMPM)",
                      [] { return slide_to_rest(false); }});
  problems.push_back({"slide-to-rest-offset", "the same with the bodies half a cell off the node rows",
                      [] { return slide_to_rest(true, Lattice::HalfCellOffset); }});
  problems.push_back({"rolling-disk", "disk launched without spin, mu = 0.2: sliding deceleration, energy", rolling_disk});
  problems.push_back({"rolling-disk-speed", "disk launched without spin: rolling speed (2/3) v0", rolling_disk_speed});
  problems.push_back({"rolling-disk-surface", "the same with contact.slip: surface: deceleration, speed, energy",
                      rolling_disk_surface});
  problems.push_back({"rolling-disk-offset", "the disk and floor half a cell off the node rows: deceleration, speed, energy",
                      rolling_disk_offset});
  // The penalty normal law (mpm.contact.normal_law: penalty; docs/mpm-contact.md, "Penalty normal law").
  for (Lattice lattice : {Lattice::Aligned, Lattice::HalfCellOffset}) {
    const std::string where = lattice == Lattice::Aligned ? "" : ", half a cell off the node rows";
    problems.push_back({"rolling-disk-penalty" + lattice_suffix(lattice),
                        "disk launched without spin, penalty normal law" + where + ": deceleration, speed, energy",
                        [lattice] { return rolling_disk_penalty(lattice); }});
    problems.push_back({"slide-to-rest-penalty" + lattice_suffix(lattice),
                        "block sliding to rest, penalty normal law" + where,
                        [lattice] { return slide_to_rest(true, lattice, ContactNormalLaw::Penalty); }});
    problems.push_back({"incline-elastic-floor-penalty" + lattice_suffix(lattice),
                        "block on an elastic floor, penalty normal law" + where, [lattice] {
                          return incline("validation/incline-elastic-floor.yaml",
                                         "incline-elastic-floor-penalty" + lattice_suffix(lattice), 0.2, 0.03, lattice,
                                         ContactNormalLaw::Penalty);
                        }});
    problems.push_back({"oblique-disks-energy-penalty" + lattice_suffix(lattice),
                        "oblique impact of two disks, penalty normal law" + where + ": energy",
                        [lattice] { return oblique_disks_energy(lattice, ContactNormalLaw::Penalty); }});
  }
  problems.push_back({"incline-slip-penalty", "block slipping down a 30 degree incline, mu = 0.2, penalty normal law", [] {
                        return incline("validation/incline-slip.yaml", "incline-slip-penalty", 0.2, 0.03, Lattice::Aligned,
                                       ContactNormalLaw::Penalty);
                      }});
  problems.push_back({"velocity-weakening", "block slowing down on a floor, mu(v) = 0.2 + 0.2 exp(-v / 0.2 m/s): t(v)",
                      [] { return velocity_weakening_slowdown("validation/velocity-weakening.yaml", "velocity-weakening"); }});
}

}  // namespace tribo::app
