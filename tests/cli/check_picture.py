#!/usr/bin/env python3
"""Checks a picture written by ppl (heatmap, plot) is a valid file:

  check_picture.py FILE.png WIDTH HEIGHT       every chunk's CRC, the size, the pixel data's length
  check_picture.py FILE.svg TAG=COUNT ...      well-formed XML; how many elements of each tag

Exits non-zero with a message on the first failure.
"""
import collections
import struct
import sys
import zlib
import xml.etree.ElementTree as ET


def check_png(path, width, height):
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
    size = struct.unpack(">II", chunks[b"IHDR"][:8])
    assert size == (width, height), size
    assert len(zlib.decompress(chunks[b"IDAT"])) == height * (1 + 3 * width)


def check_svg(path, expected):
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg"), root.tag
    counts = collections.Counter(child.tag.split("}")[-1] for child in root)
    for tag, count in expected.items():
        assert counts[tag] == count, f"{counts[tag]} <{tag}> elements, expected {count}"


def main():
    path = sys.argv[1]
    if path.endswith(".png"):
        check_png(path, int(sys.argv[2]), int(sys.argv[3]))
    else:
        check_svg(path, {k: int(v) for k, v in (a.split("=") for a in sys.argv[2:])})


if __name__ == "__main__":
    main()
