"""The proxy in front of the app (``KUNKEN_TRUSTED_PROXIES``): its ``X-Forwarded-*`` headers are believed, and
nobody else's.

Behind Caddy (deploy/Caddyfile) every request comes from the proxy's address, over plain http. The proxy says in
``X-Forwarded-For`` which phone asked and in ``X-Forwarded-Proto`` whether it asked over https; the app needs both
(the per-address limits count phones, not the proxy; cookies set over https are ``Secure``). Anyone can send these
headers, though: they are read only on a connection whose socket peer (``REMOTE_ADDR``) is a trusted proxy. From
any other address they are ignored, so a phone on the LAN cannot claim another address or claim https.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import TYPE_CHECKING

from werkzeug.middleware.proxy_fix import ProxyFix

from ..service.background import StartupError

if TYPE_CHECKING:
    from _typeshed.wsgi import StartResponse, WSGIApplication, WSGIEnvironment


def trusted_addresses(setting: object) -> frozenset[str]:
    """The addresses of ``KUNKEN_TRUSTED_PROXIES`` (a comma-separated string, or a list in a test's config), each
    written as ``REMOTE_ADDR`` carries it (``::1``, not ``0:0:…:1``); a ``StartupError`` names a wrong one."""
    if setting is None or setting == "":
        return frozenset()
    entries: Iterable[object] = setting.split(",") if isinstance(setting, str) else setting  # type: ignore[assignment]
    found = set()
    for entry in entries:
        text = str(entry).strip()
        if not text:
            continue
        try:
            found.add(str(ipaddress.ip_address(text)))
        except ValueError:
            raise StartupError(
                f"KUNKEN_TRUSTED_PROXIES: {text!r} is not an IP address. Give the proxy's own addresses, comma-"
                "separated, as the app sees them connect (127.0.0.1 for a Caddy on the same machine)."
            ) from None
    return frozenset(found)


def behind_proxies(wsgi_app: WSGIApplication, addresses: frozenset[str]) -> WSGIApplication:
    """``wsgi_app`` reading ``X-Forwarded-For``, ``-Proto`` and ``-Host`` (one proxy deep: Caddy replaces what a
    client sent in them) on requests from ``addresses`` only; the app unchanged when there are none."""
    if not addresses:
        return wsgi_app
    forwarded = ProxyFix(wsgi_app, x_for=1, x_proto=1, x_host=1)

    def app(environ: WSGIEnvironment, start_response: StartResponse) -> Iterable[bytes]:
        peer = environ.get("REMOTE_ADDR", "")
        chosen = forwarded if _normal(peer) in addresses else wsgi_app
        return chosen(environ, start_response)

    return app


def _normal(address: str) -> str:
    """``address`` written as :func:`trusted_addresses` writes it (an IPv4 address mapped into IPv6 as IPv4)."""
    try:
        parsed = ipaddress.ip_address(address)
    except ValueError:
        return address
    if isinstance(parsed, ipaddress.IPv6Address) and parsed.ipv4_mapped is not None:
        return str(parsed.ipv4_mapped)
    return str(parsed)
