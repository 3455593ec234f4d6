"""The headers every response carries: the Content-Security-Policy (with the inline base stylesheet it
allows by hash), framing, sniffing, referrer, and ``no-store`` for a response that carries a token."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from flask import g
from markupsafe import Markup

from .paths import ROOT


def inline_css(text: str) -> str:
    """A stylesheet as a page carries it in its ``<style>``: without a byte order mark, comments, indents
    and blank lines."""
    text = text.removeprefix("\ufeff")
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.DOTALL)
    return "\n".join(line.strip() for line in text.splitlines() if line.strip())


#: What every page needs (``static/base.css``), inline in each page's head: the session page needs no
#: other stylesheet, so a phone paints the scores without fetching one first. Read when the app is
#: imported (an edit shows after a restart; ``flask --debug`` reloads on Python files only).
BASE_CSS = Markup(inline_css((ROOT / "static" / "base.css").read_text(encoding="utf-8")))
#: The one Content-Security-Policy of every response: this server's own scripts, styles and images
#: only (no inline script, no style attribute, and no ``<style>`` but the one with BASE_CSS, allowed by
#: its hash), no plugins, forms posting home, and never inside a frame.
CSP = (
    "default-src 'self'; script-src 'self'; "
    f"style-src 'self' 'sha256-{base64.b64encode(hashlib.sha256(BASE_CSS.encode()).digest()).decode()}'; "
    "img-src 'self'; connect-src 'self'; font-src 'self'; manifest-src 'self'; object-src 'none'; "
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
#: Cookies that carry a token: a response setting one is never stored by a cache or the browser.
TOKEN_COOKIES = ("kunken_edit_", "kunken_seat_", "kunken_night_")


def no_store() -> None:
    """Mark the response to this request as carrying a token: ``Cache-Control: no-store``."""
    g.no_store = True


def security_headers(response: Any) -> Any:
    """The headers every response carries, set in this one place."""
    headers = response.headers
    headers["Content-Security-Policy"] = CSP
    headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    cookies = headers.getlist("Set-Cookie")
    if g.get("no_store") or any(c.startswith(TOKEN_COOKIES) for c in cookies):
        headers["Cache-Control"] = "no-store"
    return response
