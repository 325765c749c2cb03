#!/usr/bin/env python3
"""Checks a picture written by ppl (heatmap, plot):

  check_picture.py FILE.png WIDTH HEIGHT [RRGGBB ...]
  check_picture.py FILE.png SAME.svg [RRGGBB ...]
      every chunk's CRC, the size (or that of the SVG picture of the same thing), the pixel
      data's length, and that each colour given appears in the picture (a legend's swatch,
      a colour bar's end)
  check_picture.py FILE.svg [TAG=COUNT ...] [label:TEXT ...]
      well-formed XML; how many elements of each tag; a <text> element reading TEXT for each
      label; and for every picture, that no two labels overlap and none leaves the picture
      (a label's box: its x, its textLength wide, 11 pixels tall from 8 above its baseline,
      or that box turned upwards for rotate(-90))

Exits non-zero with a message on the first failure.
"""
import collections
import re
import struct
import sys
import zlib
import xml.etree.ElementTree as ET


def png_pixels(path):
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, chunks = 8, {}
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc, = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])
        assert zlib.crc32(kind + body) == crc, f"bad CRC in {kind}"
        chunks[kind] = body
        pos += 12 + length
    assert b"IEND" in chunks, "no IEND chunk"
    width, height = struct.unpack(">II", chunks[b"IHDR"][:8])
    raw = zlib.decompress(chunks[b"IDAT"])
    assert len(raw) == height * (1 + 3 * width), "pixel data of the wrong length"
    return width, height, raw


def check_png(path, width, height, colours):
    w, h, raw = png_pixels(path)
    assert (w, h) == (width, height), f"{w} x {h}, expected {width} x {height}"
    present = set()
    for y in range(h):
        row = raw[y * (1 + 3 * w) + 1:(y + 1) * (1 + 3 * w)]
        present.update(row[i:i + 3].hex() for i in range(0, len(row), 3))
    for c in colours:
        assert c.lower() in present, f"no pixel of colour #{c}"


def label_box(element):
    """The box a label takes: (left, top, right, bottom)."""
    length = float(element.get("textLength"))
    transform = element.get("transform")
    if transform:
        m = re.fullmatch(r"translate\(([-\d.e]+),([-\d.e]+)\) rotate\(-90\)", transform)
        assert m, f"unexpected transform {transform}"
        x, y = float(m.group(1)), float(m.group(2))
        return (x - 8, y - length, x + 3, y)
    x, y = float(element.get("x")), float(element.get("y"))
    return (x, y - 8, x + length, y + 3)


def check_labels(root, width, height):
    boxes = [(label_box(t), t.text) for t in root if t.tag.split("}")[-1] == "text"]
    for (l, t, r, b), text in boxes:
        assert l >= 0 and t >= 0 and r <= width and b <= height, f"label {text!r} leaves the {width} x {height} picture: {(l, t, r, b)}"
    for i, ((l1, t1, r1, b1), s1) in enumerate(boxes):
        for (l2, t2, r2, b2), s2 in boxes[i + 1:]:
            assert r1 <= l2 or r2 <= l1 or b1 <= t2 or b2 <= t1, f"labels {s1!r} and {s2!r} overlap"


def check_svg(path, counts, labels):
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), root.tag
    found = collections.Counter(child.tag.split("}")[-1] for child in root)
    for tag, count in counts.items():
        assert found[tag] == count, f"{found[tag]} <{tag}> elements, expected {count}"
    texts = [t.text for t in root if t.tag.split("}")[-1] == "text"]
    for label in labels:
        assert label in texts, f"no label {label!r} among {texts}"
    check_labels(root, float(root.get("width")), float(root.get("height")))


def main():
    path = sys.argv[1]
    if path.endswith(".png") and sys.argv[2].endswith(".svg"):
        svg = ET.parse(sys.argv[2]).getroot()
        check_png(path, int(svg.get("width")), int(svg.get("height")), sys.argv[3:])
    elif path.endswith(".png"):
        check_png(path, int(sys.argv[2]), int(sys.argv[3]), sys.argv[4:])
    else:
        args = sys.argv[2:]
        counts = {k: int(v) for k, v in (a.split("=", 1) for a in args if not a.startswith("label:"))}
        check_svg(path, counts, [a[len("label:"):] for a in args if a.startswith("label:")])


if __name__ == "__main__":
    main()
