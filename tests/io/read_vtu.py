#!/usr/bin/python3
"""Reads Tribo's output with VTK itself, the way ParaView would, and checks what it finds.

usage: read_vtu.py FILE.vtu FILE.pvd N [EXPECTED.json]

- FILE.vtu is loaded with vtkXMLUnstructuredGridReader (FILE.pvtu, the frame of a run across
  processes, with vtkXMLPUnstructuredGridReader, which assembles its pieces): N points, N VTK_VERTEX cells, point
  arrays body and mass (always written) plus those named in EXPECTED.json, with their values.
- FILE.pvd is parsed with xml.etree (a VTKFile of type Collection); every DataSet it lists is
  loaded with vtkXMLGenericDataObjectReader and must hold N points and the same array names.
- EXPECTED.json (optional): {"arrays": {name: values (flat or one list per point)},
  "points": [[x, y, z], ...], "field_strings": {name: [str, ...]}, "pvd_times": [t, ...]}.
  Values compare with a relative tolerance of 1e-12 (they are written as raw doubles, so any
  difference beyond rounding in the expected decimal literals is a real error).
Exit status 0 when every check passes, 1 otherwise (with the reasons on stderr).
"""
import json
import math
import os
import sys
import xml.etree.ElementTree as ET

from vtkmodules.vtkCommonCore import vtkCommand
from vtkmodules.vtkIOXML import (vtkXMLGenericDataObjectReader, vtkXMLPUnstructuredGridReader,
                                 vtkXMLUnstructuredGridReader)
from vtkmodules.util.numpy_support import vtk_to_numpy

VTK_VERTEX = 1
failures = []


def check(condition, message):
    if not condition:
        failures.append(message)
    return condition


class ErrorCatcher:
    """VTK readers report errors through events rather than exceptions."""

    def __init__(self):
        self.messages = []

    def __call__(self, caller, event, data=None):
        self.messages.append(str(data) if data is not None else event)


def load(reader_class, path):
    reader = reader_class()
    catcher = ErrorCatcher()
    reader.AddObserver(vtkCommand.ErrorEvent, catcher)
    reader.SetFileName(path)
    reader.Update()
    check(not catcher.messages, f"{path}: VTK reported errors: {catcher.messages}")
    return reader.GetOutputDataObject(0)


def close(a, b):
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-15)


def flatten(values):
    out = []
    for v in values:
        out.extend(flatten(v) if isinstance(v, list) else [v])
    return out


def point_array_names(grid):
    pd = grid.GetPointData()
    return [pd.GetArrayName(i) for i in range(pd.GetNumberOfArrays())]


def check_grid(grid, path, n):
    if not check(grid is not None and grid.IsA("vtkUnstructuredGrid"),
                 f"{path}: not an unstructured grid"):
        return False
    check(grid.GetNumberOfPoints() == n, f"{path}: {grid.GetNumberOfPoints()} points, expected {n}")
    check(grid.GetNumberOfCells() == n, f"{path}: {grid.GetNumberOfCells()} cells, expected {n}")
    for i in range(grid.GetNumberOfCells()):
        if not check(grid.GetCellType(i) == VTK_VERTEX, f"{path}: cell {i} is not a VTK_VERTEX"):
            break
    names = point_array_names(grid)
    for required in ("body", "mass"):
        check(required in names, f"{path}: no point array '{required}' (has {names})")
    return True


def check_values(grid, path, expected):
    pd = grid.GetPointData()
    for name, values in expected.get("arrays", {}).items():
        array = pd.GetArray(name)
        if not check(array is not None, f"{path}: no point array '{name}'"):
            continue
        want = flatten(values)
        got = vtk_to_numpy(array).ravel().tolist()
        if check(len(got) == len(want), f"{path}: {name} has {len(got)} values, expected {len(want)}"):
            bad = [(k, g, w) for k, (g, w) in enumerate(zip(got, want)) if not close(g, w)]
            check(not bad, f"{path}: {name} differs at (index, got, expected) {bad[:5]}")
    if "points" in expected:
        got = vtk_to_numpy(grid.GetPoints().GetData()).ravel().tolist()
        want = flatten(expected["points"])
        check(len(got) == len(want) and all(close(g, w) for g, w in zip(got, want)),
              f"{path}: points {got}, expected {want}")
    fd = grid.GetFieldData()
    for name, want in expected.get("field_strings", {}).items():
        array = fd.GetAbstractArray(name)
        if not check(array is not None, f"{path}: no field-data array '{name}'"):
            continue
        got = [array.GetValue(i) for i in range(array.GetNumberOfValues())]
        check(got == want, f"{path}: field data {name} = {got}, expected {want}")


def check_pvd(pvd, n, reference_names, expected):
    root = ET.parse(pvd).getroot()
    check(root.tag == "VTKFile" and root.get("type") == "Collection",
          f"{pvd}: root is <{root.tag} type={root.get('type')}>, expected a VTKFile Collection")
    datasets = root.findall("./Collection/DataSet")
    check(datasets, f"{pvd}: no DataSet entries")
    times = []
    folder = os.path.dirname(os.path.abspath(pvd))
    for ds in datasets:
        times.append(float(ds.get("timestep")))
        path = os.path.join(folder, ds.get("file"))
        if not check(os.path.isfile(path), f"{pvd}: lists {ds.get('file')}, which does not exist"):
            continue
        grid = load(vtkXMLGenericDataObjectReader, path)
        if check_grid(grid, path, n):
            names = point_array_names(grid)
            check(names == reference_names, f"{path}: arrays {names}, expected {reference_names}")
    check(all(a < b for a, b in zip(times, times[1:])), f"{pvd}: times not increasing: {times}")
    if "pvd_times" in expected:
        want = expected["pvd_times"]
        check(len(times) == len(want) and all(close(a, b) for a, b in zip(times, want)),
              f"{pvd}: times {times}, expected {want}")


def main(argv):
    if len(argv) not in (4, 5):
        print(__doc__, file=sys.stderr)
        return 2
    vtu, pvd, n = argv[1], argv[2], int(argv[3])
    expected = {}
    if len(argv) == 5:
        with open(argv[4]) as f:
            expected = json.load(f)
    reader = vtkXMLPUnstructuredGridReader if vtu.endswith(".pvtu") else vtkXMLUnstructuredGridReader
    grid = load(reader, vtu)
    if check_grid(grid, vtu, n):
        check_values(grid, vtu, expected)
        check_pvd(pvd, n, point_array_names(grid), expected)
    for message in failures:
        print("read_vtu.py: " + message, file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
