// The `mpm:` section: background grid, particles, shape functions, update scheme, multimaterial
// contact (NairnMPM's options, PHYSICS.md) and cracks.
#include <cmath>

#include <fmt/format.h>

#include "tribo/io/deck_sections.hpp"

namespace tribo::io::deck {

namespace {

const char* axis_name(int d) { return d == 0 ? "x" : (d == 1 ? "y" : "z"); }

// Beyond this a grid cannot be allocated on one machine; catching it here turns a typo in
// `cell` (1e-7 for 1e-3) into a message rather than an out-of-memory crash.
constexpr double kMaxCells = 1.0e9;

void read_grid(const DeckNode& node, int dimension, MpmSpec& mpm) {
  const DeckMap grid = node.map({"min", "max", "cell"});
  mpm.grid_min = read_vector(grid.require("min"), dimension);
  const DeckNode max_node = grid.require("max");
  mpm.grid_max = read_vector(max_node, dimension);
  for (int d = 0; d < dimension; ++d)
    if (!(mpm.grid_max[d] > mpm.grid_min[d]))
      max_node.fail(fmt::format("empty grid: max {} = {} is not above min {} = {}", axis_name(d),
                                mpm.grid_max[d], axis_name(d), mpm.grid_min[d]));
  const DeckNode cell_node = grid.require("cell");
  mpm.cell = read_scalar_or_vector(cell_node, dimension);
  double cells = 1.0;
  for (int d = 0; d < dimension; ++d) {
    const double extent = mpm.grid_max[d] - mpm.grid_min[d];
    if (!(mpm.cell[d] > 0.0))
      cell_node.fail(fmt::format("must be > 0, got {} (direction {})", mpm.cell[d], axis_name(d)));
    if (mpm.cell[d] > extent)
      cell_node.fail(fmt::format("the cell ({}) is larger than the grid ({}) in direction {}",
                                 mpm.cell[d], extent, axis_name(d)));
    cells *= std::ceil(extent / mpm.cell[d]);
  }
  if (cells > kMaxCells)
    cell_node.fail(fmt::format("the grid would have {:.3g} cells (at most {:.0e}); is the cell "
                               "size right?",
                               cells, kMaxCells));
}

void read_normal_angles(const DeckNode& node, int dimension, MpmContactSpec& contact) {
  const DeckMap angles = node.map({"polar", "azimuth"});
  contact.normal_polar = angles.number("polar", 90.0);
  contact.normal_azimuth = angles.number("azimuth", 90.0);
  if (dimension == 2 && contact.normal_polar != 90.0)
    angles.get("polar")->fail(fmt::format(
        "in 2D the normal lies in the xy plane: polar must be 90, got {}", contact.normal_polar));
  contact.specified_normal = normal_from_angles(contact.normal_polar, contact.normal_azimuth);
}

void read_pairs(const DeckNode& node, const SimulationSpec& spec, MpmContactSpec& contact) {
  std::vector<int> lines;  // where each pair was given, for the duplicate message
  for (const DeckNode& item : node.items()) {
    std::vector<std::string_view> keys = contact_law_keys();
    keys.push_back("materials");
    const DeckMap map = item.map(keys);
    const DeckNode materials = map.require("materials");
    ContactPairSpec pair;
    pair.materials = read_name_pair(materials);
    const std::vector<DeckNode> names = materials.items();
    for (int k = 0; k < 2; ++k)
      pair.material_indices[k] = resolve_material(names[k], pair.materials[k], spec);
    for (std::size_t j = 0; j < contact.pairs.size(); ++j) {
      const auto& seen = contact.pairs[j].material_indices;
      const auto& now = pair.material_indices;
      if ((seen[0] == now[0] && seen[1] == now[1]) || (seen[0] == now[1] && seen[1] == now[0]))
        materials.fail(fmt::format("duplicate contact pair [{}, {}] (first given at line {})",
                                   pair.materials[0], pair.materials[1], lines[j]));
    }
    pair.law = read_contact_law(map, ContactLaw::Coulomb, "contact pairs");
    contact.pairs.push_back(pair);
    lines.push_back(item.location().line);
  }
}

void read_contact(const DeckNode& node, const SimulationSpec& spec, MpmContactSpec& contact) {
  const DeckMap map =
      node.map({"normals", "normal_angles", "vmin", "displacement_check", "position", "first_pass_to_particles", "slip",
                "normal_law", "penalty_scale", "pairs"});
  contact.normals = choice(map, "normals", kContactNormalNames, "contact normal method",
                           contact.normals);
  if (auto angles = map.get("normal_angles")) {
    if (!descriptor_of(contact.normals).reads("normal_angles")) {
      const auto methods =
          names_where(kContactNormalMethods, [](const ContactNormalDescriptor& d) { return d.reads("normal_angles"); });
      angles->fail(fmt::format("normal_angles is only used with normals: {}", join_choices(methods)));
    }
    read_normal_angles(*angles, spec.dimension, contact);
  }
  // Seed document: Vmin is a fraction of a full cell's volume; 1 would screen out every node.
  contact.vmin = bounded(map, "vmin", contact.vmin, 0.0, false, 1.0, true);
  contact.displacement_check = map.boolean("displacement_check", contact.displacement_check);
  if (auto position = map.get("position")) {
    const DeckMap pos = position->map({"method", "offset"});
    contact.position_method = choice(pos, "method", kContactPositionNames,
                                     "contact position method", contact.position_method);
    contact.position_offset = non_negative(pos, "offset", contact.position_offset);
  }
  contact.first_pass_to_particles = map.boolean("first_pass_to_particles", contact.first_pass_to_particles);
  contact.slip = choice(map, "slip", kContactSlipNames, "contact slip point", contact.slip);
  contact.normal_law = choice(map, "normal_law", kContactNormalLawNames, "contact normal law", contact.normal_law);
  // A scale above 1 makes the penalty stiffer than the bodies' own cells (LS-DYNA warns past it).
  contact.penalty_scale = bounded(map, "penalty_scale", contact.penalty_scale, 0.0, true, 1.0, false);
  if (auto pairs = map.get("pairs")) read_pairs(*pairs, spec, contact);
}

void read_cracks(const DeckNode& node, const SimulationSpec& spec, MpmSpec& mpm) {
  if (spec.dimension != 2)
    node.fail("cracks are 2D polylines; 3D crack surfaces are not supported yet");
  for (const DeckNode& item : node.items()) {
    std::vector<std::string_view> keys = contact_law_keys();
    keys.push_back("points");
    const DeckMap map = item.map(keys);
    const DeckNode points = map.require("points");
    CrackSpec crack;
    const std::vector<DeckNode> point_nodes = points.items();
    for (const DeckNode& p : point_nodes) {
      const Vec3 x = read_vector(p, 2);
      if (!inside_box(x, x, mpm.grid_min, mpm.grid_max, 2))
        p.fail(fmt::format("crack point {} is outside the MPM grid {} - {}", format_point(x, 2),
                           format_point(mpm.grid_min, 2), format_point(mpm.grid_max, 2)));
      if (!crack.points.empty() && crack.points.back() == x)
        p.fail(fmt::format("zero-length crack segment: point {} repeats the one before",
                           format_point(x, 2)));
      crack.points.push_back(x);
    }
    if (crack.points.size() < 2)
      points.fail(fmt::format("a crack needs at least 2 points, got {}", crack.points.size()));
    crack.law = read_contact_law(map, ContactLaw::Frictionless, "cracks");
    mpm.cracks.push_back(crack);
  }
}

}  // namespace

MpmSpec read_mpm(const DeckNode& node, const SimulationSpec& spec) {
  const DeckMap map = node.map(
      {"grid", "particles_per_cell", "particle_fill", "shape_function", "update", "flip", "transfer", "contact", "cracks"});
  MpmSpec mpm;
  read_grid(map.require("grid"), spec.dimension, mpm);
  if (auto ppc = map.get("particles_per_cell")) {
    mpm.particles_per_cell = ppc->integer();
    if (mpm.particles_per_cell < 1)
      ppc->fail(fmt::format("must be >= 1, got {}", mpm.particles_per_cell));
    // Per direction: 16 makes 256 (2D) or 4096 (3D) particles a cell, far past any use.
    if (mpm.particles_per_cell > 16)
      ppc->fail(fmt::format("must be <= 16 (per direction), got {}", mpm.particles_per_cell));
  }
  mpm.particle_fill = choice(map, "particle_fill", kParticleFillNames, "particle fill", mpm.particle_fill);
  mpm.shape_function =
      choice(map, "shape_function", kShapeFunctionNames, "shape function", mpm.shape_function);
  mpm.update = choice(map, "update", kUpdateSchemeNames, "update scheme", mpm.update);
  mpm.flip = bounded(map, "flip", mpm.flip, 0.0, false, 1.0, false);
  mpm.transfer = choice(map, "transfer", kTransferSchemeNames, "transfer scheme", mpm.transfer);
  if (auto contact = map.get("contact")) read_contact(*contact, spec, mpm.contact);
  if (auto cracks = map.get("cracks")) read_cracks(*cracks, spec, mpm);
  if (auto transfer = map.get("transfer"); transfer && mpm.transfer == TransferScheme::Apic) {
    if (mpm.shape_function == ShapeFunctionKind::Linear)
      transfer->fail("apic needs shape_function gimp or bspline2 (a linear shape's D_p vanishes on a node)");
    if (!mpm.cracks.empty()) transfer->fail("apic with cracks is not supported yet (use flip)");
  }
  mpm.transfer = effective_transfer(mpm);
  return mpm;
}

}  // namespace tribo::io::deck
