"""Join links: the address other phones can reach, and QR codes for it (SVG, or text for a terminal)."""

from __future__ import annotations

import ipaddress
import socket

import qrcode


def lan_address() -> str:
    """This machine's LAN IPv4 address (not loopback), or 127.0.0.1 when it has none."""
    candidates = []
    try:
        candidates += socket.gethostbyname_ex(socket.gethostname())[2]
    except OSError:
        pass
    candidates += _interface_addresses()
    for address in candidates:
        ip = ipaddress.ip_address(address)
        if not ip.is_loopback and not ip.is_link_local and not ip.is_unspecified:
            return address
    return "127.0.0.1"


def _interface_addresses() -> list[str]:
    """IPv4 addresses of the network interfaces (Linux), read without sending anything."""
    try:
        # noqa reason: fcntl is Unix only, and the ImportError below is how other systems are told apart
        import fcntl  # noqa: PLC0415
        import struct  # noqa: PLC0415
    except ImportError:  # not on Linux/Unix
        return []
    found = []
    for _, name in socket.if_nameindex():
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            try:
                packed = fcntl.ioctl(s.fileno(), 0x8915, struct.pack("256s", name[:15].encode()))  # SIOCGIFADDR
            except OSError:
                continue
            found.append(socket.inet_ntoa(packed[20:24]))
    return found


def qr_modules(url: str) -> list[list[bool]]:
    """The QR code's modules for ``url``, row by row, with a quiet border of two modules."""
    qr = qrcode.QRCode(border=2)
    qr.add_data(url)
    qr.make(fit=True)
    modules: list[list[bool]] = qr.get_matrix()
    return modules


def qr_svg(url: str, label: str = "QR code") -> str:
    """An SVG QR code for ``url``, sized by CSS: one path of the dark runs of each row, in module units.

    About a third of the size of qrcode's own SVG (whose coordinates are millimetres with decimals).

    >>> svg = qr_svg("http://192.0.2.7:8000/s/abc")
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="QR code" class="qr"')
    True
    """
    modules = qr_modules(url)
    size = len(modules)
    runs = []
    for y, row in enumerate(modules):
        x = 0
        while x < size:
            if not row[x]:
                x += 1
                continue
            start = x
            while x < size and row[x]:
                x += 1
            runs.append(f"M{start} {y}h{x - start}v1h-{x - start}z")
    label = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" class="qr" '
        f'viewBox="0 0 {size} {size}" shape-rendering="crispEdges"><path d="{"".join(runs)}"/></svg>'
    )


#: ANSI colours of the terminal QR code: black modules on a white ground whatever the terminal's theme
_DARK_FG, _LIGHT_FG, _DARK_BG, _LIGHT_BG = "30", "97", "40", "107"


def qr_text(url: str) -> str:
    """The QR code for ``url`` for a terminal: two module rows per line (▀, its top in the text colour,
    its bottom in the background colour), both colours set, so it scans on a light or a dark terminal.

    >>> lines = qr_text("http://192.0.2.7:8000/").splitlines()
    >>> all(line.endswith("\x1b[0m") for line in lines) and any("\x1b[30;107m▀" in line for line in lines)
    True
    """
    rows = qr_modules(url)
    border = [[False] * (len(rows[0]) + 4)] * 2
    rows = border + [[False, False, *row, False, False] for row in rows] + border  # a wider quiet zone
    if len(rows) % 2:
        rows.append([False] * len(rows[0]))
    lines = []
    for top, bottom in zip(rows[::2], rows[1::2], strict=True):
        cells = "".join(
            f"\x1b[{_DARK_FG if t else _LIGHT_FG};{_DARK_BG if b else _LIGHT_BG}m▀"
            for t, b in zip(top, bottom, strict=True)
        )
        lines.append(cells + "\x1b[0m")
    return "\n".join(lines)
