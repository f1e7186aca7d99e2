"""Drawing on 3 x H x W images for the image package: text and rectangles.

Colours are given as 0..255; a float image receives colour / 255.  Text uses
th's own 5 x 8 bitmap font (th/ops/image_font.py) in 6 x 8 cells, each font
pixel drawn as a size x size block; (x, y) is the 0-based top left corner of
the first cell.  A negative background colour leaves the background as it is.
"""
import numpy as np

from th.ops import export
from th.ops.image_font import CELL_H, CELL_W, glyph


def _colour(img, r, g, b):
    c = np.array([r, g, b], np.float64)
    if img.dtype.kind == "f":
        c = c / 255
    return c[:, None, None]


def _paint(img, mask, y, x, colour):
    """img[:, y:, x:] = colour where mask is set, clipped to the image."""
    h, w = img.shape[1:]
    mh, mw = mask.shape
    y0, x0 = max(y, 0), max(x, 0)
    y1, x1 = min(y + mh, h), min(x + mw, w)
    if y0 >= y1 or x0 >= x1:
        return
    m = mask[y0 - y:y1 - y, x0 - x:x1 - x]
    region = img[:, y0:y1, x0:x1]
    region[...] = np.where(m[None], colour, region)


def _cell(ch, size):
    """The ink mask of one character cell, scaled by size."""
    cell = np.zeros((CELL_H, CELL_W), bool)
    cell[:, :5] = glyph(ch)
    return np.kron(cell, np.ones((size, size), bool))


@export
def img_text(img, text, x, y, size, r, g, b, bg_r, bg_g, bg_b, wrap):
    if img.ndim != 3 or img.shape[0] != 3:
        raise ValueError("image.drawText: the image must be 3 x H x W")
    if isinstance(text, bytes):
        text = text.decode("latin-1")
    size = max(int(size), 1)
    x0, y0 = int(x), int(y)
    width = img.shape[2]
    colour = _colour(img, r, g, b)
    background = None if min(bg_r, bg_g, bg_b) < 0 else _colour(img, bg_r, bg_g, bg_b)
    cx, cy = x0, y0
    full = np.ones((CELL_H * size, CELL_W * size), bool)
    for ch in text:
        if ch == "\n":
            cx, cy = x0, cy + CELL_H * size
            continue
        if wrap and cx + CELL_W * size > width and cx > x0:
            cx, cy = x0, cy + CELL_H * size
        if background is not None:
            _paint(img, full, cy, cx, background)
        _paint(img, _cell(ch, size), cy, cx, colour)
        cx += CELL_W * size


@export
def img_draw_rect(img, x1, y1, x2, y2, line_width, r, g, b):
    """The outline of the rectangle with 1-based inclusive corners (x1, y1), (x2, y2),
    each side line_width pixels thick, centred on the rectangle's edge."""
    if img.ndim != 3 or img.shape[0] != 3:
        raise ValueError("image.drawRect: the image must be 3 x H x W")
    h, w = img.shape[1:]
    x1, y1, x2, y2 = int(x1) - 1, int(y1) - 1, int(x2) - 1, int(y2) - 1
    x1, x2 = min(x1, x2), max(x1, x2)
    y1, y2 = min(y1, y2), max(y1, y2)
    lw = max(int(line_width), 1)
    before, after = (lw - 1) // 2, lw // 2
    mask = np.zeros((h, w), bool)
    rows = slice(max(y1 - before, 0), max(y2 + after + 1, 0))
    cols = slice(max(x1 - before, 0), max(x2 + after + 1, 0))
    for edge in (x1, x2):
        mask[rows, max(edge - before, 0):max(edge + after + 1, 0)] = True
    for edge in (y1, y2):
        mask[max(edge - before, 0):max(edge + after + 1, 0), cols] = True
    _paint(img, mask, 0, 0, _colour(img, r, g, b))
