// The PD solver across processes (docs/parallel.md, "PD"): which points each process holds, how
// they move between processes, and how the copies of other processes' points are kept current.
//
// Each process owns the points of one box of a recursive coordinate bisection of the current
// positions (balanced by point count) and holds copies (ghosts) of every point within a width W
// of its box. It steps all of them with the one-process code, so that no kernel changes, and
// keeps only what it owns: the forces of an owned point are exact when every interaction they
// depend on lies within what the process holds, and W is the depth of that dependency (below).
// After every step the copies are refreshed from their owners (their own forces lack the
// interactions beyond W). Once a point has moved half the skin, or after a checkpoint, the boxes
// are recut and every point goes to the processes that now own or copy it.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <stdexcept>

#include "tribo/parallel/ghost_exchange.hpp"
#include "tribo/parallel/particle_exchange.hpp"
#include "tribo/parallel/rcb_partition.hpp"
#include "tribo/pd/pd_simulation.hpp"

namespace tribo::pd {

namespace {

// The ghosts' skin in lattice spacings: the copies reach W + skin at a distribution, and a new one
// comes once a point has moved skin / 2 (two points closing on each other by skin / 2 each).
constexpr double ghost_skin_spacings = 2.0;

template <class T>
void append_raw(std::vector<std::byte>& buffer, const T* data, std::size_t count) {
  const std::size_t start = buffer.size();
  buffer.resize(start + count * sizeof(T));
  if (count > 0) std::memcpy(buffer.data() + start, data, count * sizeof(T));
}

template <class T>
const std::byte* read_raw(const std::byte* in, const std::byte* end, T* data, std::size_t count) {
  if (static_cast<std::size_t>(end - in) < count * sizeof(T))
    throw std::runtime_error("pd distribution: a message ends early");
  if (count > 0) std::memcpy(static_cast<void*>(data), in, count * sizeof(T));
  return in + count * sizeof(T);
}

}  // namespace

template <int Dim>
std::size_t PdSimulation<Dim>::ghost_count() const {
  return static_cast<std::size_t>(std::count(owned_.begin(), owned_.end(), char{0}));
}

// This process's own points as they are now, in lattice order.
template <int Dim>
PointRecords<Dim> PdSimulation<Dim>::owned_records() const {
  const std::size_t n = particles_.size();
  std::vector<std::size_t> own;
  for (std::size_t i = 0; i < n; ++i)
    if (owned_[i]) own.push_back(i);
  const std::vector<double> zeros(n, 0.0);
  const auto sized = [&](const std::vector<double>& v) -> const std::vector<double>& {
    return v.size() == n ? v : zeros;
  };
  const std::vector<double>& slip = contact_ ? sized(contact_->slip_history()) : zeros;
  const auto held = std::tuple_cat(
      Particles<Dim>::arrays(particles_),
      std::tuple{NamedArray{"global_id", global_id_}, NamedArray{"owner", owner_},
                 NamedArray{"broken_volume", broken_volume_},
                 NamedArray{"lps_dilatation", sized(lps_dilatation_)},
                 NamedArray{"lps_coefficient", sized(lps_coefficient_)},
                 NamedArray{"lps_alpha", sized(lps_alpha_)}, NamedArray{"slip", slip},
                 NamedArray{"force", force_}, NamedArray{"applied_force", applied_force_}});
  PointRecords<Dim> records;
  parallel::copy_particles(held, own, PointRecords<Dim>::arrays(records));
  return records;
}

// The broken bonds of this process's points: (point, neighbour) by lattice index, flattened.
template <int Dim>
std::vector<std::int64_t> PdSimulation<Dim>::owned_broken_bonds() const {
  std::vector<std::int64_t> broken;
  for (std::size_t i = 0; i < particles_.size(); ++i) {
    if (!owned_[i]) continue;
    for (std::int64_t b = bonds_.begin(static_cast<int>(i)); b < bonds_.end(static_cast<int>(i)); ++b)
      if (bond_weight_[b] == 0.0) {
        broken.push_back(global_id_[i]);
        broken.push_back(global_id_[static_cast<std::size_t>(bonds_.neighbor[b])]);
      }
  }
  return broken;
}

// The depth W of what an owned point's force depends on, from the positions now (collective).
// L is the longest intact bond now (at least the bond search's reach, delta + h/2, the longest
// a family can hold at the first distribution); R' the contact's support or radius plus the skin.
//  - Bonds: a point's bond weights need its neighbours' families (the surface correction), so
//    its family's families: 2 L; LPS adds the neighbours' dilatation, 3 L. Bonds join the same
//    points for good, and which points a process holds is decided here, on the positions now:
//    the bonds need no skin.
//  - Contact joins whichever points come within R, and two points may close in by the skin before
//    the next distribution: each contact hop counts R' = R + skin. The repulsion on a pair needs
//    both points' smoothed fields (2 R'); friction on a pair needs its partner's force before
//    friction (R' + that force's own depth) and the load of the partner's pairs (3 R'); objective
//    friction evaluates the velocity fields of both points' families and spreads the friction
//    over them (2 L + R' before the force's depth).
template <int Dim>
double PdSimulation<Dim>::ghost_width() const {
  const double h = spec_.pd.spacing;
  double longest = spec_.pd.horizon * h + 0.5 * h;
  for (std::size_t i = 0; i < particles_.size() && !bonds_.offset.empty(); ++i) {
    if (!owned_[i]) continue;
    for (std::int64_t b = bonds_.begin(static_cast<int>(i)); b < bonds_.end(static_cast<int>(i)); ++b)
      if (bond_weight_[b] != 0.0)
        longest = std::max(longest, (particles_.position[static_cast<std::size_t>(bonds_.neighbor[b])] -
                                     particles_.position[i]).norm());
  }
  const double L = processes_.max(longest);
  bool lps = false;
  for (const BodyModel& body : body_models_) lps = lps || body.model == MaterialModel::Lps;
  const double bonds = (lps ? 3.0 : 2.0) * L;
  if (!PdContact<Dim>::needed(contact_bodies())) return bonds;
  const double R = list_radius(spec_.pd) + ghost_skin_;
  const double reach = spec_.pd.contact.friction_model == FrictionModel::Objective ? 2.0 * L + R : R;
  return std::max({bonds, reach + std::max(bonds, 2.0 * R), 3.0 * R});
}

template <int Dim>
bool PdSimulation<Dim>::moved_past_skin() const {
  const double limit = 0.25 * ghost_skin_ * ghost_skin_;
  double moved = 0.0;
  for (std::size_t i = 0; i < particles_.size(); ++i)
    if (owned_[i] && (particles_.position[i] - distributed_at_[i]).squaredNorm() > limit) moved = 1.0;
  return processes_.max(moved) > 0.0;
}

// Recuts the boxes over `mine` (this process's points) and sends each point to the process that
// will own it and to those that will hold a copy, with its broken bonds; then takes what arrived.
// Collective. Each process receives from rank 0, 1, ... in turn, each sender's points in lattice
// order, and sorts them by lattice index: the result depends only on the points and the process
// count (bitwise repeatable runs).
template <int Dim>
void PdSimulation<Dim>::distribute(PointRecords<Dim> mine, std::vector<std::int64_t> broken) {
  if (ghost_skin_ == 0.0) ghost_skin_ = ghost_skin_spacings * spec_.pd.spacing;
  const int parts = processes_.size(), rank = processes_.rank();
  const double width = ghost_width();

  parallel::Box<Dim> domain;
  domain.lower = Vec<Dim>::Constant(std::numeric_limits<double>::infinity());
  domain.upper = Vec<Dim>::Constant(-std::numeric_limits<double>::infinity());
  for (const Vec<Dim>& x : mine.particles.position) {
    domain.lower = domain.lower.cwiseMin(x);
    domain.upper = domain.upper.cwiseMax(x);
  }
  processes_.min_in_place(std::span<double>(domain.lower.data(), Dim));
  processes_.max_in_place(std::span<double>(domain.upper.data(), Dim));
  domain.upper += Vec<Dim>::Constant(spec_.pd.spacing);  // the upper bound is exclusive
  const auto partition = parallel::RcbPartition<Dim>::build(mine.particles.position, parts, domain, processes_);

  // Who gets each point: its owner and every process whose box is within W of it.
  std::vector<std::vector<std::size_t>> to(static_cast<std::size_t>(parts));
  for (std::size_t k = 0; k < mine.size(); ++k) {
    const Vec<Dim>& x = mine.particles.position[k];
    const int owner = partition.owner(x);
    mine.owner[k] = owner;
    for (int r = 0; r < parts; ++r)
      if (r == owner || parallel::distance_to_box(x, partition.box(r)) <= width)
        to[static_cast<std::size_t>(r)].push_back(k);
  }
  // Broken bonds by point: the pairs sorted by their first lattice index.
  const std::size_t pairs = broken.size() / 2;
  std::vector<std::size_t> by_point(pairs);
  std::iota(by_point.begin(), by_point.end(), std::size_t{0});
  std::sort(by_point.begin(), by_point.end(), [&](std::size_t a, std::size_t b) {
    return std::pair(broken[2 * a], broken[2 * a + 1]) < std::pair(broken[2 * b], broken[2 * b + 1]);
  });
  std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(parts));
  for (int r = 0; r < parts; ++r) {
    const auto& chosen = to[static_cast<std::size_t>(r)];
    std::vector<std::byte>& out = send[static_cast<std::size_t>(r)];
    const auto count = static_cast<std::int64_t>(chosen.size());
    append_raw(out, &count, 1);
    parallel::pack_particles(PointRecords<Dim>::arrays(mine), chosen, out);
    std::vector<std::int64_t> theirs;
    for (std::size_t k : chosen) {
      const std::int64_t g = mine.global_id[k];
      auto first = std::lower_bound(by_point.begin(), by_point.end(), g,
                                    [&](std::size_t p, std::int64_t value) { return broken[2 * p] < value; });
      for (; first != by_point.end() && broken[2 * *first] == g; ++first) {
        theirs.push_back(g);
        theirs.push_back(broken[2 * *first + 1]);
      }
    }
    const auto flat = static_cast<std::int64_t>(theirs.size());
    append_raw(out, &flat, 1);
    append_raw(out, theirs.data(), theirs.size());
  }
  std::vector<std::vector<std::byte>> received;
  communicate([&] { received = processes_.all_to_all(std::move(send)); });

  PointRecords<Dim> arrived;
  std::vector<std::int64_t> arrived_broken;
  for (const std::vector<std::byte>& message : received) {
    const std::byte* in = message.data();
    const std::byte* end = in + message.size();
    std::int64_t count = 0;
    in = read_raw(in, end, &count, 1);
    const std::size_t bytes = static_cast<std::size_t>(count) * parallel::bytes_per_particle(PointRecords<Dim>::arrays(arrived));
    if (static_cast<std::size_t>(end - in) < bytes) throw std::runtime_error("pd distribution: a message ends early");
    parallel::unpack_particles(PointRecords<Dim>::arrays(arrived), std::span<const std::byte>(in, bytes));
    in += bytes;
    std::int64_t flat = 0;
    in = read_raw(in, end, &flat, 1);
    const std::size_t before = arrived_broken.size();
    arrived_broken.resize(before + static_cast<std::size_t>(flat));
    read_raw(in, end, arrived_broken.data() + before, static_cast<std::size_t>(flat));
  }
  std::vector<std::size_t> order(arrived.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return arrived.global_id[a] < arrived.global_id[b]; });
  parallel::select_particles(PointRecords<Dim>::arrays(arrived), order);
  take_points(arrived, arrived_broken);

  // The copies to refresh after every step: with each process whose box is within W of this
  // one's (a symmetric relation), the own points within W of its box (the rule the senders used
  // above, on the same positions) and its points held here, both in lattice order.
  ghost_peers_.clear();
  ghost_send_.clear();
  ghost_receive_.clear();
  for (int r = 0; r < parts; ++r) {
    if (r == rank || parallel::distance_between_boxes(partition.box(rank), partition.box(r)) > width) continue;
    ghost_peers_.push_back(r);
    std::vector<std::size_t> out, in;
    for (std::size_t i = 0; i < particles_.size(); ++i) {
      if (owned_[i] && parallel::distance_to_box(particles_.position[i], partition.box(r)) <= width) out.push_back(i);
      if (owner_[i] == r) in.push_back(i);
    }
    ghost_send_.push_back(std::move(out));
    ghost_receive_.push_back(std::move(in));
  }
}

// Makes `records` (sorted by lattice index) the points of this process: the families, weights
// and contact are set up as on one process over them, then the state they carry is restored and
// their broken bonds are zeroed.
template <int Dim>
void PdSimulation<Dim>::take_points(PointRecords<Dim>& records, const std::vector<std::int64_t>& broken) {
  const std::size_t n = records.size();
  particles_ = std::move(records.particles);
  global_id_ = std::move(records.global_id);
  owner_ = std::move(records.owner);
  owned_.assign(n, 0);
  for (std::size_t i = 0; i < n; ++i) owned_[i] = owner_[i] == processes_.rank() ? 1 : 0;
  set_up_points();
  force_ = std::move(records.force);
  applied_force_ = std::move(records.applied_force);
  set_up_bonds();
  const auto local = [&](std::int64_t g) -> std::int64_t {
    const auto it = std::lower_bound(global_id_.begin(), global_id_.end(), g);
    return it != global_id_.end() && *it == g ? it - global_id_.begin() : -1;
  };
  for (std::size_t k = 0; k + 1 < broken.size(); k += 2) {
    const std::int64_t i = local(broken[k]), j = local(broken[k + 1]);
    if (i < 0 || j < 0) continue;  // a copy's bond to a point this process does not hold
    const auto begin = bonds_.neighbor.begin() + bonds_.begin(static_cast<int>(i));
    const auto end = bonds_.neighbor.begin() + bonds_.end(static_cast<int>(i));
    const auto it = std::lower_bound(begin, end, static_cast<std::int32_t>(j));
    if (it != end && *it == j) bond_weight_[static_cast<std::size_t>(it - bonds_.neighbor.begin())] = 0.0;
  }
  broken_volume_ = std::move(records.broken_volume);
  if (!lps_dilatation_.empty()) {
    lps_dilatation_ = std::move(records.lps_dilatation);
    lps_coefficient_ = std::move(records.lps_coefficient);
    lps_alpha_ = std::move(records.lps_alpha);
  }
  set_up_contact();
  if (contact_) contact_->slip_history() = std::move(records.slip);
  distributed_at_ = particles_.position;
  update_damage();
  stress_step_ = -1;
  owned_particles_step_ = -1;
  ++distributions_;
  redistribute_due_ = false;
}

// The copies' state from their owners (collective among the neighbours): 88 bytes a copy in 3D,
// plus the LPS state and the slip history where the deck has them (the same on every process).
template <int Dim>
void PdSimulation<Dim>::refresh_ghosts() {
  communicate([&] {
    const auto base = std::tuple{NamedArray{"position", particles_.position},
                                 NamedArray{"velocity", particles_.velocity},
                                 NamedArray{"force", force_},
                                 NamedArray{"damage", particles_.damage},
                                 NamedArray{"broken_volume", broken_volume_}};
    const auto lps = std::tuple{NamedArray{"lps_dilatation", lps_dilatation_},
                                NamedArray{"lps_coefficient", lps_coefficient_},
                                NamedArray{"lps_alpha", lps_alpha_}};
    std::vector<double> none;
    const bool with_lps = !lps_dilatation_.empty();
    const bool with_slip = contact_ && contact_->keeps_slip_history();
    const auto slip = std::tuple{NamedArray{"slip", with_slip ? contact_->slip_history() : none}};
    std::vector<std::vector<std::byte>> send(ghost_peers_.size());
    for (std::size_t k = 0; k < ghost_peers_.size(); ++k) {
      parallel::pack_particles(base, ghost_send_[k], send[k]);
      if (with_lps) parallel::pack_particles(lps, ghost_send_[k], send[k]);
      if (with_slip) parallel::pack_particles(slip, ghost_send_[k], send[k]);
    }
    const auto received = processes_.exchange(ghost_peers_, send);
    for (std::size_t k = 0; k < ghost_peers_.size(); ++k) {
      std::span<const std::byte> message = received[k];
      message = parallel::unpack_particles_into(base, ghost_receive_[k], message);
      if (with_lps) message = parallel::unpack_particles_into(lps, ghost_receive_[k], message);
      if (with_slip) message = parallel::unpack_particles_into(slip, ghost_receive_[k], message);
      if (!message.empty()) throw std::runtime_error("pd ghosts: a neighbour sent more than the copies it holds");
    }
  });
  owned_particles_step_ = -1;
}

// Every process's pairs in contact, drawn as one mesh on process 0 (surfaces(); collective, at the
// outputs only). The other processes get an empty mesh of the same name.
template <int Dim>
SurfaceMesh PdSimulation<Dim>::gathered_pair_mesh() const {
  SurfaceMesh gathered;
  communicate([&] {
    const SurfaceMesh mine = contact_->pair_mesh(std::span<const Vec<Dim>>(particles_.position), owned_);
    std::vector<std::vector<std::byte>> send(static_cast<std::size_t>(processes_.size()));
    append_raw(send[0], mine.points.data(), mine.points.size());
    const auto received = processes_.all_to_all(std::move(send));
    gathered.name = mine.name;
    if (processes_.rank() != 0) return;
    for (const std::vector<std::byte>& message : received) {
      const std::size_t count = message.size() / sizeof(Vec3);
      const std::size_t first = gathered.points.size();
      gathered.points.resize(first + count);
      read_raw(message.data(), message.data() + message.size(), gathered.points.data() + first, count);
    }
    for (int k = 0; k + 1 < static_cast<int>(gathered.points.size()); k += 2) gathered.cells.push_back({k, k + 1});
  });
  return gathered;
}

#define TRIBO_PD_DISTRIBUTION(Dim)                                                                    \
  template std::size_t PdSimulation<Dim>::ghost_count() const;                                      \
  template PointRecords<Dim> PdSimulation<Dim>::owned_records() const;                              \
  template std::vector<std::int64_t> PdSimulation<Dim>::owned_broken_bonds() const;                 \
  template double PdSimulation<Dim>::ghost_width() const;                                           \
  template bool PdSimulation<Dim>::moved_past_skin() const;                                         \
  template void PdSimulation<Dim>::distribute(PointRecords<Dim>, std::vector<std::int64_t>);        \
  template void PdSimulation<Dim>::take_points(PointRecords<Dim>&, const std::vector<std::int64_t>&); \
  template void PdSimulation<Dim>::refresh_ghosts();                                                \
  template SurfaceMesh PdSimulation<Dim>::gathered_pair_mesh() const;
TRIBO_PD_DISTRIBUTION(2)
TRIBO_PD_DISTRIBUTION(3)
#undef TRIBO_PD_DISTRIBUTION

}  // namespace tribo::pd
