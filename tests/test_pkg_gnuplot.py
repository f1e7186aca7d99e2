"""gnuplot (the package's Lua from the third-party tree) drives the real gnuplot
binary through torch.PipeFile and writes real PNG files.  .ci/run installs Debian's
gnuplot-x11: its screen terminals (wxt, x11) are what the package looks for at
load time, and a file figure never opens them, so the plain three lines of a
script write a PNG without a display.  (With gnuplot-nox there is no screen
terminal: the package then refuses figures until gnuplot.setterm picks one, as
under the original.)"""
import shutil
import struct
import zlib

from thirdparty import packages_env
from conftest import run_th

# the three lines of the documentation, with no terminal set by the script
PLAIN = r"""
require 'gnuplot'
local x = torch.linspace(-3, 3, 50)
gnuplot.pngfigure('f.png')
gnuplot.plot(x, torch.sin(x))
gnuplot.plotflush()
print('plotted')
"""

# a terminal set by hand (what a gnuplot-nox machine needs) and other kinds of plot
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


def plot(tmp_path, script):
    assert shutil.which("gnuplot"), "gnuplot is not installed (.ci/run installs gnuplot-x11)"
    (tmp_path / "plots.lua").write_text(script)
    env = packages_env()
    env.pop("DISPLAY", None)           # as on a server or CI: no screen
    r = run_th(["plots.lua"], cwd=str(tmp_path), env=env)
    assert r.returncode == 0, r.stderr
    assert r.stdout.endswith("plotted\t\n")


def test_gnuplot_pngfigure_without_setterm_or_display(tmp_path):
    plot(tmp_path, PLAIN)
    width, height, pixels = read_png(tmp_path / "f.png")
    assert (width, height) == (640, 480)
    assert len(set(pixels)) > 3


def test_gnuplot_writes_png_figures(tmp_path):
    plot(tmp_path, PLOTS)
    for name in ("line", "image", "hist"):
        width, height, pixels = read_png(tmp_path / f"{name}.png")
        assert (width, height) == (640, 480)
        assert len(set(pixels)) > 3          # a drawing, not a blank page
