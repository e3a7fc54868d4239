#include "tribo/io/deck_writer.hpp"

#include <array>
#include <charconv>
#include <optional>

#include <yaml-cpp/yaml.h>

#include "tribo/io/deck_names.hpp"

namespace tribo::io {

namespace {

// std::to_chars without a format writes the shortest decimal that reads back to the same double,
// fixed or scientific whichever is shorter: numbers survive the round trip exactly and stay
// readable (0.1 rather than 0.10000000000000001, 2e+11 rather than 200000000000).
std::string number(double x) {
  std::array<char, 64> buffer{};
  const auto result = std::to_chars(buffer.data(), buffer.data() + buffer.size(), x);
  return std::string(buffer.data(), result.ptr);
}

template <class E, std::size_t N>
std::string name(E value, const std::array<DeckName<E>, N>& table) {
  return std::string(name_of(value, table));
}

void emit_vector(YAML::Emitter& out, const Vec3& v, int dimension) {
  out << YAML::Flow << YAML::BeginSeq;
  for (int d = 0; d < dimension; ++d) out << number(v[d]);
  out << YAML::EndSeq;
}

void emit_shape(YAML::Emitter& out, const Shape& shape, int dimension) {
  out << YAML::Flow << YAML::BeginMap;
  switch (shape.kind) {
    case Shape::Kind::Box:
      out << YAML::Key << "box" << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "min" << YAML::Value;
      emit_vector(out, shape.min, dimension);
      out << YAML::Key << "max" << YAML::Value;
      emit_vector(out, shape.max, dimension);
      out << YAML::EndMap;
      break;
    case Shape::Kind::Ball:
      out << YAML::Key << (dimension == 2 ? "disk" : "sphere") << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "center" << YAML::Value;
      emit_vector(out, shape.center, dimension);
      out << YAML::Key << "radius" << YAML::Value << number(shape.radius);
      out << YAML::EndMap;
      break;
    case Shape::Kind::Polygon:
      out << YAML::Key << "polygon" << YAML::Value << YAML::BeginMap;
      out << YAML::Key << "points" << YAML::Value << YAML::BeginSeq;
      for (const Vec2& p : shape.points) emit_vector(out, Vec3(p.x(), p.y(), 0.0), 2);
      out << YAML::EndSeq << YAML::EndMap;
      break;
    case Shape::Kind::Mesh:  // the absolute path: the deck as run lies in another folder
      out << YAML::Key << "stl" << YAML::Value << shape.file;
      break;
    case Shape::Kind::Points:
      out << YAML::Key << "points" << YAML::Value << shape.file;
      break;
  }
  out << YAML::EndMap;
}

// Inside an open mapping: the keys that law reads (the reader rejects the others), from the law's
// descriptor, in the table's order; only those that coulomb reads too (shared = true) or only
// those it does not (shared = false), or all (empty).
void emit_law_keys(YAML::Emitter& out, const ContactLawSpec& law, std::optional<bool> shared = {}) {
  const contact::ContactLawDescriptor& descriptor = contact::descriptor_of(law.law);
  const contact::ContactLawDescriptor& coulomb = contact::descriptor_of(ContactLaw::Coulomb);
  for (const contact::ContactLawKey& key : contact::kContactLawKeys) {
    if (!descriptor.reads(key.key)) continue;
    if (shared && coulomb.reads(key.key) != *shared) continue;
    const std::optional<double> value =
        key.number != nullptr ? std::optional<double>(law.*key.number) : law.*key.optional;
    if (value) out << YAML::Key << std::string(key.key) << YAML::Value << number(*value);
  }
}

// Inside an open mapping: the law and the keys it reads.
void emit_law(YAML::Emitter& out, const ContactLawSpec& law) {
  out << YAML::Key << "law" << YAML::Value << name(law.law, kContactLawNames);
  emit_law_keys(out, law);
}

void emit_time(YAML::Emitter& out, const TimeSpec& time) {
  out << YAML::Key << "time" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "end" << YAML::Value << number(time.end);
  if (time.dt)
    out << YAML::Key << "dt" << YAML::Value << number(*time.dt);
  else if (time.cfl)
    out << YAML::Key << "cfl" << YAML::Value << number(*time.cfl);
  out << YAML::EndMap;
}

void emit_materials(YAML::Emitter& out, const SimulationSpec& spec) {
  out << YAML::Key << "materials" << YAML::Value << YAML::BeginSeq;
  for (const MaterialSpec& m : spec.materials) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << m.name;
    out << YAML::Key << "model" << YAML::Value << name(m.model, kMaterialModelNames);
    // The keys its model reads (core/material_models.hpp). A model without stiffness (rigid) has its
    // elastic constants written only when given; a key that may be "not given" only when it is.
    const MaterialModelDescriptor& model = descriptor_of(m.model);
    for (const MaterialKey& key : kMaterialKeys) {
      if (!model.reads(key.key)) continue;
      if (key.optional != nullptr) {
        if (const std::optional<double>& value = m.*key.optional)
          out << YAML::Key << std::string(key.key) << YAML::Value << number(*value);
        continue;
      }
      const double value = m.*key.number;
      if (key.elastic_constant && !model.elastic_constants_required && value == 0.0) continue;
      out << YAML::Key << std::string(key.key) << YAML::Value << number(value);
    }
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emit_bodies(YAML::Emitter& out, const SimulationSpec& spec) {
  const int dim = spec.dimension;
  out << YAML::Key << "bodies" << YAML::Value << YAML::BeginSeq;
  for (const BodySpec& b : spec.bodies) {
    out << YAML::BeginMap;
    out << YAML::Key << "name" << YAML::Value << b.name;
    out << YAML::Key << "material" << YAML::Value << b.material;
    out << YAML::Key << "geometry" << YAML::Value;
    emit_shape(out, b.geometry, dim);
    out << YAML::Key << "velocity" << YAML::Value;
    emit_vector(out, b.velocity, dim);
    out << YAML::Key << "angular_velocity" << YAML::Value;
    if (dim == 2)
      out << number(b.angular_velocity.z());
    else
      emit_vector(out, b.angular_velocity, 3);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emit_boundary_conditions(YAML::Emitter& out, const SimulationSpec& spec) {
  const int dim = spec.dimension;
  out << YAML::Key << "boundary_conditions" << YAML::Value;
  if (spec.boundary_conditions.empty()) {
    out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
    return;
  }
  out << YAML::BeginSeq;
  for (const BoundaryConditionSpec& bc : spec.boundary_conditions) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "region" << YAML::Value;
    emit_shape(out, bc.region, dim);
    out << YAML::Key << "velocity" << YAML::Value << YAML::Flow << YAML::BeginSeq;
    for (int d = 0; d < dim; ++d) {
      if (bc.velocity[d])
        out << number(*bc.velocity[d]);
      else
        out << YAML::Null;  // free direction
    }
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

void emit_mpm(YAML::Emitter& out, const SimulationSpec& spec) {
  const int dim = spec.dimension;
  const MpmSpec& mpm = spec.mpm;
  out << YAML::Key << "mpm" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "grid" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "min" << YAML::Value;
  emit_vector(out, mpm.grid_min, dim);
  out << YAML::Key << "max" << YAML::Value;
  emit_vector(out, mpm.grid_max, dim);
  out << YAML::Key << "cell" << YAML::Value;
  bool square = true;
  for (int d = 1; d < dim; ++d) square = square && mpm.cell[d] == mpm.cell[0];
  if (square)
    out << number(mpm.cell[0]);
  else
    emit_vector(out, mpm.cell, dim);
  out << YAML::EndMap;
  out << YAML::Key << "particles_per_cell" << YAML::Value << mpm.particles_per_cell;
  out << YAML::Key << "particle_fill" << YAML::Value << name(mpm.particle_fill, kParticleFillNames);
  out << YAML::Key << "shape_function" << YAML::Value
      << name(mpm.shape_function, kShapeFunctionNames);
  out << YAML::Key << "update" << YAML::Value << name(mpm.update, kUpdateSchemeNames);
  out << YAML::Key << "flip" << YAML::Value << number(mpm.flip);
  out << YAML::Key << "transfer" << YAML::Value << name(effective_transfer(mpm), kTransferSchemeNames);

  const MpmContactSpec& c = mpm.contact;
  out << YAML::Key << "contact" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "normals" << YAML::Value << name(c.normals, kContactNormalNames);
  if (c.normals == ContactNormalMethod::Specified) {
    out << YAML::Key << "normal_angles" << YAML::Value << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "polar" << YAML::Value << number(c.normal_polar);
    out << YAML::Key << "azimuth" << YAML::Value << number(c.normal_azimuth);
    out << YAML::EndMap;
  }
  out << YAML::Key << "vmin" << YAML::Value << number(c.vmin);
  out << YAML::Key << "displacement_check" << YAML::Value << c.displacement_check;
  out << YAML::Key << "position" << YAML::Value << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "method" << YAML::Value << name(c.position_method, kContactPositionNames);
  out << YAML::Key << "offset" << YAML::Value << number(c.position_offset);
  out << YAML::EndMap;
  out << YAML::Key << "first_pass_to_particles" << YAML::Value << c.first_pass_to_particles;
  out << YAML::Key << "slip" << YAML::Value << name(c.slip, kContactSlipNames);
  out << YAML::Key << "normal_law" << YAML::Value << name(c.normal_law, kContactNormalLawNames);
  out << YAML::Key << "penalty_scale" << YAML::Value << number(c.penalty_scale);
  out << YAML::Key << "pairs" << YAML::Value;
  if (c.pairs.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const ContactPairSpec& pair : c.pairs) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "materials" << YAML::Value << YAML::Flow << YAML::BeginSeq
        << pair.materials[0] << pair.materials[1] << YAML::EndSeq;
    emit_law(out, pair.law);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;  // contact

  if (dim == 2) {  // cracks are 2D polylines; the reader rejects the key in 3D
    out << YAML::Key << "cracks" << YAML::Value;
    if (mpm.cracks.empty()) out << YAML::Flow;
    out << YAML::BeginSeq;
    for (const CrackSpec& crack : mpm.cracks) {
      out << YAML::Flow << YAML::BeginMap;
      out << YAML::Key << "points" << YAML::Value << YAML::BeginSeq;
      for (const Vec3& p : crack.points) emit_vector(out, p, 2);
      out << YAML::EndSeq;
      emit_law(out, crack.law);
      out << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::EndMap;  // mpm
}

void emit_pd(YAML::Emitter& out, const SimulationSpec& spec) {
  const PdSpec& pd = spec.pd;
  const PdContactSpec& c = pd.contact;
  out << YAML::Key << "pd" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "spacing" << YAML::Value << number(pd.spacing);
  out << YAML::Key << "horizon" << YAML::Value << number(pd.horizon);
  out << YAML::Key << "contact" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "model" << YAML::Value << name(c.model, kPdContactModelNames);
  if (c.radius) out << YAML::Key << "radius" << YAML::Value << number(*c.radius);
  out << YAML::Key << "radius_rule" << YAML::Value
      << name(c.radius_rule, kPdContactRadiusRuleNames);
  if (c.stiffness) out << YAML::Key << "stiffness" << YAML::Value << number(*c.stiffness);
  out << YAML::Key << "friction_model" << YAML::Value << name(c.friction_model, kFrictionModelNames);
  // The friction law's keys from its descriptor (contact/contact_laws.hpp). `law` is written when
  // it is not the default coulomb, after the keys coulomb reads too and before the law's own, so
  // that the deck as run (and the checkpoint fingerprint taken from it) of every coulomb deck stays
  // what it was before the key (io/deck_pd.cpp lists the keys in the same order).
  emit_law_keys(out, c.law, true);
  if (c.law.law == ContactLaw::Coulomb) {
    out << YAML::Key << "regularization_velocity" << YAML::Value << number(c.regularization_velocity);
  } else {
    out << YAML::Key << "law" << YAML::Value << name(c.law.law, kContactLawNames);
    emit_law_keys(out, c.law, false);
  }
  out << YAML::EndMap;  // contact
  out << YAML::Key << "surface_correction" << YAML::Value << pd.surface_correction;
  out << YAML::Key << "partial_volume" << YAML::Value
      << name(pd.partial_volume, kPartialVolumeNames);
  out << YAML::Key << "damping" << YAML::Value << number(pd.damping);
  out << YAML::Key << "precracks" << YAML::Value;
  if (pd.precracks.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const PdSpec::Precrack& crack : pd.precracks) {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "points" << YAML::Value << YAML::BeginSeq;
    for (const Vec3& p : crack.points) emit_vector(out, p, 2);
    out << YAML::EndSeq << YAML::EndMap;
  }
  out << YAML::EndSeq;
  out << YAML::EndMap;  // pd
}

void emit_output(YAML::Emitter& out, const OutputSpec& o) {
  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "directory" << YAML::Value << o.directory;
  out << YAML::Key << "every" << YAML::Value << number(o.every);
  out << YAML::Key << "fields" << YAML::Value << YAML::Flow << YAML::BeginSeq;
  for (const std::string& field : o.fields) out << field;
  out << YAML::EndSeq;
  out << YAML::Key << "history" << YAML::Value;
  if (o.history.empty()) out << YAML::Flow;
  out << YAML::BeginSeq;
  for (const HistorySpec& h : o.history) {
    out << YAML::Flow << YAML::BeginMap;
    out << YAML::Key << "quantity" << YAML::Value << name(h.quantity, kHistoryQuantityNames);
    if (h.quantity == HistoryQuantity::Centroid || h.quantity == HistoryQuantity::Velocity)
      out << YAML::Key << "body" << YAML::Value << h.body;
    if (h.quantity == HistoryQuantity::ContactForce)
      out << YAML::Key << "materials" << YAML::Value << YAML::Flow << YAML::BeginSeq
          << h.materials[0] << h.materials[1] << YAML::EndSeq;
    if (h.quantity == HistoryQuantity::CrackForce) out << YAML::Key << "crack" << YAML::Value << h.crack;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
  if (o.checkpoint_every)
    out << YAML::Key << "checkpoint_every" << YAML::Value << number(*o.checkpoint_every);
  if (o.checkpoint_wall)
    out << YAML::Key << "checkpoint_wall" << YAML::Value << number(*o.checkpoint_wall);
  out << YAML::EndMap;
}

}  // namespace

std::string write_deck(const SimulationSpec& spec) {
  YAML::Emitter out;
  out.SetNullFormat(YAML::LowerNull);  // `null` for a free direction, as docs/deck.md writes it
  out << YAML::BeginMap;
  out << YAML::Key << "title" << YAML::Value << spec.title;
  out << YAML::Key << "method" << YAML::Value << name(spec.method, kMethodNames);
  out << YAML::Key << "dimension" << YAML::Value << spec.dimension;
  if (spec.dimension == 2) out << YAML::Key << "thickness" << YAML::Value << number(spec.thickness);
  emit_time(out, spec.time);
  out << YAML::Key << "gravity" << YAML::Value;
  emit_vector(out, spec.gravity, spec.dimension);
  out << YAML::Key << "gravity_ramp" << YAML::Value << number(spec.gravity_ramp);
  emit_materials(out, spec);
  emit_bodies(out, spec);
  emit_boundary_conditions(out, spec);
  if (spec.method == Method::Mpm)
    emit_mpm(out, spec);
  else
    emit_pd(out, spec);
  emit_output(out, spec.output);
  out << YAML::EndMap;
  std::string text = "# The deck as run by tribo: every key written, defaults filled in.\n";
  text += out.c_str();
  text += "\n";
  return text;
}

}  // namespace tribo::io
