"""The page's language: Russian or English, remembered on the device (the ``lang`` cookie), else the
browser's preference, else Russian (English for the API); and the address that switches it."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import flask_babel
from babel import Locale
from flask import redirect, request
from flask_babel import get_locale
from werkzeug.datastructures import LanguageAccept
from werkzeug.http import parse_accept_header
from werkzeug.wrappers import Response as BaseResponse

LANGUAGES = ("ru", "en")

#: Flask-Babel's words as the web layer takes them: the same functions, typed here once (Flask-Babel ships no types,
#: so pyproject.toml's ``ignore_missing_imports`` reads them as ``Any``).
gettext: Callable[..., str] = flask_babel.gettext
ngettext: Callable[..., str] = flask_babel.ngettext


def wants_json() -> bool:
    """True for API requests: they are answered in JSON (errors too), in English unless asked otherwise."""
    return request.path.startswith("/api/")


def select_locale() -> Locale:
    """The language remembered on this device, else the browser's preference, else Russian.

    Its answer is one of the languages' ``Locale`` objects, made once (Flask-Babel would read a code
    into a new one on every request that says a word)."""
    chosen = request.cookies.get("lang")
    if chosen not in LANGUAGES:
        header = request.environ.get("HTTP_ACCEPT_LANGUAGE", "")
        chosen = _preferred(header) if len(header) <= 200 else _preferred.__wrapped__(header)  # keep short ones
    if chosen is None:
        chosen = "en" if wants_json() else "ru"  # scripts get English unless they ask otherwise
    return _LOCALES[chosen]


_LOCALES = {code: Locale.parse(code) for code in LANGUAGES}


@lru_cache(maxsize=256)
def _preferred(header: str) -> str | None:
    """The language an ``Accept-Language`` header prefers of ours (None: neither). A phone sends the same header
    on every request, and reading one takes some 20 µs."""
    return parse_accept_header(header, LanguageAccept).best_match(LANGUAGES) if header else None


def current_language() -> str:
    """The language of the current page."""
    locale = get_locale()
    return locale.language if locale else "ru"


def set_language(code: str) -> BaseResponse:
    """Remember the chosen language on this device and go back."""
    target = request.args.get("next") or request.form.get("next") or "/"
    # Only a path on this site: browsers drop tabs and newlines and read "\\" as "/", so
    # "/\t/evil.example" would otherwise leave as "//evil.example" (an open redirect).
    if (
        not target.startswith("/")
        or target.startswith("//")
        or "\\" in target
        or any(ch.isspace() or not ch.isprintable() for ch in target)
    ):
        target = "/"
    response = redirect(target)
    if code in LANGUAGES:
        response.set_cookie("lang", code, max_age=3 * 365 * 24 * 3600, samesite="Lax", secure=request.is_secure)
    return response
