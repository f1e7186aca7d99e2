"""The image package (../shared/thirdparty/image) on th: its own test/test.lua, and
focused checks of what th provides for its C part (libimage, libpng, libjpeg, libppm)
against values computed independently here (numpy, Pillow, colorsys, the documented
definitions).

The package is laid out as an installation puts it (share/lua/5.1/image/init.lua,
image/test.lua, image/assets), with sys and xlua beside it."""
import colorsys
import os

import numpy as np
import pytest
from PIL import Image

from conftest import SHARED, run_th, uncoloured

# ../shared/thirdparty beside the repository (TH_THIRDPARTY names another place)
THIRDPARTY = os.environ.get("TH_THIRDPARTY", os.path.join(SHARED, "thirdparty"))
ASSETS = os.path.join(THIRDPARTY, "image", "assets")


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A Lua tree holding image, sys and xlua as installed."""
    root = tmp_path_factory.mktemp("lua")
    (root / "image").mkdir()
    src = os.path.join(THIRDPARTY, "image")
    os.symlink(os.path.join(src, "init.lua"), root / "image" / "init.lua")
    os.symlink(os.path.join(src, "test", "test.lua"), root / "image" / "test.lua")
    os.symlink(os.path.join(src, "assets"), root / "image" / "assets")
    for pkg in ("sys", "xlua"):
        os.symlink(os.path.join(THIRDPARTY, pkg), root / pkg)
    return root


def lua_path(tree):
    return "%s/?.lua;%s/?/init.lua;;" % (tree, tree)


@pytest.fixture(scope="module")
def lua(tree):
    """lua(code, **arrays) -> what code returns (tensors as numpy copies), with image loaded."""
    from th.runtime import Runtime
    rt = Runtime()
    rt.globals.package.path = lua_path(tree) + rt.globals.package.path
    rt.execute("require 'image'")
    is_tensor = rt.eval("torch.isTensor")

    def run(code, **arrays):
        for name, a in arrays.items():
            rt.globals[name] = rt.from_numpy(np.array(a))
        out = rt.execute(code)
        if isinstance(out, tuple):
            return tuple(np.array(rt.to_numpy(o)) if is_tensor(o) else o for o in out)
        return np.array(rt.to_numpy(out)) if is_tensor(out) else out
    return run


# --- image's own test suite ---

def test_image_test_suite_passes(tree, tmp_path):
    script = tmp_path / "run.lua"
    script.write_text("require 'image'\nimage.test(nil, 1234)\n")
    env = dict(os.environ, LUA_PATH=lua_path(tree))
    res = run_th([str(script)], cwd=str(tmp_path), env=env, timeout=300)
    assert res.returncode == 0, res.stdout[-3000:] + res.stderr[-3000:]
    assert "in 41 tests with 0 failures and 0 errors" in uncoloured(res.stdout)


# --- load / save ---

def test_png_load_matches_pillow(lua):
    path = os.path.join(ASSETS, "grace_hopper_512.png")
    want = np.asarray(Image.open(path)).transpose(2, 0, 1)
    got = lua("return image.load('%s', 3, 'byte')" % path)
    assert got.dtype == np.uint8 and np.array_equal(got, want)
    got = lua("return image.load('%s')" % path)
    assert got.dtype == np.float64 and np.allclose(got, want / 255.0, atol=1e-12)


def test_jpeg_load_matches_libjpeg_decoding(lua):
    path = os.path.join(ASSETS, "fabio.jpg")
    want = np.asarray(Image.open(path).convert("L"))
    got = lua("return image.load('%s', 1, 'byte')" % path)
    # depth 1 of an RGB JPEG is rgb2y of the decoded pixels: within a rounding step of
    # the luma Pillow (libjpeg) computes
    assert got.shape == want.shape
    assert np.abs(got.astype(int) - want).max() <= 1
    rgb = lua("return image.load('%s', 3, 'byte')" % path)
    assert np.array_equal(rgb, np.asarray(Image.open(path)).transpose(2, 0, 1))


@pytest.mark.parametrize("ext,channels", [("png", 1), ("png", 3), ("png", 4), ("ppm", 3), ("pgm", 1)])
def test_lossless_round_trip(lua, tmp_path, ext, channels):
    rng = np.random.default_rng(channels)
    pixels = rng.integers(0, 256, (channels, 5, 7)).astype(np.uint8)
    path = tmp_path / ("x." + ext)
    back = lua("image.save('%s', x); return image.load('%s', nil, 'byte')" % (path, path), x=pixels)
    assert np.array_equal(back, pixels)
    back = lua("image.save('%s', x:double():div(255)); return image.load('%s')" % (path, path), x=pixels)
    assert np.allclose(back, pixels / 255.0)


def test_saved_png_read_by_pillow(lua, tmp_path):
    pixels = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(3, 2, 3) * 10
    path = tmp_path / "p.png"
    lua("image.save('%s', x)" % path, x=pixels)
    assert np.array_equal(np.asarray(Image.open(path)).transpose(2, 0, 1), pixels)


def test_jpeg_round_trip_and_quality(lua, tmp_path):
    yy, xx = np.mgrid[0:32, 0:48]
    smooth = np.stack([xx * 5, yy * 7, (xx + yy) * 3]).astype(np.uint8)
    path = tmp_path / "s.jpg"
    back = lua("image.save('%s', x); return image.load('%s', 3, 'byte')" % (path, path), x=smooth)
    assert np.abs(back.astype(int) - smooth).mean() < 3
    sizes = lua("return image.compressJPG(x, 95):size(1), image.compressJPG(x, 10):size(1)",
                x=smooth.astype(np.float64) / 255)
    assert sizes[0] > sizes[1]


def test_png_16_bit(lua, tmp_path):
    import png
    values = np.array([[0, 256, 65535], [1000, 32768, 65280]], np.uint16)
    gray, rgb = tmp_path / "g16.png", tmp_path / "c16.png"
    png.from_array(values.tolist(), "L;16").save(str(gray))
    png.from_array(np.repeat(values, 3, axis=1).tolist(), "RGB;16").save(str(rgb))
    got = lua("return image.load('%s', 1, 'float')" % gray)
    assert np.allclose(got[0], values / 65535.0, rtol=1e-6)
    got = lua("return image.load('%s', 1, 'byte')" % gray)
    assert np.array_equal(got[0], values >> 8)
    got = lua("return image.load('%s', 3, 'double')" % rgb)
    assert np.allclose(got, np.stack([values] * 3) / 65535.0)


def test_sizes_and_compressed_png(lua):
    path = os.path.join(ASSETS, "fabio.png")
    size = lua("return image.getSize('%s')" % path)
    assert list(size) == [1, 257, 271]
    blob = np.fromfile(path, np.uint8)
    got = lua("return image.decompress(b, 1, 'byte')", b=blob)
    assert np.array_equal(got[0], np.asarray(Image.open(path)))


def test_bad_files_raise_lua_errors(lua, tmp_path):
    bad = tmp_path / "bad.png"
    bad.write_bytes(b"\x89PNG\r\n\x1a\n" + b"\0" * 40)
    ok, msg = lua("return pcall(image.load, '%s')" % bad)
    assert ok is False and "Error during init_io" in msg and "Traceback" not in msg
    ok, msg = lua("return pcall(image.decompressJPG, torch.ByteTensor(64):fill(7))")
    assert ok is False and "Not a JPEG file" in msg
    assert lua("return image.load('%s', 1, 'byte'):size(2)" % os.path.join(ASSETS, "fabio.png")) == 257


# --- scale ---

def linear_resize_1d(v, n):
    """Corners-aligned linear interpolation (enlarging)."""
    return np.interp(np.linspace(0, len(v) - 1, n), np.arange(len(v)), v)


def test_scale_bilinear_enlarge_is_separable_linear(lua):
    x = np.random.default_rng(0).random((2, 4, 5))
    got = lua("return image.scale(x, 9, 7, 'bilinear')", x=x)
    want = np.apply_along_axis(linear_resize_1d, 2, x, 9)
    want = np.apply_along_axis(linear_resize_1d, 1, want, 7)
    assert np.allclose(got, want)


def test_scale_bilinear_shrink_averages_blocks(lua):
    x = np.random.default_rng(1).random((3, 8, 12))
    got = lua("return image.scale(x, 4, 2)", x=x)
    assert np.allclose(got, x.reshape(3, 2, 4, 4, 3).mean(axis=(2, 4)))


def test_scale_simple_nearest(lua):
    x = np.arange(12.0).reshape(3, 4)
    assert np.array_equal(lua("return image.scale(x, 8, 6, 'simple')", x=x),
                          np.repeat(np.repeat(x, 2, axis=0), 2, axis=1))
    assert np.array_equal(lua("return image.scale(x, 2, 3, 'simple')", x=x), x[:, ::2])


def catmull_rom(p, t):
    return 0.5 * (2 * p[1] + (p[2] - p[0]) * t + (2 * p[0] - 5 * p[1] + 4 * p[2] - p[3]) * t * t
                  + (3 * (p[1] - p[2]) + p[3] - p[0]) * t ** 3)


def test_scale_bicubic(lua):
    v = np.array([3.0, 1.0, 4.0, 1.0, 5.0])
    ext = np.concatenate([[2 * v[0] - v[1]], v, [2 * v[-1] - v[-2]]])
    want = []
    for pos in np.linspace(0, 4, 9):
        i = min(int(pos), 3)
        want.append(catmull_rom(ext[i:i + 4], pos - i))
    got = lua("return image.scale(x, 9, 1, 'bicubic')", x=v[None, :])
    assert np.allclose(got[0], want)


def test_scale_size_strings(lua):
    x = np.zeros((3, 20, 40))
    shapes = lua("""local s = {}
      for _, spec in ipairs{'10x5', '*1/2', '*2', '^10', 80} do
         local y = image.scale(x, spec); s[#s + 1] = y:size(2) .. 'x' .. y:size(3)
      end
      return table.concat(s, ' ')""", x=x)
    assert shapes == "5x10 10x20 40x80 10x20 40x80"


def test_scale_byte_rounds(lua):
    x = np.array([[0, 255]], np.uint8)
    assert lua("return image.scale(x, 3, 1)", x=x).tolist() == [[0, 128, 255]]


# --- crop, translate, flips ---

def test_crop_and_translate(lua):
    x = np.arange(2 * 5 * 6, dtype=np.float64).reshape(2, 5, 6)
    assert np.array_equal(lua("return image.crop(x, 1, 2, 4, 5)", x=x), x[:, 2:5, 1:4])
    assert np.array_equal(lua("return image.crop(x, 'c', 2, 3)", x=x), x[:, 1:4, 2:4])
    want = np.zeros_like(x)
    want[:, 1:, 2:] = x[:, :-1, :-2]
    assert np.array_equal(lua("return image.translate(x, 2, 1)", x=x), want)


def test_flips(lua):
    x = np.arange(24.0).reshape(2, 3, 4)
    assert np.array_equal(lua("return image.hflip(x)", x=x), x[:, :, ::-1])
    assert np.array_equal(lua("return image.vflip(x)", x=x), x[:, ::-1, :])
    assert np.array_equal(lua("return image.flip(x, 1)", x=x), x[::-1])


# --- rotate, warp, polar ---

def test_rotate_quarter_turn_about_the_centre(lua):
    x = np.random.default_rng(2).random((2, 5, 5))
    for mode in ("simple", "bilinear"):
        got = lua("return image.rotate(x, math.pi / 2, '%s')" % mode, x=x)
        assert np.allclose(got, np.rot90(x, 1, axes=(1, 2)), atol=1e-9)
        assert np.allclose(lua("return image.rotate(x, 0, '%s')" % mode, x=x), x)


def test_rotate_leaves_corners_blank(lua):
    x = np.ones((4, 4))
    got = lua("return image.rotate(x, math.pi / 4)", x=x)
    assert got[0, 0] == 0 and got[1, 1] == 1


def test_warp_modes_and_clamping(lua):
    x = np.random.default_rng(3).random((1, 6, 7))
    zero = np.zeros((2, 6, 7))
    for mode in ("simple", "bilinear", "bicubic", "lanczos"):
        assert np.allclose(lua("return image.warp(x, f, '%s')" % mode, x=x, f=zero), x), mode
    shift = zero.copy()
    shift[1] = 1.0      # read one pixel to the right
    got = lua("return image.warp(x, f, 'bilinear', true, 'clamp')", x=x, f=shift)
    assert np.allclose(got[0, :, :-1], x[0, :, 1:]) and np.allclose(got[0, :, -1], x[0, :, -1])
    got = lua("return image.warp(x, f, 'simple', true, 'pad', 0.5)", x=x, f=shift)
    assert np.allclose(got[0, :, -1], 0.5)
    half = zero.copy()
    half[1] = 0.5
    got = lua("return image.warp(x, f, 'bilinear')", x=x, f=half)
    assert np.allclose(got[0, :, :-1], (x[0, :, :-1] + x[0, :, 1:]) / 2)
    # absolute coordinates (offset false): a field of (y, x) indexes the source
    yy, xx = np.mgrid[0:6, 0:7].astype(np.float64)
    field = np.stack([5 - yy, xx])
    got = lua("return image.warp(x, f, 'simple', false)", x=x, f=field)
    assert np.allclose(got, x[:, ::-1, :])


def test_affinetransform_identity(lua):
    x = np.random.default_rng(4).random((3, 5, 6))
    assert np.allclose(lua("return image.affinetransform(x, torch.eye(2))", x=x), x)


def test_polar_of_a_radial_image(lua):
    yy, xx = np.mgrid[0:41, 0:41]
    radial = np.hypot(yy - 20, xx - 20)
    got = lua("return image.polar(x:view(1, 41, 41), 'bilinear', 'valid')", x=radial)
    assert got.shape == (1, 41, 41)
    # every angle (row) sees the same radius profile: the distance to the centre
    # (up to bilinear interpolation of the distance, poorer near the centre)
    assert np.allclose(got[0, :, 5:], (np.arange(41) * 20.5 / 41)[None, 5:], atol=0.06)
    assert np.allclose(got[0, :, :5], (np.arange(41) * 20.5 / 41)[None, :5], atol=0.15)


# --- colour spaces ---

def test_hsv_hsl_match_colorsys(lua):
    rgb = np.random.default_rng(5).random((3, 4, 6))
    hsv = lua("return image.rgb2hsv(x)", x=rgb)
    hsl = lua("return image.rgb2hsl(x)", x=rgb)
    for i in range(4):
        for j in range(6):
            r, g, b = rgb[:, i, j]
            assert np.allclose(hsv[:, i, j], colorsys.rgb_to_hsv(r, g, b))
            h, light, s = colorsys.rgb_to_hls(r, g, b)
            assert np.allclose(hsl[:, i, j], (h, s, light))
    assert np.allclose(lua("return image.hsv2rgb(image.rgb2hsv(x))", x=rgb), rgb)
    assert np.allclose(lua("return image.hsl2rgb(image.rgb2hsl(x))", x=rgb), rgb)


def test_lab_reference_colours(lua):
    # sRGB (D65) white, black, red, green, blue in CIE L*a*b*
    rgb = np.array([[1, 0, 1, 0, 0], [1, 0, 0, 1, 0], [1, 0, 0, 0, 1]], np.float64)[:, None, :]
    lab = lua("return image.rgb2lab(x)", x=rgb)[:, 0, :].T
    want = [(100, 0, 0), (0, 0, 0), (53.24, 80.09, 67.20), (87.73, -86.18, 83.18),
            (32.30, 79.19, -107.86)]
    assert np.allclose(lab, want, atol=0.02)
    assert np.allclose(lua("return image.lab2rgb(image.rgb2lab(x))", x=rgb), rgb, atol=1e-6)


def test_yuv_and_y(lua):
    rgb = np.random.default_rng(6).random((3, 2, 3))
    y = 0.299 * rgb[0] + 0.587 * rgb[1] + 0.114 * rgb[2]
    assert np.allclose(lua("return image.rgb2y(x)", x=rgb)[0], y)
    assert np.allclose(lua("return image.rgb2yuv(x)", x=rgb)[0], y)
    assert np.allclose(lua("return image.yuv2rgb(image.rgb2yuv(x))", x=rgb), rgb, atol=1e-4)


# --- kernels, drawing ---

def test_gaussian_kernel_definition(lua):
    got = lua("return image.gaussian{size=5, sigma=0.25, amplitude=2}")
    c = 5 * 0.5 + 0.5
    g = np.exp(-((np.arange(1, 6) - c) / (0.25 * 5)) ** 2 / 2)
    assert np.allclose(got, 2 * np.outer(g, g))
    got = lua("return image.gaussian{size=5, sigma=0.25, normalize=true}")
    assert np.isclose(got.sum(), 1)


def test_draw_text_size_and_background(lua):
    one = lua("return image.drawText(torch.zeros(3, 8, 6), 'A', 0, 0, {color={255, 255, 255}})")
    two = lua("return image.drawText(torch.zeros(3, 16, 12), 'A', 0, 0, {color={255, 255, 255}, size=2})")
    assert one.max() == 1 and np.array_equal(np.kron(one, np.ones((1, 2, 2))), two)
    bg = lua("return image.drawText(torch.ByteTensor(3, 10, 20):zero(), 'ab', 1, 1, {bg={0, 0, 9}})")
    ink = bg[0] == 255
    assert ink[1:9, 1:13].any() and not ink[9:].any() and not ink[:, 13:].any()
    assert np.array_equal(bg[2, 1:9, 1:13], np.where(ink[1:9, 1:13], 0, 9))
    assert bg[2, 9:].sum() == 0 and bg[2, :, 13:].sum() == 0


def test_draw_rect(lua):
    got = lua("return image.drawRect(torch.zeros(3, 10, 10), 2, 3, 6, 8, {color={0, 255, 0}, lineWidth=1})")
    mask = np.zeros((10, 10), bool)
    mask[2:8, 1:6] = True
    mask[3:7, 2:5] = False
    assert np.array_equal(got[1] == 1, mask) and got[0].max() == 0


def test_png_palette_and_grey_alpha(lua, tmp_path):
    rng = np.random.default_rng(7)
    rgb = rng.integers(0, 256, (4, 5, 3)).astype(np.uint8)
    pal = Image.fromarray(rgb).convert("P", palette=Image.Palette.ADAPTIVE, colors=8)
    pal.save(tmp_path / "p.png")
    got = lua("return image.load('%s', nil, 'byte')" % (tmp_path / "p.png"))
    assert np.array_equal(got, np.asarray(pal.convert("RGB")).transpose(2, 0, 1))
    la = rng.integers(0, 256, (4, 5, 2)).astype(np.uint8)
    Image.fromarray(la).save(tmp_path / "la.png")
    got = lua("return image.load('%s', nil, 'byte')" % (tmp_path / "la.png"))
    assert np.array_equal(got, la.transpose(2, 0, 1))
    grey = lua("return image.load('%s', 1, 'byte')" % (tmp_path / "la.png"))
    assert np.array_equal(grey, la[None, :, :, 0])


@pytest.mark.parametrize("call,message", [
    ("image.warp(torch.rand(3, 6, 6), torch.rand(3, 6, 6))", "2xHxW field"),
    ("image.rotate(torch.rand(6), 1)", "2D or 3D"),
    ("image.hflip(torch.rand(5))", "2D or 3D image expected"),
    ("image.crop(torch.rand(3, 4, 4), 2, 2, 8, 8)", "out of the 4x4 image"),
    ("image.save('/nonexistent/dir/x.png', torch.rand(3, 2, 2))", "could not be opened for writing"),
    ("image.save('/nonexistent/dir/x.ppm', torch.rand(3, 2, 2))", "for writing"),
    ("image.rgb2hsv(torch.rand(2, 3, 3))", "3xHxW image expected"),
    ("image.translate(torch.rand(3, 4, 4), 1, 'a')", "number expected"),
])
def test_bad_arguments_raise_lua_errors(lua, call, message):
    ok, msg = lua("return pcall(function() return %s end)" % call)
    assert ok is False and message in msg and "Traceback" not in msg
