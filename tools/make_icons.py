"""Draw the app icons (a white spade on green) as PNG files with the standard library only.

Run once: ``python tools/make_icons.py``; the PNGs are committed in static/icons/.
"""

import struct
import zlib
from pathlib import Path

GREEN = (11, 110, 79)
WHITE = (255, 255, 255)


def inside_spade(x: float, y: float) -> bool:
    """True where (x, y) in the unit square lies inside the spade shape."""
    # two lobes, a point at the top, a stem at the bottom
    lobe = (x - 0.36) ** 2 + (y - 0.56) ** 2 < 0.018 or (x - 0.64) ** 2 + (y - 0.56) ** 2 < 0.018
    top = 0.2 < y < 0.6 and abs(x - 0.5) < (y - 0.2) * 0.62
    stem = 0.55 < y < 0.82 and abs(x - 0.5) < 0.04 + (y - 0.55) * 0.35
    return lobe or top or stem


def png(size: int) -> bytes:
    """A size×size RGB PNG of the icon."""
    rows = []
    for j in range(size):
        row = bytearray([0])
        for i in range(size):
            row += bytes(WHITE if inside_spade((i + 0.5) / size, (j + 0.5) / size) else GREEN)
        rows.append(bytes(row))
    raw = zlib.compress(b"".join(rows), 9)

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", raw) + chunk(b"IEND", b"")


if __name__ == "__main__":
    out = Path(__file__).resolve().parent.parent / "static" / "icons"
    out.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        (out / f"icon-{size}.png").write_bytes(png(size))
