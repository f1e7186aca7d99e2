"""gnuplot (the package's Lua from the third-party tree) drives the real gnuplot
binary through torch.PipeFile and writes real PNG files.  With gnuplot-nox there
is no screen terminal (wxt, qt, x11), so, as under the original, the script
picks one with gnuplot.setterm before its file figures."""
import shutil
import struct
import zlib

from thirdparty import packages_env
from conftest import run_th

PLOTS = r"""
require 'gnuplot'
gnuplot.setterm('dumb')
local x = torch.linspace(-3, 3, 50)
gnuplot.pngfigure('line.png')
gnuplot.plot(x, torch.sin(x))
gnuplot.plotflush()
gnuplot.pngfigure('image.png')
gnuplot.imagesc(torch.rand(20, 30), 'color')
gnuplot.plotflush()
gnuplot.pngfigure('hist.png')
gnuplot.hist(torch.randn(1000), 20)
gnuplot.title('normal')
gnuplot.plotflush()
gnuplot.closeall()
print('plotted')
"""


def read_png(path):
    """-> (width, height, decompressed pixel rows), checking the PNG structure."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        assert zlib.crc32(kind + body) == struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        chunks[kind] = chunks.get(kind, b"") + body
        pos += 12 + length
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    assert b"IEND" in chunks
    return width, height, zlib.decompress(chunks[b"IDAT"])


def test_gnuplot_writes_png_figures(tmp_path):
    assert shutil.which("gnuplot"), "gnuplot is not installed (.ci/run installs gnuplot-nox)"
    (tmp_path / "plots.lua").write_text(PLOTS)
    r = run_th(["plots.lua"], cwd=str(tmp_path), env=packages_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith("plotted\t\n")
    for name in ("line", "image", "hist"):
        width, height, pixels = read_png(tmp_path / f"{name}.png")
        assert (width, height) == (640, 480)
        assert len(set(pixels)) > 3          # a drawing, not a blank page
