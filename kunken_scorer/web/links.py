"""The links other phones open: the base URL they can reach (never taken from a raw Host header), a seat's
one-time move link, and a link as a QR code to scan."""

from __future__ import annotations

import time
from functools import lru_cache

from flask import current_app, request, url_for
from markupsafe import Markup

from ..qrcodes import lan_address, qr_svg


def public_base_url() -> str:
    """The base URL other phones can reach, never taken from a raw Host header.

    ``KUNKEN_PUBLIC_URL`` when set; else the Host header when ``KUNKEN_TRUSTED_HOSTS`` lists it
    (Flask refuses any other host then); else the machine's LAN address and the port served on.
    """
    configured = current_app.config.get("PUBLIC_URL")
    if configured:
        return str(configured).rstrip("/")
    if current_app.config.get("TRUSTED_HOSTS"):
        return f"{request.scheme}://{request.host}"  # checked against the list by Flask
    port = request.environ.get("SERVER_PORT", "")
    default = "443" if request.scheme == "https" else "80"
    host = _lan_address(int(time.monotonic() // 60)) + (f":{port}" if port and port != default else "")
    return f"{request.scheme}://{host}"


@lru_cache(maxsize=1)
def _lan_address(_minute: int) -> str:
    """The LAN address, looked up at most once a minute (it changes only when the network does)."""
    return lan_address()


def move_url(sid: str, link: str) -> str:
    """The one-time link that moves a seat to the phone opening it (its secret is the store's ``link``)."""
    return public_base_url() + url_for("seats.move_link", sid=sid, link=link)


def qr_code(url: str, label: str) -> Markup:
    """``url`` as an inline SVG QR code that a screen reader names ``label`` (a template global: its words come
    escaped by Jinja, and are escaped once, by ``qr_svg``)."""
    return _qr_code(url, label.unescape() if isinstance(label, Markup) else label)


@lru_cache(maxsize=256)
def _qr_code(url: str, label: str) -> Markup:
    return Markup(qr_svg(url, label))  # each drawn once: the session page shows one on every render
