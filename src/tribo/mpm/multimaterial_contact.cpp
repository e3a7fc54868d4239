#include "tribo/mpm/multimaterial_contact.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "tribo/mpm/contact_normal.hpp"
#include "tribo/mpm/node_contact_field.hpp"

namespace tribo::mpm {

namespace {

// The fields other than `a` lumped into one (Nairn et al. 2018: each material against the rest).
// A rigid field among them stands for all: its velocity is imposed.
template <int Dim>
ContactField<Dim> others_lumped(const NodeFields<Dim>& nodes, long base, const int* active, int count,
                                int a, const FieldLayout& layout, int& dominant) {
  FieldLump<Dim> lump;
  dominant = -1;
  double heaviest = -1.0;
  for (int k = 0; k < count; ++k) {
    const int f = active[k];
    if (f == a) continue;
    const long i = base + f;
    if (layout.rigid_field[f]) {
      dominant = f;
      return contact_field_at(nodes, i, true);
    }
    lump.add(nodes, i);
    if (nodes.mass[i] > heaviest) {
      heaviest = nodes.mass[i];
      dominant = f;
    }
  }
  return lump.field();
}

// The contact normal at node n for field a against b. Logistic regression (Nairn et al. 2018) fits
// the particles around the node labelled -1 (field a) and +1 (the others), starting from and
// falling back to the average-gradient normal; with a rigid partner the rigid body's gradient is
// kept, as for every gradient method (docs/mpm-contact.md).
template <int Dim>
Vec<Dim> node_normal(ContactNormalMethod method, const ContactField<Dim>& a, const ContactField<Dim>& b,
                     const Vec<Dim>& gradient_sum, const Vec<Dim>& specified, const NodeParticles<Dim>* around,
                     long n, int field_a, int fields, std::vector<int>& labels, double cell_length) {
  const bool regression = method == ContactNormalMethod::LogisticRegression && around != nullptr && !a.rigid && !b.rigid;
  const std::size_t entry = static_cast<std::size_t>(n) * fields + field_a;
  if (regression && around->fitted[entry]) return around->fitted_normal[entry];
  const Vec<Dim> normal = contact_normal<Dim>(method, a, b, gradient_sum, specified, cell_length);
  if (!regression) return normal;
  const long begin = around->offset[n];
  const int count = static_cast<int>(around->offset[n + 1] - begin);
  if (count < 2) return normal;
  labels.resize(count);
  for (int k = 0; k < count; ++k) labels[k] = around->field[begin + k] == field_a ? -1 : 1;
  around->fitted_normal[entry] = logistic_regression_normal<Dim>(
      around->relative_position.data() + begin, labels.data(), around->weight.data() + begin, count, normal);
  around->fitted[entry] = 1;
  return around->fitted_normal[entry];
}

// Work of friction: only a sliding node dissipates (S (2 s_t - S) / 2 m_red is the friction force
// times the slip over the step). A sticking node does no frictional work, as static friction does
// none; the relative velocity it removes is the interpolation spread of one body's motion across a
// node's support (a rolling cylinder's contact nodes), not slip.
template <int Dim>
double slip_work(const PairContactResult<Dim>& r) {
  return r.sticking ? 0.0 : r.frictional_work;
}

// The slip-weakening state after the momentum update: the relative tangential velocity the law
// left (v_b - v_a after the changes) times dt is this step's slip; a stuck node heals. A node that
// fails the approach or position check for a step keeps its state: under a sliding body the normal
// relative velocity flickers around zero, and healing there would restore mu_s at random nodes.
// Only a node where the two fields no longer meet heals without sticking (the caller).
template <int Dim>
void advance_slip(double& slip, const PairContactResult<Dim>& r, const ContactField<Dim>& a,
                  const ContactField<Dim>& b, double dt) {
  if (!r.in_contact) return;
  if (r.sticking) {
    slip = 0.0;
    return;
  }
  const Vec<Dim> va = (a.momentum + r.momentum_change_a) / a.mass;
  const Vec<Dim> vb = (b.momentum + r.momentum_change_b) / b.mass;
  Vec<Dim> relative = vb - va;
  relative -= relative.dot(r.normal) * r.normal;
  slip += relative.norm() * dt;
}

// Slip at the surface (contact_moments.hpp): the surface point x_s lies halfway between the two
// fields' centroids along n, at the depth d = (x_s - xbar_a) . n beyond a's centroid and -d beyond
// b's, clamped to [0, h_perp / 2] (touching fields have centroids about 0.75 cell apart; the
// position check keeps them within 0.8 cell). The result is (offset of b) - (offset of a), the
// correction from the nodes' relative velocity to the surfaces'; a rigid field has no gradient.
template <int Dim>
Vec<Dim> surface_offset(const NodeMoments<Dim>& moments, long ia, long ib, const ContactField<Dim>& a,
                        const ContactField<Dim>& b, const Vec<Dim>& normal, const Vec<Dim>& cell) {
  const double length = normal.norm();
  if (!(length > 0.0) || !std::isfinite(length)) return Vec<Dim>::Zero();
  const Vec<Dim> n = normal / length;
  const double h = perpendicular_cell_size<Dim>(n, cell);
  const double d = std::clamp(0.5 * (b.position - a.position).dot(n), 0.0, 0.5 * h);
  // Particles that spread less than a tenth of a cell along n carry no gradient.
  const double spread = 0.01 * h * h;
  Vec<Dim> offset = -surface_velocity_offset<Dim>(moments.second[ia], moments.velocity[ia], n, d, spread * a.mass);
  if (!b.rigid) offset += surface_velocity_offset<Dim>(moments.second[ib], moments.velocity[ib], n, -d, spread * b.mass);
  return offset;
}

// Zeroes the slip of every node that may hold some (history.nodes, or all) and is not a candidate:
// both lists ascend, so one merge walk.
void forget_slip_off(SlipHistory& history, const std::vector<long>& candidates, long node_count, int fields) {
  const auto forget = [&](long n) {
    for (int f = 0; f < fields; ++f) history.slip[n * fields + f] = 0.0;
  };
  std::size_t c = 0;
  const auto is_candidate = [&](long n) {
    while (c < candidates.size() && candidates[c] < n) ++c;
    return c < candidates.size() && candidates[c] == n;
  };
  if (history.anywhere) {
    for (long n = 0; n < node_count; ++n)
      if (!is_candidate(n)) forget(n);
  } else {
    for (long n : history.nodes)
      if (!is_candidate(n)) forget(n);
  }
}

}  // namespace

template <int Dim>
double node_field_dust(const NodeFields<Dim>& nodes, const parallel::Communicator* processes) {
  double heaviest_node = 0.0;
  const long entries = static_cast<long>(nodes.mass.size());
#pragma omp parallel for schedule(static) reduction(max : heaviest_node)
  for (long i = 0; i < entries; ++i) heaviest_node = std::max(heaviest_node, nodes.mass[i]);
  if (processes != nullptr) heaviest_node = processes->max(heaviest_node);
  return node_dust_of(heaviest_node);
}

template <int Dim>
void apply_multimaterial_contact(NodeFields<Dim>& nodes, const Grid<Dim>& grid, const FieldLayout& layout,
                                 const MpmContactSpec& settings, double dt, ContactStage stage,
                                 ContactAccumulator<Dim>* accumulator, const NodeParticles<Dim>* around,
                                 SlipHistory* history, const NodeMoments<Dim>* moments,
                                 const parallel::Communicator* processes, double thickness,
                                 std::optional<double> given_dust, const std::vector<long>* candidates) {
  const int F = nodes.fields;
  constexpr int kMaxFields = 16;
  const NodeContext<Dim> context{grid.cell, grid.cell_volume() * (Dim == 2 ? thickness : 1.0), dt};
  const Vec<Dim> specified = settings.specified_normal.template head<Dim>().normalized();
  const bool record = accumulator != nullptr;
  // The slip state is read in every pass and advanced once a step, after the momentum update.
  double* slip = history != nullptr ? history->slip.data() : nullptr;
  const bool advance = slip != nullptr && stage == ContactStage::AfterMomentumUpdate;
  auto slip_of = [&](long entry) { return slip != nullptr ? std::optional<double>(slip[entry]) : std::nullopt; };
  const double dust = given_dust ? *given_dust : node_field_dust(nodes, processes);

  const double* mass = nodes.mass.data();
  const long node_count = nodes.nodes;
  if (record) {
    // Sized and emptied here, not in the parallel region: a thread the region does not use must
    // leave no list of an earlier pass. The lists keep their capacity: no allocation once warm.
    const auto threads = static_cast<std::size_t>(omp_get_max_threads());
    if (accumulator->records_by_thread.size() < threads) accumulator->records_by_thread.resize(threads);
    for (auto& list : accumulator->records_by_thread) list.clear();
  }
  // The penalty springs' energy: the work done on them, added once a step (the momentum-update pass).
  const bool springs = record && stage == ContactStage::AfterMomentumUpdate &&
                       settings.normal_law == ContactNormalLaw::Penalty;

  // The fields of node n heavier than dust (at most kMaxFields), and the sum of their volume
  // gradients (the normal methods' input).
  const auto collect = [&](long n, int* active, Vec<Dim>& gradient_sum) {
    const long base = n * F;
    int count = 0;
    for (int f = 0; f < F && count < kMaxFields; ++f)
      if (mass[base + f] > dust) active[count++] = f;
    gradient_sum.setZero();
    for (int k = 0; k < count; ++k) gradient_sum += nodes.volume_gradient[base + active[k]];
    return count;
  };

  // Three or more fields: each deformable field against the others lumped; the changes are
  // computed from the same state and applied together. Momentum is then conserved only to the
  // extent that the lumped partners share the changes (see docs/mpm-contact.md).
  const auto lumped_node = [&](long n, const int* active, int count, const Vec<Dim>& gradient_sum,
                               std::vector<int>& labels, bool count_node) {
    const long base = n * F;
    Vec<Dim> change[kMaxFields];
    for (int k = 0; k < count; ++k) {
      const int a = active[k];
      change[k].setZero();
      if (layout.rigid_field[a]) continue;
      int dominant = -1;
      const ContactField<Dim> fa = contact_field_at(nodes, base + a, false);
      const ContactField<Dim> fo = others_lumped(nodes, base, active, count, a, layout, dominant);
      const Vec<Dim> normal = node_normal(settings.normals, fa, fo, gradient_sum, specified, around, n, a, F, labels,
                                           grid.cell.minCoeff());
      const PairContactResult<Dim> r =
          resolve_contact_pair<Dim>(fa, fo, normal, layout.law(a, dominant), settings, context, stage, slip_of(base + a),
                                    nullptr, layout.penalty_modulus(settings, a, dominant));
      if (advance) {
        // The lumped partner takes the opposite change (the rigid one none): its velocity after.
        PairContactResult<Dim> seen = r;
        seen.momentum_change_b = fo.rigid ? Vec<Dim>::Zero() : Vec<Dim>(-r.momentum_change_a);
        advance_slip(slip[base + a], seen, fa, fo, dt);
      }
      if (!r.in_contact) continue;
      change[k] = r.momentum_change_a;
      if (record && count_node) {
        accumulator->pair_impulse[a * F + dominant] += r.momentum_change_a;
        accumulator->pair_impulse[dominant * F + a] -= r.momentum_change_a;
        accumulator->frictional_work += 0.5 * slip_work(r);  // each pair is seen from both sides
        if (springs && layout.law(a, dominant).law != ContactLaw::ImperfectInterface)
          accumulator->stored_energy += 0.5 * r.interface_energy;
      }
    }
    for (int k = 0; k < count; ++k) nodes.momentum[base + active[k]] += change[k];
  };

  // The nodes to visit: every node, or the caller's candidates (a node without two fields holding
  // mass has no contact, only slip to forget; the oblique disks have about 200 of 16 281 nodes, and
  // three passes a step over all of them cost 8% of a 2-thread run, issue 17). The slip of the
  // nodes left out is zeroed here, as the pass over every node would.
  const bool listed = candidates != nullptr;  // (an empty list's data() may be null)
  const long visits = listed ? static_cast<long>(candidates->size()) : node_count;
  const long* const candidate = listed ? candidates->data() : nullptr;
  if (advance && listed) forget_slip_off(*history, *candidates, node_count, F);

  // The node pass in parallel (issue 17): every node's contact reads and writes that node's
  // entries only. What a node adds to the step's sums (impulses, frictional work) is recorded and
  // added in node order by the serial pass below, and nodes of three fields or more (lumped
  // partners, which add to several sums) wait for it whole: the results are the serial loop's, bit
  // for bit, on any number of threads.
#pragma omp parallel
  {
    std::vector<int> labels;  // regression labels of one node; grows to the largest node once
    auto* recorded = record ? &accumulator->records_by_thread[omp_get_thread_num()] : nullptr;
    // Static: each thread keeps the node range the other node loops give it (its cache lines stay
    // in one core; dynamic chunks cost 6% of the oblique disks' 2-thread run).
#pragma omp for schedule(static)
    for (long k = 0; k < visits; ++k) {
      const long n = listed ? candidate[k] : k;
      const long base = n * F;
      // Most nodes hold one field or none: count without storing first (no stores, no early exit,
      // so the compiler keeps it to a few instructions a field).
      int present = 0;
      for (int f = 0; f < F; ++f) present += mass[base + f] > dust;
      if (present < 2) {
        if (advance)
          for (int f = 0; f < F; ++f) slip[base + f] = 0.0;  // no partner: nothing slides
        continue;
      }
      int active[kMaxFields];
      Vec<Dim> gradient_sum;
      const int count = collect(n, active, gradient_sum);
      if (count > 2) {
        if (record) {
          recorded->push_back({n, 2});
        } else {
          lumped_node(n, active, count, gradient_sum, labels, false);  // adds to no sum
        }
        continue;
      }
      int a = active[0], b = active[1];
      if (layout.rigid_field[a]) std::swap(a, b);  // the rigid field, if any, is b
      if (layout.rigid_field[a]) continue;           // two rigid fields: nothing moves
      const ContactField<Dim> fa = contact_field_at(nodes, base + a, false);
      const ContactField<Dim> fb = contact_field_at(nodes, base + b, layout.rigid_field[b]);
      const Vec<Dim> normal = node_normal(settings.normals, fa, fb, gradient_sum, specified, around, n, a, F, labels,
                                           grid.cell.minCoeff());
      // Slip at the surface: two-field nodes of a Coulomb pair (lumped nodes keep node slip).
      Vec<Dim> offset;
      const bool at_surface = moments != nullptr && layout.law(a, b).law == ContactLaw::Coulomb;
      if (at_surface) offset = surface_offset(*moments, base + a, base + b, fa, fb, normal, grid.cell);
      const PairContactResult<Dim> r =
          resolve_contact_pair<Dim>(fa, fb, normal, layout.law(a, b), settings, context, stage, slip_of(base + a),
                                    at_surface ? &offset : nullptr, layout.penalty_modulus(settings, a, b));
      if (advance) {
        advance_slip(slip[base + a], r, fa, fb, dt);
        slip[base + b] = 0.0;  // the pair's state lives with a
      }
      if (!r.in_contact) continue;
      nodes.momentum[base + a] += r.momentum_change_a;
      nodes.momentum[base + b] += r.momentum_change_b;  // zero for a rigid b: its motion is imposed
      // The force on a rigid b is still the reaction -dp_a: it is what the rigid body feels.
      // The penalty spring's work this step (an imperfect interface's interface_energy is its state).
      const double spring_work = layout.law(a, b).law == ContactLaw::ImperfectInterface ? 0.0 : r.interface_energy;
      if (record) recorded->push_back({n, 1, a, b, r.momentum_change_a, slip_work(r), spring_work});
    }
  }
  if (advance) {
    if (listed) history->nodes.assign(candidates->begin(), candidates->end());
    history->anywhere = !listed;
  }
  if (!record) return;
  std::vector<int> labels;
  const char* counted = accumulator->counted_node.empty() ? nullptr : accumulator->counted_node.data();
  for (const auto& list : accumulator->records_by_thread) {
    for (const auto& rec : list) {
      const long n = rec.node;
      const bool count_node = counted == nullptr || counted[n];
      if (rec.kind == 1 && count_node) {
        accumulator->pair_impulse[rec.a * F + rec.b] += rec.impulse_a;
        accumulator->pair_impulse[rec.b * F + rec.a] -= rec.impulse_a;
        accumulator->frictional_work += rec.work;
        if (springs) accumulator->stored_energy += rec.stored;
      } else if (rec.kind == 2) {
        int active[kMaxFields];
        Vec<Dim> gradient_sum;
        const int count = collect(n, active, gradient_sum);
        lumped_node(n, active, count, gradient_sum, labels, count_node);
      }
    }
  }
}

template double node_field_dust<2>(const NodeFields<2>&, const parallel::Communicator*);
template double node_field_dust<3>(const NodeFields<3>&, const parallel::Communicator*);
template void apply_multimaterial_contact<2>(NodeFields<2>&, const Grid<2>&, const FieldLayout&,
                                             const MpmContactSpec&, double, ContactStage, ContactAccumulator<2>*,
                                             const NodeParticles<2>*, SlipHistory*, const NodeMoments<2>*,
                                             const parallel::Communicator*, double, std::optional<double>,
                                             const std::vector<long>*);
template void apply_multimaterial_contact<3>(NodeFields<3>&, const Grid<3>&, const FieldLayout&,
                                             const MpmContactSpec&, double, ContactStage, ContactAccumulator<3>*,
                                             const NodeParticles<3>*, SlipHistory*, const NodeMoments<3>*,
                                             const parallel::Communicator*, double, std::optional<double>,
                                             const std::vector<long>*);

}  // namespace tribo::mpm
