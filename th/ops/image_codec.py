"""Image files for the image package: PNG (8 and 16 bit), JPEG, PPM/PGM.

What image's C modules libpng, libjpeg and libppm did, over Pillow (imported
on first use: th's start-up does not pay for it).  Pillow keeps 16-bit colour
PNGs only as 8 bits, so those go through pypng.  Decoders return a C x H x W
array (uint8, or uint16 for 16-bit PNG) that the Lua side copies into a tensor
of the wanted type; encoders take a C x H x W (or H x W) view of a tensor whose
values are 0..255.
"""
import io

import numpy as np

from th.ops import export

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def _pil():
    from PIL import Image
    return Image


def _source(filename, blob):
    """The bytes of a file, or of a ByteTensor holding the compressed image."""
    if blob is not None:
        return np.ascontiguousarray(blob).tobytes()
    with open(filename, "rb") as f:
        return f.read()


def _chw(arr):
    """H x W or H x W x C array -> C x H x W."""
    if arr.ndim == 2:
        return arr[None]
    return np.ascontiguousarray(arr.transpose(2, 0, 1))


def _png16_colour(data):
    """A 16-bit colour PNG (which Pillow would reduce to 8 bits) as uint16 C x H x W."""
    import png
    width, height, rows, info = png.Reader(bytes=data).read_flat()
    planes = info["planes"]
    arr = np.asarray(rows, dtype=np.uint16).reshape(height, width, planes)
    return _chw(arr)


def _png_load(filename, blob):
    """-> (C x H x W array, bit depth).  Errors read like libpng's."""
    data = _source(filename, blob)
    if data[:8] != PNG_MAGIC:
        raise ValueError("[read_png_file] File is not recognized as a PNG file")
    if len(data) < 33:
        raise ValueError("[read_png_file] Error during init_io")
    depth, colour = data[24], data[25]
    if depth == 16 and colour in (2, 4, 6):
        return _png16_colour(data), 16
    Image = _pil()
    try:
        im = Image.open(io.BytesIO(data))
        im.load()
    except Exception:
        raise ValueError("[read_png_file] Error during init_io") from None
    if im.mode in ("I", "I;16", "I;16B", "I;16L"):
        return _chw(np.asarray(im).astype(np.uint16)), 16
    if im.mode not in ("L", "LA", "RGB", "RGBA"):   # palette, 1-bit...: expanded as libpng did
        alpha = "A" in im.getbands() or "transparency" in im.info
        im = im.convert("RGBA" if alpha else ("L" if im.mode == "1" else "RGB"))
    return _chw(np.asarray(im)), 8


def _pil_size(filename):
    Image = _pil()
    with Image.open(filename) as im:
        return len(im.getbands()), im.size[1], im.size[0]


def _jpeg_load(filename, blob):
    data = _source(filename, blob)
    Image = _pil()
    try:
        im = Image.open(io.BytesIO(data), formats=["JPEG"])
        im.load()
    except Exception:
        head = (data[:2] + b"\0\0")[:2]
        raise ValueError("Not a JPEG file: starts with 0x%02x 0x%02x" % (head[0], head[1])) from None
    if im.mode not in ("L", "RGB"):
        im = im.convert("RGB")
    return _chw(np.asarray(im)), 8


def _to8(arr):
    """A tensor's 0..255 values as uint8 (rounded to nearest, saturated), H x W x C."""
    a = np.asarray(arr)
    if a.dtype != np.uint8:
        a = np.clip(np.floor(a.astype(np.float64) + 0.5), 0, 255).astype(np.uint8)
    if a.ndim == 3:
        a = a.transpose(1, 2, 0)
        if a.shape[2] == 1:
            a = a[:, :, 0]
    return np.ascontiguousarray(a)


def _pil_save(filename, arr, fmt, options):
    a = _to8(arr)
    if a.ndim == 3 and a.shape[2] not in (2, 3, 4):
        raise ValueError("image must have 1, 2, 3 or 4 channels, got %d" % a.shape[2])
    if fmt == "JPEG" and a.ndim == 3 and a.shape[2] in (2, 4):    # JPEG has no alpha
        a = a[:, :, 0] if a.shape[2] == 2 else a[:, :, :3]
    im = _pil().fromarray(np.ascontiguousarray(a))   # mode from the shape
    if filename is None:
        out = io.BytesIO()
        im.save(out, fmt, **options)
        data = np.frombuffer(out.getvalue(), np.uint8)
        return data, data.size
    try:
        im.save(filename, fmt, **options)
    except OSError as exc:
        raise ValueError("[write_%s_file] File %s could not be opened for writing (%s)"
                         % (fmt.lower(), filename, exc.strerror or exc)) from None
    return None


# --- PPM / PGM: simple enough to read and write here, with image's own errors ---

def _ppm_tokens(data, count, pos):
    """The next `count` header numbers from pos, skipping blanks and # comments."""
    out = []
    n = len(data)
    while len(out) < count:
        while pos < n and data[pos:pos + 1].isspace():
            pos += 1
        if pos < n and data[pos:pos + 1] == b"#":
            while pos < n and data[pos:pos + 1] not in (b"\n", b"\r"):
                pos += 1
            continue
        start = pos
        while pos < n and data[pos:pos + 1].isdigit():
            pos += 1
        if start == pos:
            raise ValueError("corrupted PPM/PGM header")
        out.append(int(data[start:pos]))
    return out, pos


def _ppm_load(filename, blob):
    data = _source(filename, blob)
    magic = data[:2]
    if magic not in (b"P2", b"P3", b"P5", b"P6"):
        raise ValueError("unsupported magic number: %s" % magic.decode("latin-1"))
    (width, height, maxval), pos = _ppm_tokens(data, 3, 2)
    channels = 3 if magic in (b"P3", b"P6") else 1
    count = width * height * channels
    if magic in (b"P2", b"P3"):
        values = np.array(data[pos:].split()[:count], dtype=np.int64)
    else:
        pos += 1    # the single blank after maxval
        dtype = np.dtype(">u2") if maxval > 255 else np.dtype(np.uint8)
        values = np.frombuffer(data, dtype, count, pos).astype(np.int64)
    if values.size < count:
        raise ValueError("corrupted PPM/PGM file: %d values for %d" % (values.size, count))
    if maxval != 255:   # image rescaled other ranges to 0..255
        values = values * 255 // maxval
    return np.ascontiguousarray(values.reshape(height, width, channels).transpose(2, 0, 1)
                                .astype(np.uint8)), 8


def _ppm_save(filename, arr):
    a = _to8(arr)
    if a.ndim == 2:
        header = b"P5\n%d %d\n255\n" % (a.shape[1], a.shape[0])
    else:
        header = b"P6\n%d %d\n255\n" % (a.shape[1], a.shape[0])
    try:
        with open(filename, "wb") as f:
            f.write(header + a.tobytes())
    except OSError as exc:
        raise ValueError("cannot open file <%s> for writing (%s)" % (filename, exc.strerror)) from None


def _ppm_size(filename):
    with open(filename, "rb") as f:
        data = f.read(4096)
    if data[:2] not in (b"P2", b"P3", b"P5", b"P6"):
        raise ValueError("unsupported magic number: %s" % data[:2].decode("latin-1"))
    (width, height), _ = _ppm_tokens(data, 2, 2)
    return (3 if data[:2] in (b"P3", b"P6") else 1), height, width


# --- what the Lua side calls: kind is "png", "jpeg" or "ppm" ---

_LOADERS = {"png": _png_load, "jpeg": _jpeg_load, "ppm": _ppm_load}
_SIZERS = {"png": _pil_size, "jpeg": _pil_size, "ppm": _ppm_size}


@export
def img_load(kind, filename, blob):
    """-> (C x H x W array, C, H, W, bit depth) of an image file, or of the bytes in blob."""
    arr, depth = _LOADERS[kind](filename, blob)
    return (arr,) + arr.shape + (depth,)


@export
def img_copy_into(dst, src, shift):
    """dst (a tensor's view) = src, with 16-bit values shifted to 8 bits when `shift`."""
    if shift:
        src = src >> 8
    dst[...] = src


@export
def img_save(kind, filename, arr, quality):
    """Writes arr (0..255 values) to filename; with filename None returns the file's bytes."""
    if kind == "ppm":
        return _ppm_save(filename, arr)
    options = {"quality": int(quality)} if kind == "jpeg" else {}
    return _pil_save(filename, arr, kind.upper(), options)


@export
def img_size(kind, filename):
    """-> channels, height, width of an image file, without decoding it."""
    return _SIZERS[kind](filename)


@export
def img_bytes_into(dst, data):
    """dst (a 1-D ByteTensor view of len(data)) = the bytes of data."""
    dst[...] = data
