# Opens fvrun outputs in ParaView (pvpython / pvbatch) and prints, per file, the number of cells
# and the cell arrays; renders the first one to an image. Used by FvrunCli.OutputsOpenInParaView.
#   xvfb-run -a pvbatch paraview_open.py OUT.png FILE...
import sys

from paraview.simple import GetActiveViewOrCreate, OpenDataFile, SaveScreenshot, Show

png, files = sys.argv[1], sys.argv[2:]
for path in files:
    reader = OpenDataFile(path)
    if reader is None:
        print("cannot open", path)
        sys.exit(1)
    if hasattr(reader, "CellArrayStatus"):  # the CGNS reader loads no array unless asked
        reader.CellArrayStatus = reader.CellArrayStatus.Available
    reader.UpdatePipeline()
    info = reader.GetDataInformation()
    names = sorted(reader.CellData.GetArray(i).GetName() for i in range(len(reader.CellData)))
    print("opened %s cells %d arrays %s" % (path, info.GetNumberOfCells(), ",".join(names)))
view = GetActiveViewOrCreate("RenderView")
Show(OpenDataFile(files[0]), view)
view.ResetCamera()
SaveScreenshot(png, view, ImageResolution=[320, 200])
print("rendered", png)
