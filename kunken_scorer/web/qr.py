"""Join links: the address other phones can reach, and QR codes for it (SVG, or text for a terminal)."""

from __future__ import annotations

import io
import ipaddress
import re
import socket

import qrcode
import qrcode.image.svg


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
        import fcntl
        import struct
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


def qr_svg(url: str, label: str = "QR code") -> str:
    """An SVG QR code for ``url`` (sized by CSS: the fixed millimetre size is removed)."""
    image = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, border=2)
    svg = image.to_string(encoding="unicode")
    svg = re.sub(r'\s(width|height)="[^"]*mm"', "", svg, count=2)
    label = label.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;")
    return svg.replace("<svg ", f'<svg role="img" aria-label="{label}" class="qr" ', 1)


def qr_text(url: str) -> str:
    """The QR code for ``url`` drawn with text blocks, for a terminal."""
    qr = qrcode.QRCode(border=1)
    qr.add_data(url)
    out = io.StringIO()
    qr.print_ascii(out=out, invert=True)
    return out.getvalue()
