#!/usr/bin/python3
"""Pictures of a Tribo run without ParaView. `tribo plot DIR [...]` runs this script; it may also be
run by hand: /usr/bin/python3 scripts/tribo_plot.py DIR [--frames] [--field F] [--times T,T]
[--movie gif|mp4] [--max-movie-frames N].

DIR is a `tribo run` output folder (deck.yaml, history.csv, run.pvd with frames/). Everything is
written into DIR/plots/:
- one PNG per history quantity (history.csv's columns, docs/deck.md "output"): centroid.png,
  velocity.png, contact-force.png, crack-force.png, momentum.png, angular-momentum.png, and
  energy.png (the parts of the energy, and the balance: total - total at t = 0);
- with --frames: frame_FIELD_NNNNNN.png, the particles coloured by FIELD (velocity: speed,
  stress: von Mises stress, damage, material, displacement: its magnitude) at the frames nearest
  to --times (default: six frames from the first to the last), with one colour scale for all;
- with --movie: FIELD.gif (Pillow) or FIELD.mp4 (needs ffmpeg) of the run, every frame up to
  --max-movie-frames (evenly thinned beyond).
Each written file is printed on its own line. Exit status: 0 done, 1 an error (said on stderr).
Needs matplotlib and numpy; --frames also needs VTK's Python modules (python3-vtk9), --movie gif
Pillow (python3-pil): Debian packages that scripts/install-deps.sh installs.
"""
import argparse
import csv
import math
import os
import sys
import xml.etree.ElementTree as ET


def fail(message):
    print(f"tribo plot: error: {message}", file=sys.stderr)
    sys.exit(1)


def need(module, package):
    try:
        return __import__(module, fromlist=["_"])
    except ImportError as e:
        fail(f"needs the Python module '{module}' ({e}); install the Debian package {package} "
             f"(scripts/install-deps.sh does), and run with /usr/bin/python3")


np = need("numpy", "python3-numpy")
matplotlib = need("matplotlib", "python3-matplotlib")
matplotlib.use("Agg")
need("matplotlib.ticker", "python3-matplotlib")
need("matplotlib.cm", "python3-matplotlib")
need("matplotlib.colors", "python3-matplotlib")
plt = need("matplotlib.pyplot", "python3-matplotlib")

FIELDS = {
    # field: (label, unit, what it needs in the frames)
    "velocity": ("speed |v|", "m/s", "velocity"),
    "stress": ("von Mises stress", "Pa", "stress"),
    "damage": ("damage (broken bond fraction)", "", "damage"),
    "material": ("material", "", "material"),
    "displacement": ("displacement |u|", "m", "displacement"),
}
QUANTITY_UNITS = {
    "centroid": ("Centroid", "m"),
    "velocity": ("Velocity", "m/s"),
    "contact-force": ("Contact force", "N"),
    "crack-force": ("Crack-face contact force", "N"),
    "momentum": ("Momentum", "kg m/s"),
    "angular-momentum": ("Angular momentum", "kg m²/s"),
    "energy": ("Energy", "J"),
}


# ---- the run ------------------------------------------------------------------------------------
def read_deck(folder):
    """The deck as run (a dict), or {} when it cannot be read (the pictures then lack its title)."""
    path = os.path.join(folder, "deck.yaml")
    try:
        import yaml
        with open(path) as f:
            deck = yaml.safe_load(f)
        return deck if isinstance(deck, dict) else {}
    except Exception:  # noqa: BLE001 - a missing yaml module or deck only costs the labels
        return {}


def run_label(folder, deck):
    title = deck.get("title") or os.path.basename(os.path.abspath(folder))
    method = str(deck.get("method", "")).upper()
    dim = deck.get("dimension", 2)
    if not method:
        return title
    return f"{title}, {dim}D" if method in title else f"{title} ({method} {dim}D)"


def per_thickness(deck):
    """2D masses, forces and energies are per the deck's thickness (docs/deck.md)."""
    if deck.get("dimension", 2) == 2:
        return f", per {deck.get('thickness', 1.0):g} m of thickness"
    return ""


def particle_spacing(deck):
    if deck.get("method") == "pd":
        return float(deck.get("pd", {}).get("spacing", 0) or 0)
    mpm = deck.get("mpm", {})
    cell = mpm.get("grid", {}).get("cell", 0)
    cell = min(cell) if isinstance(cell, list) else cell
    return float(cell or 0) / max(int(mpm.get("particles_per_cell", 2)), 1)


# ---- history ------------------------------------------------------------------------------------
def read_history(folder):
    path = os.path.join(folder, "history.csv")
    if not os.path.isfile(path):
        fail(f"{path}: no such file (is {folder} the output folder of a tribo run?)")
    with open(path, newline="") as f:
        rows = list(csv.reader(f))
    if not rows or "time" not in rows[0]:
        fail(f"{path}: no header with a 'time' column")
    header = rows[0]
    data = []
    for n, row in enumerate(rows[1:], start=2):
        if not row:
            continue
        try:
            data.append([float(v) for v in row])
        except ValueError:
            fail(f"{path}:{n}: a value that is not a number")
        if len(row) != len(header):
            fail(f"{path}:{n}: {len(row)} values for {len(header)} columns")
    if not data:
        fail(f"{path}: no rows yet")
    return header, np.array(data)


def group_columns(header):
    """{quantity: {entity: [(component, column index)]}} in the order of the header."""
    groups = {}
    for i, name in enumerate(header):
        if name == "time":
            continue
        quantity, _, rest = name.partition(".")
        entity, _, component = rest.rpartition(".")
        groups.setdefault(quantity, {}).setdefault(entity, []).append((component, i))
    return groups


def plot_components(folder, deck, quantity, entities, t, data, out):
    title, unit = QUANTITY_UNITS.get(quantity, (quantity, ""))
    components = []
    for columns in entities.values():
        for c, _ in columns:
            if c not in components:
                components.append(c)
    fig, axes = plt.subplots(len(components), 1, sharex=True, squeeze=False,
                             figsize=(7, 1.2 + 2.0 * len(components)))
    for ax, component in zip(axes[:, 0], components):
        for entity, columns in entities.items():
            for c, i in columns:
                if c == component:
                    label = entity.replace(".", " by ", 1) if quantity == "contact-force" else entity
                    ax.plot(t, data[:, i], label=label or quantity)
        ax.set_ylabel(f"{component} ({unit})")
        ax.grid(True, alpha=0.3)
        if len(entities) > 1 or quantity in ("contact-force", "crack-force"):
            ax.legend(fontsize="small", title="force on A by B" if quantity == "contact-force" and ax is axes[0, 0] else None)
    axes[-1, 0].set_xlabel("time (s)")
    note = per_thickness(deck) if quantity in ("contact-force", "crack-force", "momentum",
                                                "angular-momentum") else ""
    fig.suptitle(f"{title}{note}\n{run_label(folder, deck)}", fontsize="medium")
    fig.tight_layout()
    return save(fig, out, f"{quantity}.png")


def plot_energy(folder, deck, columns, t, data, out):
    parts = dict(columns[""]) if "" in columns else {}
    fig, (top, bottom) = plt.subplots(2, 1, sharex=True, figsize=(7, 6),
                                      gridspec_kw={"height_ratios": [2, 1]})
    labels = {"kinetic": "kinetic", "strain": "strain (elastic)",
              "potential": "gravitational potential", "frictional": "dissipated by friction",
              "total": "total (sum)"}
    for part, i in parts.items():
        style = {"color": "black", "lw": 2} if part == "total" else {}
        top.plot(t, data[:, i], label=labels.get(part, part), **style)
    top.set_ylabel("energy (J)")
    top.grid(True, alpha=0.3)
    top.legend(fontsize="small")
    if "total" in parts:
        total = data[:, parts["total"]]
        drift = total - total[0]
        scale = max(np.max(np.abs(data[:, [i for p, i in parts.items() if p != "total"]])), 1e-300)
        bottom.plot(t, drift, color="tab:red")
        bottom.axhline(0.0, color="gray", lw=0.8)
        bottom.set_ylabel("total - total(0) (J)")
        bottom.set_title(f"balance: largest drift {np.max(np.abs(drift)) / scale:.2%} of the largest "
                         f"energy part", fontsize="small")
        bottom.grid(True, alpha=0.3)
    bottom.set_xlabel("time (s)")
    fig.suptitle(f"Energy{per_thickness(deck)}\n{run_label(folder, deck)}", fontsize="medium")
    fig.tight_layout()
    return save(fig, out, "energy.png")


def save(fig, out, name, dpi=100):
    path = os.path.join(out, name)
    tmp = path + ".tmp.png"
    fig.savefig(tmp, dpi=dpi)  # a temporary name, then rename: complete or absent
    plt.close(fig)
    os.replace(tmp, path)
    print(path)
    return path


def plot_history(folder, deck, out):
    header, data = read_history(folder)
    t = data[:, header.index("time")]
    groups = group_columns(header)
    if not groups:
        print(f"tribo plot: {folder}/history.csv has only time; add output.history to the deck "
              f"(docs/deck.md) for plots of centroids, velocities, forces and energy", file=sys.stderr)
    written = []
    for quantity, entities in groups.items():
        if quantity == "energy":
            written.append(plot_energy(folder, deck, entities, t, data, out))
        else:
            written.append(plot_components(folder, deck, quantity, entities, t, data, out))
    return written


# ---- frames -------------------------------------------------------------------------------------
def read_pvd(folder):
    path = os.path.join(folder, "run.pvd")
    if not os.path.isfile(path):
        fail(f"{path}: no such file (the run wrote no frames?)")
    try:
        root = ET.parse(path).getroot()
    except ET.ParseError as e:
        fail(f"{path}: {e}")
    frames, cracks = [], {}
    for ds in root.findall("./Collection/DataSet"):
        entry = (float(ds.get("timestep")), os.path.join(folder, ds.get("file")))
        if ds.get("part", "0") == "0":
            frames.append(entry)
        else:
            cracks[entry[0]] = entry[1]
    if not frames:
        fail(f"{path}: lists no frame")
    return frames, cracks


class Frame:
    def __init__(self, path, time):
        from vtkmodules.util.numpy_support import vtk_to_numpy
        from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
        if not os.path.isfile(path):
            fail(f"{path}: no such file (listed in run.pvd)")
        reader = vtkXMLUnstructuredGridReader()
        reader.SetFileName(path)
        reader.Update()
        grid = reader.GetOutput()
        if grid is None or grid.GetPoints() is None:
            fail(f"{path}: not a particle frame VTK can read")
        self.time = time
        self.points = vtk_to_numpy(grid.GetPoints().GetData())
        pd = grid.GetPointData()
        self.arrays = {pd.GetArrayName(i): vtk_to_numpy(pd.GetArray(i)) for i in range(pd.GetNumberOfArrays())}
        names = grid.GetFieldData().GetAbstractArray("material_names")
        self.material_names = [names.GetValue(i) for i in range(names.GetNumberOfValues())] if names else []

    def values(self, field, path):
        wanted = FIELDS[field][2]
        if field == "stress" and "von_mises" in self.arrays:
            return self.arrays["von_mises"]
        if wanted not in self.arrays:
            fail(f"{path}: the frames have no '{wanted}' array; add {wanted} to output.fields in "
                 f"the deck (docs/deck.md) and run again")
        a = self.arrays[wanted]
        return np.linalg.norm(a, axis=1) if a.ndim == 2 else a


def read_cracks(path):
    """Polylines of a cracks_NNNNNN.vtu: a list of (n, 2) arrays."""
    from vtkmodules.util.numpy_support import vtk_to_numpy
    from vtkmodules.vtkIOXML import vtkXMLUnstructuredGridReader
    reader = vtkXMLUnstructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid is None or grid.GetPoints() is None:
        return []
    xyz = vtk_to_numpy(grid.GetPoints().GetData())
    lines = []
    for c in range(grid.GetNumberOfCells()):
        ids = grid.GetCell(c).GetPointIds()
        lines.append(xyz[[ids.GetId(k) for k in range(ids.GetNumberOfIds())], :2])
    return lines


def choose(frames, times, count):
    if times:
        picked = sorted({min(range(len(frames)), key=lambda k: abs(frames[k][0] - t)) for t in times})
    elif len(frames) <= count:
        picked = list(range(len(frames)))
    else:
        picked = sorted({round(k * (len(frames) - 1) / (count - 1)) for k in range(count)})
    return picked


class Painter:
    """One figure re-used for every frame, with fixed axes and colour scale."""

    def __init__(self, folder, deck, field, loaded):
        self.folder, self.deck, self.field = folder, deck, field
        self.dim = int(deck.get("dimension", 0) or (3 if np.ptp(loaded[0].points[:, 2]) > 0 else 2))
        lo = np.min([f.points.min(axis=0) for f in loaded], axis=0)
        hi = np.max([f.points.max(axis=0) for f in loaded], axis=0)
        spacing = particle_spacing(deck)
        if not spacing > 0:
            spacing = (np.prod(np.maximum(hi - lo, 1e-12)[: self.dim]) / len(loaded[0].points)) ** (1 / self.dim)
        self.spacing = spacing
        margin = np.maximum(0.05 * (hi - lo), 2 * spacing)
        self.lo, self.hi = lo - margin, hi + margin
        label, unit, _ = FIELDS[field]
        self.label = f"{label} ({unit})" if unit else label
        if field == "material":
            top = int(max(f.values(field, folder).max() for f in loaded))
            names = loaded[0].material_names or [str(i) for i in range(top + 1)]
            self.names = names
            palette = plt.get_cmap("tab10").colors  # distinct colours, one per material
            self.cmap = matplotlib.colors.ListedColormap([palette[k % 10] for k in range(max(len(names), 1))])
            self.vmin, self.vmax = -0.5, len(names) - 0.5
        else:
            values = np.concatenate([f.values(field, folder) for f in loaded])
            self.vmin = 0.0 if field != "stress" or values.min() >= 0 else float(values.min())
            self.vmax = float(values.max()) if values.size else 1.0
            if field == "damage":
                self.vmin, self.vmax = 0.0, max(self.vmax, 1e-3)
            if not self.vmax > self.vmin:
                self.vmax = self.vmin + 1.0
            self.cmap = plt.get_cmap("viridis")

    def figure(self):
        """A figure with its axes and colour bar laid out; the particles are drawn later, once the
        axes' size on screen (hence the markers' size) is final."""
        if self.dim == 3:
            fig = plt.figure(figsize=(8, 5.5))
        else:
            # 8 inches wide, tall as the run's box needs (a long flat incline gets a flat figure).
            aspect = (self.hi[1] - self.lo[1]) / max(self.hi[0] - self.lo[0], 1e-300)
            fig = plt.figure(figsize=(8, min(max(1.9 + 6.0 * aspect, 3.0), 8.0)))
        if self.dim == 3:
            # y is drawn upward (as in 2D decks, where gravity usually points along -y): the
            # plot's axes are (x, z, y) of the run, seen from the front, a little from above.
            ax = fig.add_subplot(projection="3d")
            ax.view_init(elev=20, azim=-75)
            ax.set_box_aspect(tuple(np.maximum(self.hi - self.lo, 1e-12)[[0, 2, 1]]))
            ax.set_xlim(self.lo[0], self.hi[0])
            ax.set_ylim(self.lo[2], self.hi[2])
            ax.set_zlim(self.lo[1], self.hi[1])
            ax.set_xlabel("x (m)")
            ax.set_ylabel("z (m)")
            ax.set_zlabel("y (m)")
            ax.yaxis.set_major_locator(matplotlib.ticker.MaxNLocator(3))
            self.colorbar(fig, ax)
            return fig, ax
        else:
            ax = fig.add_subplot()
            ax.set_aspect("equal")
        ax.set_xlim(self.lo[0], self.hi[0])
        ax.set_ylim(self.lo[1], self.hi[1])
        ax.set_xlabel("x (m)")
        ax.set_ylabel("y (m)")
        self.colorbar(fig, ax)
        # The title takes two lines; laid out once, with them, before the markers are sized.
        ax.set_title("\n", fontsize="medium")
        fig.tight_layout()
        return fig, ax

    def marker_area(self, fig, ax):
        """Scatter area (points^2) of a square one particle spacing wide on screen."""
        fig.canvas.draw()
        if self.dim == 3:
            bbox = ax.get_window_extent()
            pixels_per_m = min(bbox.width, bbox.height) / max(np.max(self.hi - self.lo), 1e-12)
        else:
            a, b = ax.transData.transform([(0, 0), (1, 0)])
            pixels_per_m = abs(b[0] - a[0])
        side = self.spacing * pixels_per_m * 72.0 / fig.dpi
        return max(side * side, 0.3)

    def draw(self, fig, ax, frame, cracks, area):
        values = frame.values(self.field, self.folder)
        kw = dict(c=values, cmap=self.cmap, vmin=self.vmin, vmax=self.vmax, s=area, marker="s",
                  linewidths=0)
        if self.dim == 3:
            art = ax.scatter(frame.points[:, 0], frame.points[:, 2], frame.points[:, 1], **kw)
        else:
            art = ax.scatter(frame.points[:, 0], frame.points[:, 1], **kw)
            for line in cracks:
                ax.plot(line[:, 0], line[:, 1], color="black", lw=0.8)
        ax.set_title(f"{run_label(self.folder, self.deck)}\n{FIELDS[self.field][0]} at "
                     f"t = {frame.time:.5g} s", fontsize="medium")
        return art

    def colorbar(self, fig, ax):
        mappable = matplotlib.cm.ScalarMappable(
            norm=matplotlib.colors.Normalize(self.vmin, self.vmax), cmap=self.cmap)
        bar = fig.colorbar(mappable, ax=ax, shrink=0.9, pad=0.1 if self.dim == 3 else 0.03)
        bar.set_label(self.label)
        if self.field == "material":
            bar.set_ticks(range(len(self.names)))
            bar.set_ticklabels(self.names)


def snapshot(painter, frame, cracks, out, name):
    fig, ax = painter.figure()
    area = painter.marker_area(fig, ax)
    painter.draw(fig, ax, frame, cracks, area)
    return save(fig, out, name)


def movie(painter, frames, crack_files, out, kind, max_frames):
    animation = need("matplotlib.animation", "python3-matplotlib")
    if kind == "gif":
        need("PIL", "python3-pil")
        writer = animation.PillowWriter(fps=10)
    else:
        if not animation.writers.is_available("ffmpeg"):
            fail("--movie mp4 needs the ffmpeg program (Debian package ffmpeg); --movie gif needs "
                 "only Pillow")
        writer = animation.FFMpegWriter(fps=10)
    picked = choose(frames, None, max_frames)
    fig, ax = painter.figure()
    area = painter.marker_area(fig, ax)
    path = os.path.join(out, f"{painter.field}.{kind}")
    tmp = path + f".tmp.{kind}"
    with writer.saving(fig, tmp, dpi=80):
        for k in picked:
            time, file = frames[k]
            frame = Frame(file, time)
            for artist in list(ax.collections) + list(ax.lines):
                artist.remove()
            painter.draw(fig, ax, frame, read_cracks(crack_files[time]) if time in crack_files else [], area)
            writer.grab_frame()
    plt.close(fig)
    os.replace(tmp, path)
    print(path)
    return path


def plot_frames(folder, deck, out, args):
    need("vtkmodules.vtkIOXML", "python3-vtk9")
    frames, crack_files = read_pvd(folder)
    picked = choose(frames, args.times, args.count)
    loaded = [Frame(frames[k][1], frames[k][0]) for k in picked]
    painter = Painter(folder, deck, args.field, loaded)
    written = []
    for k, frame in zip(picked, loaded):
        stem = os.path.splitext(os.path.basename(frames[k][1]))[0].replace("frame_", "")
        cracks = read_cracks(crack_files[frame.time]) if frame.time in crack_files else []
        written.append(snapshot(painter, frame, cracks, out, f"frame_{args.field}_{stem}.png"))
    if args.movie:
        written.append(movie(painter, frames, crack_files, out, args.movie, args.max_movie_frames))
    return written


def main(argv):
    parser = argparse.ArgumentParser(prog="tribo plot", description=__doc__.split("\n")[0])
    parser.add_argument("dir")
    parser.add_argument("--frames", action="store_true")
    parser.add_argument("--field", choices=sorted(FIELDS), default="velocity")
    parser.add_argument("--times", type=lambda s: [float(x) for x in s.split(",") if x.strip()])
    parser.add_argument("--count", type=int, default=6)
    parser.add_argument("--movie", choices=["gif", "mp4"])
    parser.add_argument("--max-movie-frames", type=int, default=60)
    args = parser.parse_args(argv)
    folder = args.dir
    if not os.path.isdir(folder):
        fail(f"{folder}: no such folder")
    deck = read_deck(folder)
    out = os.path.join(folder, "plots")
    os.makedirs(out, exist_ok=True)
    plot_history(folder, deck, out)
    if args.frames or args.times or args.movie:
        plot_frames(folder, deck, out, args)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
