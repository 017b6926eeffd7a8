#!/usr/bin/env python3
"""Renders one field of an fvrun solution (solution.xmf, .vtu or .cgns) to a PNG with ParaView,
without a display:

    xvfb-run -a -s "-screen 0 1280x800x24" pvbatch scripts/picture.py naca_out/solution.xmf naca_mach.png \
        --field mach --box -0.5 1.5 -0.6 0.6

--box XMIN XMAX YMIN YMAX frames that part of the mesh (a 2D mesh seen along its extrusion, the
z axis; default: the whole mesh). The colour map spans the field's range inside the frame.
"bad X server connection": another X server answered on the display xvfb-run chose (a
container sharing the host's abstract sockets); run it again, or give xvfb-run -n N.
"""
import argparse
import sys

from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetColorTransferFunction,
                             OpenDataFile, SaveScreenshot, Show)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("solution", help="solution.xmf, solution.vtu or solution.cgns of fvrun")
    ap.add_argument("png", help="the picture to write")
    ap.add_argument("--field", default="mach", help="cell field to colour by (default: mach)")
    ap.add_argument("--box", nargs=4, type=float, metavar=("XMIN", "XMAX", "YMIN", "YMAX"),
                    help="the part of the mesh to frame (default: all of it)")
    ap.add_argument("--size", nargs=2, type=int, default=[1200, 700], metavar=("W", "H"))
    a = ap.parse_args()

    reader = OpenDataFile(a.solution)
    if reader is None:
        sys.exit("picture.py: cannot open %s" % a.solution)
    if hasattr(reader, "CellArrayStatus"):  # the CGNS reader loads no array unless asked
        reader.CellArrayStatus = reader.CellArrayStatus.Available
    reader.UpdatePipeline()
    names = [reader.CellData.GetArray(i).GetName() for i in range(len(reader.CellData))]
    if a.field not in names:
        sys.exit("picture.py: %s has no cell field '%s' (it has: %s)"
                 % (a.solution, a.field, ", ".join(names)))

    view = GetActiveViewOrCreate("RenderView")
    view.ViewSize = a.size
    view.OrientationAxesVisibility = 0
    display = Show(reader, view)
    display.SetRepresentationType("Surface")
    ColorBy(display, ("CELLS", a.field))
    lut = GetColorTransferFunction(a.field)
    lut.ApplyPreset("Turbo", True) or lut.ApplyPreset("Jet", True)
    lut.AutomaticRescaleRangeMode = "Never"  # keep the range set below
    display.SetScalarBarVisibility(view, True)

    bounds = reader.GetDataInformation().GetBounds()
    x0, x1, y0, y1 = a.box if a.box else bounds[:4]
    lo, hi = reader.CellData[a.field].GetRange()
    if a.box:  # the range inside the frame: clip the data to it for the colour map only
        from paraview.simple import Clip
        clip = Clip(Input=reader)
        clip.ClipType = "Box"
        clip.ClipType.Position = [x0, y0, bounds[4] - 1]
        clip.ClipType.Length = [x1 - x0, y1 - y0, bounds[5] - bounds[4] + 2]
        clip.Invert = 1
        clip.UpdatePipeline()
        if clip.GetDataInformation().GetNumberOfCells() > 0:
            lo, hi = clip.CellData[a.field].GetRange()
    lut.RescaleTransferFunction(lo, hi)

    cx, cy = 0.5 * (x0 + x1), 0.5 * (y0 + y1)
    aspect = a.size[0] / a.size[1]
    view.CameraParallelProjection = 1
    view.CameraPosition = [cx, cy, bounds[5] + 10 * max(x1 - x0, y1 - y0)]
    view.CameraFocalPoint = [cx, cy, 0.5 * (bounds[4] + bounds[5])]
    view.CameraViewUp = [0, 1, 0]
    view.CameraParallelScale = 0.5 * max(y1 - y0, (x1 - x0) / aspect)
    SaveScreenshot(a.png, view, ImageResolution=a.size)
    print("picture.py: wrote %s (%s from %.4g to %.4g)" % (a.png, a.field, lo, hi))


main()
