# SPDX-License-Identifier: Apache-2.0
"""A PNG reader for the profile tests (8-bit RGB or RGBA, no interlace): no
dependency beyond Python. read_png(path) -> (width, height, pixels, text),
pixels a list of 'rrggbb' strings row by row, text the tEXt chunks."""
import struct
import zlib


def read_png(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "%s is not a PNG" % path
    pos, idat, w, h, bpp, text = 8, b"", 0, 0, 3, {}
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
            assert depth == 8 and ctype in (2, 6) and not interlace, \
                "%s: want 8-bit RGB or RGBA, not interlaced" % path
            bpp = 3 if ctype == 2 else 4
        elif kind == b"tEXt":
            key, _, value = body.partition(b"\0")
            text[key.decode("latin-1")] = value.decode("latin-1")
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw, stride = zlib.decompress(idat), w * bpp
    prev, px = bytearray(stride), []
    for y in range(h):
        f = raw[y * (stride + 1)]
        row = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                row[i] = (row[i] + row[i - bpp]) & 255
        elif f == 2:
            row = bytearray((a + b) & 255 for a, b in zip(row, prev))
        elif f == 3:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                row[i] = (row[i] + (a + prev[i]) // 2) & 255
        elif f == 4:
            for i in range(stride):
                a = row[i - bpp] if i >= bpp else 0
                b, c = prev[i], prev[i - bpp] if i >= bpp else 0
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                row[i] = (row[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        hexrow = bytes(row).hex()
        px += [hexrow[i:i + 6] for i in range(0, 2 * stride, 2 * bpp)]
        prev = row
    return w, h, px, text


def map_region(path):
    """The map's pixels of a --profile-map picture (its nplus1-map tEXt chunk
    says where), the picture's size and that chunk's fields."""
    w, h, px, text = read_png(path)
    meta = dict(kv.split("=") for kv in text["nplus1-map"].split())
    x0, y0, mw, mh = (int(meta[k]) for k in ("x", "y", "w", "h"))
    region = [px[y * w + x] for y in range(y0, y0 + mh) for x in range(x0, x0 + mw)]
    return (w, h), region, meta, px
