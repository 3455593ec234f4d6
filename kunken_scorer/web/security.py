"""The headers every response carries: the Content-Security-Policy (with the inline base stylesheet it
allows by hash), framing, sniffing, referrer, ``no-store`` for a response that carries a token, ``Vary`` on
what picks the language, and ``Secure`` on every cookie set over https."""

from __future__ import annotations

import base64
import hashlib
import re
from typing import Any

from flask import Flask, g, request
from flask.sessions import SecureCookieSessionInterface
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


#: What answers the same to every phone whatever its language: the static files and the service worker.
SAME_IN_EVERY_LANGUAGE = frozenset({"static", "service_worker"})


class SessionOverHttps(SecureCookieSessionInterface):
    """Flask's session cookie (it carries the CSRF token), ``Secure`` under https. Flask's ``SESSION_COOKIE_SECURE``
    is one setting for every request; the same server answers the LAN over http and the proxy's phones over https.
    Flask sets this cookie after every ``after_request`` function, so ``secure_cookies`` does not see it."""

    def get_cookie_secure(self, app: Flask) -> bool:
        return request.is_secure or super().get_cookie_secure(app)


def secure_cookies(headers: Any) -> None:
    """Under https (the request's own, or a trusted proxy's ``X-Forwarded-Proto``: web/proxies.py) every cookie
    the app's own code sets is ``Secure``, whichever part of it set it (the language, a token, a deleted seat, a
    member's pass): one place, so that a cookie added later cannot go back over plain http by mistake."""
    cookies = headers.getlist("Set-Cookie")
    if not cookies:
        return
    headers.setlist("Set-Cookie", [cookie if _is_secure(cookie) else cookie + "; Secure" for cookie in cookies])


def _is_secure(cookie: str) -> bool:
    return any(part.strip().lower() == "secure" for part in cookie.split(";")[1:])


def security_headers(response: Any) -> Any:
    """The headers every response carries, set in this one place."""
    headers = response.headers
    if request.is_secure:
        secure_cookies(headers)
    if request.endpoint not in SAME_IN_EVERY_LANGUAGE:
        # a page (and an API answer, its messages) is in the language of the lang cookie, else of Accept-Language
        # (web/languages.py): a cache must keep one copy per language, never hand a Russian page to an English phone
        response.vary.add("Cookie")
        response.vary.add("Accept-Language")
    headers["Content-Security-Policy"] = CSP
    headers["X-Frame-Options"] = "DENY"
    headers["X-Content-Type-Options"] = "nosniff"
    headers["Referrer-Policy"] = "no-referrer"
    cookies = headers.getlist("Set-Cookie")
    if g.get("no_store") or any(c.startswith(TOKEN_COOKIES) for c in cookies):
        headers["Cache-Control"] = "no-store"
    return response
