"""The Flask app factory: configuration, the store per request, languages, CSRF and error pages.

Configuration, in order: defaults -> environment variables prefixed ``KUNKEN_`` ->
``test_config``. Without any, the SQLite file and a generated secret key live in
``instance/`` (the key is created on first run and kept there, never a constant in code).
"""

from __future__ import annotations

import base64
import functools
import hashlib
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from babel import Locale
from flask import (
    Flask,
    abort,
    current_app,
    flash,
    g,
    jsonify,
    redirect,
    render_template,
    request,
    send_from_directory,
    url_for,
)
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel, get_locale, get_translations, gettext, lazy_gettext
from flask_wtf.csrf import CSRFError, CSRFProtect
from markupsafe import Markup
from werkzeug.datastructures import LanguageAccept
from werkzeug.exceptions import BadHost, HTTPException, SecurityError, TooManyRequests
from werkzeug.exceptions import NotFound as PageNotFound
from werkzeug.http import parse_accept_header

from ..melds import on_table
from ..messages import Reason, render
from ..notation import in_russian_notation, vist_line
from ..rules import SWITCHES, RuleSet
from ..store import NotFound, SessionEnded, StorageUnavailable, Store, StoreError

ROOT = Path(__file__).resolve().parent.parent.parent  # the repository: templates/, static/, translations/
LANGUAGES = ("ru", "en")
#: The games' names in the page language (one place for every page and form).
GAME_NAMES = {"kunken": lazy_gettext("Kunken"), "ordered-rummy": lazy_gettext("Ordered rummy")}
#: How long a scorer's phone keeps its edit token (browsers cap cookies at 400 days).
SCORER_COOKIE_AGE = 365 * 24 * 3600


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
TOKEN_COOKIES = ("kunken_edit_", "kunken_seat_")
csrf = CSRFProtect()
babel = Babel()


class StartupError(RuntimeError):
    """The app cannot start (a database path it cannot open, an instance folder it cannot write)."""


def game_name(game: str) -> str:
    """A game's name in the page's language."""
    return str(GAME_NAMES.get(game, game))


def _secret_key(instance: Path) -> str:
    """Read the instance's secret key, creating it (owner-only) on first run."""
    path = instance / "secret_key"
    if not path.exists():
        instance.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_hex(32))
    return path.read_text().strip()


def configuration(test_config: dict | None = None) -> Any:
    """The settings alone (defaults, ``KUNKEN_*``, ``test_config``), with nothing opened or created."""
    return _new_app(test_config).config


def _new_app(test_config: dict | None = None) -> Flask:
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(ROOT / "instance"),
        instance_relative_config=True,
    )
    app.config.from_mapping(
        DATABASE=str(Path(app.instance_path) / "kunken.db"),
        PUBLIC_URL=None,
        MAX_CONTENT_LENGTH=256 * 1024,
        # an exported session sent back: 2,000 deals (exports.MAX_DEALS) as the download writes them are 2.5 MB
        IMPORT_MAX_CONTENT_LENGTH=4 * 1024 * 1024,
        WTF_CSRF_TIME_LIMIT=None,  # a scorer's page stays open all evening
        BABEL_DEFAULT_LOCALE="ru",
        BABEL_TRANSLATION_DIRECTORIES=str(ROOT / "translations"),
        SESSION_COOKIE_SAMESITE="Lax",
        JSON_AS_ASCII=False,
        CREATE_LIMIT=120,  # sessions created or imported per address and minute; 0: no limit
        DATABASE_MAX_MB=0,  # 0: no cap on the database file's size
    )
    app.config.from_prefixed_env("KUNKEN")
    if test_config:
        app.config.update(test_config)
    trusted = app.config.get("TRUSTED_HOSTS")
    if isinstance(trusted, str):  # KUNKEN_TRUSTED_HOSTS="scores.example.org,192.168.1.20:8000"
        app.config["TRUSTED_HOSTS"] = [h.strip() for h in trusted.split(",") if h.strip()] or None
    return app


def create_app(test_config: dict | None = None) -> Flask:
    """Build the app: defaults, then ``KUNKEN_*`` environment variables, then ``test_config``."""
    app = _new_app(test_config)
    stale = stale_catalogs(app.config["BABEL_TRANSLATION_DIRECTORIES"])
    if stale:  # the pages would be in English without a word: say what to do instead
        raise StartupError(
            f"the message catalog {stale[0].with_suffix('.mo')} is missing or older than its .po; "
            "run `make catalogs` (make run does it) and start again"
        )
    try:
        if not app.config.get("SECRET_KEY"):
            app.config["SECRET_KEY"] = _secret_key(Path(app.instance_path))
    except OSError as err:
        raise StartupError(f"cannot keep the secret key in {app.instance_path}: {err.strerror or err}") from None
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own: the app sets no other json_provider_class
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    database = str(app.config["DATABASE"])
    try:
        Path(database).parent.mkdir(parents=True, exist_ok=True)
        Store.open(database).close()  # WAL and migrations once, at start-up
    except (OSError, sqlite3.Error, StorageUnavailable) as err:
        why = getattr(err, "strerror", None) or str(err)
        raise StartupError(f"cannot open the database {database}: {why}") from None

    app.before_request(_import_limit)  # before the CSRF check, which reads the form
    csrf.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    # the templates' _() and ngettext() read the request's catalog once (Flask-Babel's look it up on every call)
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]  # added by the i18n extension
        gettext=lambda s: page_translations().ugettext(s),
        ngettext=lambda s, p, n: page_translations().ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: page_translations().upgettext(c, s),
        npgettext=lambda c, s, p, n: page_translations().unpgettext(c, s, p, n),
    )
    app.teardown_appcontext(_close_store)
    app.jinja_env.globals.update(
        reason_text=reason_text,
        BASE_CSS=BASE_CSS,
        LANGUAGES=LANGUAGES,
        current_language=current_language,
        rule_lines=rule_lines,
        switch_ref=switch_ref,
        switch_word=switch_word,
        vist_line=vist_line,
    )
    app.jinja_env.filters["minus"] = minus_sign
    app.jinja_env.filters["laid"] = on_table
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    from . import api, desk, seats, summary, views

    app.register_blueprint(views.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(desk.bp)
    app.register_blueprint(summary.bp)
    csrf.exempt(api.bp)

    app.add_url_rule("/lang/<code>", "set_language", set_language, methods=["POST", "GET"])
    app.add_url_rule("/manifest.webmanifest", "manifest", manifest)
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    app.register_error_handler(HTTPException, _http_error)
    app.register_error_handler(CSRFError, _csrf_error)
    app.register_error_handler(NotFound, _not_found)  # the API answers it as JSON (api._not_found)
    app.register_error_handler(SessionEnded, refuse_ended)  # the API answers it as JSON (api._ended)
    app.register_error_handler(StorageUnavailable, _storage_error)
    app.register_error_handler(sqlite3.Error, lambda err: _storage_error(StorageUnavailable.from_error(err)))
    app.after_request(security_headers)
    app.wsgi_app = _browser_query(app.wsgi_app)  # type: ignore[method-assign]
    _refresh_stale_stats_at_start(app, database)
    return app


_RAW_BYTE = re.compile(rb"[\x80-\xff]")


def _browser_query(wsgi_app: Callable) -> Callable:
    r"""The app with a query string's raw bytes past ASCII percent-encoded, as a browser sends them.
    A script may send them raw (``?x=\xed``); Werkzeug reads a raw byte that is no UTF-8 as an error,
    which every page would have answered with a 500."""

    def app(environ: dict, start_response: Callable) -> Iterable[bytes]:
        query = environ.get("QUERY_STRING", "")
        if not query.isascii():
            try:
                raw = query.encode("latin-1")  # PEP 3333: the bytes as latin-1 text
            except UnicodeEncodeError:  # a server that passed text, not bytes
                raw = query.encode("utf-8")
            environ["QUERY_STRING"] = _RAW_BYTE.sub(lambda m: b"%%%02X" % m[0][0], raw).decode("ascii")
        return wsgi_app(environ, start_response)

    return app


def _refresh_stale_stats_at_start(app: Flask, database: str) -> None:
    """Statistics of sessions changed before a crash (or by a migration), on a connection of its own.

    A file that cannot be written now (read-only, full) is not a reason not to start: the
    statistics are worked out again at the next look at /players.
    """
    from ..service import stats_stale_in

    try:
        stale = stats_stale_in(database)
    except StorageUnavailable as err:
        raise StartupError(f"cannot read the database {database}: {err}") from None
    if not stale:
        return
    if app.testing:
        _refresh_all_stats(app, database)
    else:  # many sessions (an upgraded database) take a while: the server answers meanwhile
        threading.Thread(target=_refresh_all_stats, args=(app, database), name="kunken-stats", daemon=True).start()


def _refresh_all_stats(app: Flask, database: str) -> None:
    from ..service import refresh_stale_stats_in

    try:
        refresh_stale_stats_in(database)
    except (sqlite3.Error, StoreError) as err:
        app.logger.warning("player statistics not brought up to date at start: %s", err)


#: The addresses that take an exported session back: their own limit on a body (``IMPORT_MAX_CONTENT_LENGTH``).
IMPORTS = frozenset({"summary.import_page", "api.import_session"})


def _import_limit() -> None:
    """An import may send a long evening's export: a larger body than any other request."""
    if request.endpoint in IMPORTS:
        request.max_content_length = current_app.config["IMPORT_MAX_CONTENT_LENGTH"]


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


def stale_catalogs(directories: str | Path) -> list[Path]:
    """Each ``messages.po`` whose compiled ``.mo`` is missing or older (``make catalogs`` compiles them).

    ``directories`` is Flask-Babel's ``BABEL_TRANSLATION_DIRECTORIES`` (paths separated by ``;``).
    The app only reads the catalogs: nothing is compiled or written at start-up.
    """
    stale = []
    for directory in str(directories).split(";"):
        for po in sorted(Path(directory).glob("*/LC_MESSAGES/messages.po")):
            mo = po.with_suffix(".mo")
            if not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime:
                stale.append(po)
    return stale


def get_store() -> Store:
    """The request's store: this thread's kept connection to the database file (``Store.kept``); a missing
    file is ``StorageUnavailable`` (503)."""
    if "store" not in g:
        max_bytes = int(current_app.config.get("DATABASE_MAX_MB") or 0) * 1024 * 1024
        g.store = Store.kept(current_app.config["DATABASE"], max_bytes=max_bytes)
    return g.store


def _close_store(_exc: Any = None) -> None:
    """End of a request: the thread keeps its connection, with no transaction left open."""
    store = g.pop("store", None)
    if store is not None:
        if store.db.conn.in_transaction:
            store.db.conn.rollback()
        if g.pop("storage_fault", False) or not os.access(current_app.config["DATABASE"], os.W_OK):
            # SQLite shares one handle of the -shm file between a process's connections: one kept
            # open while the file is read-only would keep every later connection read-only too.
            Store.drop_kept()


# -- who may edit --------------------------------------------------------------------------


def scorer_cookie(session_id: str) -> str:
    """The cookie that keeps a scorer's edit token on their device."""
    return f"kunken_edit_{session_id}"


def set_scorer_cookie(response: Any, session_id: str, token: str) -> Any:
    """Make this device the session's scorer: keep the edit token in an httponly cookie; the response."""
    return _token_cookie(response, scorer_cookie(session_id), token, "/")


def _token_cookie(response: Any, name: str, value: str, path: str) -> Any:
    response.set_cookie(
        name, value, max_age=SCORER_COOKIE_AGE, httponly=True, samesite="Lax", secure=request.is_secure, path=path
    )
    return response


def edit_token(session_id: str) -> str | None:
    """The edit token this request carries: a Bearer header or the scorer cookie."""
    if request.headers.get("Authorization", "").strip().partition(" ")[0].lower() == "bearer":
        return bearer_token()
    return request.cookies.get(scorer_cookie(session_id))


def can_edit(session_id: str) -> bool:
    """True when this request carries the session's edit token."""
    return get_store().check_token(session_id, edit_token(session_id))


def bearer_token() -> str | None:
    """The token of an ``Authorization: Bearer`` header, or None."""
    scheme, _, token = request.headers.get("Authorization", "").strip().partition(" ")
    return token.strip() or None if scheme.lower() == "bearer" else None


def scorer_session(sid: str, open_only: bool = False) -> dict:
    """The session, read once, for its scorer only (and, with ``open_only``, only while it has not ended).

    An unknown session is a 404. A page wants the scorer's cookie (or a Bearer token) and answers
    403 without it; the API takes only a Bearer token (a cross-site form cannot send one): 401
    without any, 403 with another session's.
    """
    api = request.blueprint == "api"
    token = bearer_token() if api else edit_token(sid)
    session, scorer = get_store().session_for(sid, token)  # NotFound: the 404 of the page or the API
    if not scorer:
        if api and token is None:
            abort(
                401,
                description=gettext(
                    "Changing a score sheet needs its edit token: send the header “Authorization: Bearer <edit_token>”."
                ),
            )
        abort(
            403,
            description=gettext("This edit token does not belong to this score sheet.")
            if api
            else gettext("Only the scorer's phone can change this session. Ask the scorer for the scorer link."),
        )
    if open_only and session["ended_at"]:
        raise SessionEnded()  # said before the store is asked to write (a read-only file would answer first)
    return session


def scorer_required(view: Callable, open_only: bool = False) -> Callable:
    """Run ``view`` only for the session's scorer (``scorer_session``), passing the session as ``session``."""

    @functools.wraps(view)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        return view(*args, session=scorer_session(kwargs["sid"], open_only), **kwargs)

    return wrapper


def change_required(view: Callable) -> Callable:
    """``scorer_required`` for a view that changes the session: once the scorer is known, an ended session
    is turned away before the view runs."""
    return scorer_required(view, open_only=True)


def seat_cookie(session_id: str) -> str:
    """The cookie that says which seat of the session this phone holds: ``<seat>.<seat token>``."""
    return f"kunken_seat_{session_id}"


def set_seat_cookie(response: Any, session_id: str, seat: int, token: str) -> Any:
    """Let this phone hold ``seat``: an httponly cookie sent only to the session's own pages; the response."""
    return _token_cookie(response, seat_cookie(session_id), f"{seat}.{token}", f"/s/{session_id}")


def seat_claim(session_id: str) -> tuple[int | None, str | None]:
    """(seat, token) this phone's seat cookie names, held or not; (None, None) without one."""
    seat, _, token = request.cookies.get(seat_cookie(session_id), "").partition(".")
    if not (seat.isascii() and seat.isdigit()) or len(seat) > 3 or not token:  # "²" is a digit int() refuses
        return None, None
    return int(seat), token


def held_seat(session_id: str) -> int | None:
    """The seat this phone holds in the session (its cookie still the seat's), or None."""
    seat, token = seat_claim(session_id)
    if seat is None or get_store().seat_of(session_id, token) != seat:
        return None
    return seat


def go_to(endpoint: str, message: str | None = None, category: str = "ok", **values: Any) -> Any:
    """A 303 to ``endpoint``, the page after a form; ``message`` is shown there once."""
    if message:
        flash(message, category)
    return redirect(url_for(endpoint, **values), 303)


def deal_saved(number: int | None, created: bool) -> str:
    """What a phone is told after saving deal ``number`` (``created`` False: a repeated form stored nothing;
    ``number`` None: the deal it stored has since been undone or deleted)."""
    if created:
        return gettext("Deal %(n)s saved.", n=number)
    if number is None:
        return gettext(
            "This form's deal was saved before and has since been undone or deleted; it was not saved again."
        )
    return gettext("Deal %(n)s was already saved; it was not recorded twice.", n=number)


def refuse_ended(_error: SessionEnded | None = None) -> Any:
    """Turn a write on an ended session away, with a message on its page (also the pages' SessionEnded handler)."""
    message = gettext("This session has ended: it can be read but no longer changed.")
    if request.headers.get("X-Kunken-Keep"):  # a Save a phone kept and sends again: it keeps the deal on a refusal
        return _error_response(409, message)
    flash(message, "error")
    sid = (request.view_args or {}).get("sid")
    return redirect(url_for("views.session", sid=sid) if sid else url_for("views.home"), 303)


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


def creation_allowed() -> None:
    """429 when this address has started too many sessions in the last minute (``KUNKEN_CREATE_LIMIT``)."""
    limit = int(current_app.config.get("CREATE_LIMIT") or 0)
    if limit <= 0:
        return
    if not get_store().allow_creation(request.remote_addr or "unknown", limit):
        raise TooManyRequests(
            gettext(
                "Too many sessions were started or imported from this address in the last "
                "minute (at most %(n)s). Nothing was created; wait a minute and try again.",
                n=limit,
            ),
            retry_after=60,
        )


@lru_cache(maxsize=1)
def _lan_address(_minute: int) -> str:
    """The LAN address, looked up at most once a minute (it changes only when the network does)."""
    from ..qrcodes import lan_address

    return lan_address()


# -- languages -----------------------------------------------------------------------------


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


def page_translations() -> Any:
    """The catalog of the request's language, looked up once per request (a request never changes its
    language: ``set_language`` answers with a redirect, and nothing uses ``force_locale`` or ``refresh``).

    It pays: the players page renders 1.1–1.2× slower with Flask-Babel's lookup on every ``_()``
    (benchmarks/bench_tricks.py, page_translations)."""
    try:
        kept = g.get("translations")
    except RuntimeError:  # no app context: Flask-Babel's own answer (English)
        return get_translations()
    if kept is None:
        kept = g.translations = get_translations()
    return kept


def current_language() -> str:
    """The language of the current page."""
    locale = get_locale()
    return locale.language if locale else "ru"


def reason_text(reason: Reason) -> str:
    """A reason or problem as a sentence in the page's language and card notation.

    Its words come from the request's one catalog (``page_translations``), as the templates' do:
    20 reasons in a request took 971 µs in Russian and 405 µs in English through Flask-Babel's
    lookup on every word, 216 and 141 µs this way."""
    if current_language() == "ru":
        reason = in_russian_notation(reason)
    catalog = page_translations()
    return render(reason, catalog.ugettext, catalog.ungettext)


def minus_sign(value: Any) -> str:
    """A number as a page prints it: negative with a true minus sign (−20), as "+35 −20" beside it."""
    return str(value).replace("-", "\u2212")


def switch_ref(name: str) -> Markup:
    """A switch named in running text: its label in quotes, linked to its row of the rules in force."""
    quotes = "«»" if current_language() == "ru" else "“”"
    return Markup('<a class="switch-ref" href="#switch-{}">{}{}{}</a>').format(
        name, quotes[0], gettext(SWITCHES[name].label), quotes[1]
    )


def switch_word(name: str, value: str) -> str:
    """The words for one named value of a switch (``switch_word("joker_limit", "two")``)."""
    return gettext(SWITCHES[name].words[value])


@dataclass(frozen=True)
class RuleLine:
    """One house-rule switch as a page shows it: its label, help, value and the preset's value, in words."""

    name: str
    label: str
    help: str | None
    value: str
    preset: str
    differs: bool


def rule_lines(rules: RuleSet, names: Iterable[str]) -> list[RuleLine]:
    """The switches ``names`` of ``rules`` in the page's language (every page reads ``rules.SWITCHES`` here)."""
    preset = RuleSet.preset(rules.game)
    lines = []
    for name in names:
        switch, value, default = SWITCHES[name], getattr(rules, name), getattr(preset, name)
        lines.append(
            RuleLine(
                name,
                gettext(switch.label),
                gettext(switch.help) if switch.help else None,
                reason_text(switch.describe(value)),
                reason_text(switch.describe(default)),
                value != default,
            )
        )
    return lines


def set_language(code: str):
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
        response.set_cookie("lang", code, max_age=3 * 365 * 24 * 3600, samesite="Lax")
    return response


def service_worker():
    """The service worker (``static/sw.js``), served from the root so that it may keep every page of the app."""
    response = send_from_directory(ROOT / "static", "sw.js", mimetype="text/javascript", max_age=0)
    response.headers["Cache-Control"] = "no-cache"  # a new version reaches the phones at their next visit
    return response


def manifest():
    """The web app manifest (install on a phone's home screen), in the page language."""
    response = current_app.response_class(render_template("manifest.webmanifest"), mimetype="application/manifest+json")
    response.vary.add("Accept-Language")
    response.vary.add("Cookie")
    return response


# -- errors --------------------------------------------------------------------------------


def wants_json() -> bool:
    """True for API requests: errors are answered as JSON there."""
    return request.path.startswith("/api/")


def _error_response(code: int, message: str) -> Any:
    """An error as ``{"error": message}`` for the API, else as the error page; with its status."""
    if wants_json():
        response = jsonify(error=message)
    elif _bad_host():  # no address can be built for the request, so no page with links: just the words
        response = current_app.response_class(message + "\n", mimetype="text/plain")
    else:
        response = current_app.make_response(render_template("error.html", code=code, message=message))
    response.status_code = code
    return response


def _bad_host() -> bool:
    """The request's Host header is no host (``a..b``) or one ``KUNKEN_TRUSTED_HOSTS`` does not list."""
    return isinstance(request.routing_exception, (BadHost, SecurityError))


#: An HTTP error's words by status, translated when one is answered.
HTTP_ERRORS = {
    400: lazy_gettext("The request could not be read."),
    404: lazy_gettext("There is no such page or session."),
    405: lazy_gettext("That action is not allowed here."),
    413: lazy_gettext("The request is too large: at most %(size)s."),
    500: lazy_gettext("Something went wrong on the server; nothing was saved by this request. Try again."),
}


def _http_error(error: HTTPException):
    assert error.code is not None  # Flask returns a proxy exception (no code) before calling a handler
    # (a refused host's own text repeats the host, in English)
    custom = error.description if error.description != type(error).description and not _bad_host() else None
    known = HTTP_ERRORS.get(error.code)
    if known is not None and error.code == 413:
        known = known % {"size": size_text(request.max_content_length or 0)}
    message = custom or (str(known) if known else gettext("The request could not be completed."))
    response = _error_response(error.code, message)
    if error.code == 401:
        response.headers["WWW-Authenticate"] = "Bearer"
    allowed = getattr(error, "valid_methods", None)  # a 405 says which methods the address takes
    if allowed:
        response.headers["Allow"] = ", ".join(allowed)
    retry = getattr(error, "retry_after", None)
    if retry:
        response.headers["Retry-After"] = str(retry)
    return response


def size_text(limit: int) -> str:
    """A size limit as a person reads it: "256 KB", "4 MB"."""
    if limit >= 1024 * 1024 and limit % (1024 * 1024) == 0:
        return gettext("%(n)s MB", n=limit // (1024 * 1024))
    return gettext("%(n)s KB", n=max(1, limit // 1024))


def _not_found(_error: NotFound):
    """A session, deal or seat the store does not have: the 404 page."""
    return _http_error(PageNotFound())


def _storage_error(error: StorageUnavailable):
    """The database cannot be read or written: 503, nothing acknowledged, a message to act on."""
    current_app.logger.error("storage unavailable: %s", error)
    g.storage_fault = True  # this thread's connection is not kept: the next request opens afresh
    message = {
        "missing": gettext(
            "The server's database file is missing, so nothing can be saved. Nothing was saved by "
            "this request. Tell whoever runs the server: restore the file from a backup and "
            "restart it."
        ),
        "read_only": gettext(
            "The server's database file is read-only, so nothing can be saved. Nothing was saved "
            "by this request. Tell whoever runs the server to make the file writable."
        ),
        "full": gettext(
            "The server's disk (or database size limit) is full, so nothing can be saved. Nothing was "
            "saved by this request. Tell whoever runs the server to free some space."
        ),
        "busy": gettext("The server's database is busy. Nothing was saved by this request; try again in a moment."),
    }.get(error.kind) or gettext(
        "The server's database cannot be used right now. Nothing was saved by this "
        "request. Tell whoever runs the server."
    )
    response = _error_response(503, message)
    response.headers["Retry-After"] = "5" if error.kind == "busy" else "60"
    return response


def _csrf_error(error: CSRFError):
    message = gettext("The form expired or was sent from another page. Reload the page and try again.")
    return _error_response(400, message)
