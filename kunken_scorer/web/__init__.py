"""The Flask app factory and its configuration.

Configuration, in order: defaults -> environment variables prefixed ``KUNKEN_`` ->
``test_config``. Without any, the SQLite file and a generated secret key live in
``instance/`` (the key is created on first run and kept there, never a constant in code).

The app's parts live in modules of their own, one concern each (README.md, "Layout"); this one puts
them together and nothing else.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from flask import Config, Flask
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

from ..core.melds import on_table
from ..core.notation import vist_line
from ..store import StorageUnavailable, Store
from . import api, desk, nights, seats, summary, views
from .database import close_store
from .errors import HANDLERS
from .filters import cards_filter, clock_filter, machine_time, minus_sign, when_filter
from .languages import LANGUAGES, current_language, select_locale, set_language
from .limits import import_limit
from .paths import ROOT
from .pwa import manifest, service_worker
from .security import BASE_CSS, security_headers
from .startup import StartupError, browser_query, refresh_stale_stats_at_start, secret_key, stale_catalogs
from .wording import game_name, reason_text, rule_lines, switch_ref, switch_word

__all__ = ["StartupError", "configuration", "create_app"]

csrf = CSRFProtect()
babel = Babel()
#: Pages, JSON, SVG, CSS and JS go compressed (Brotli, else gzip): a 100-deal session page is 78 KB as text.
compress = Compress()
api.bp.register_blueprint(nights.api_bp)  # /api/v1/nights: the API's, routed in nights.py with the night's pages


def configuration(test_config: dict[str, Any] | None = None) -> Config:
    """The settings alone (defaults, ``KUNKEN_*``, ``test_config``), with nothing opened or created."""
    return _new_app(test_config).config


def _new_app(test_config: dict[str, Any] | None = None) -> Flask:
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
        COMPRESS_ALGORITHM=["br", "gzip"],
        COMPRESS_MIMETYPES=[
            "text/html",
            "application/json",
            "image/svg+xml",
            "text/css",
            "text/javascript",
            "application/javascript",
            "application/manifest+json",
        ],
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


def create_app(test_config: dict[str, Any] | None = None) -> Flask:
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
            app.config["SECRET_KEY"] = secret_key(Path(app.instance_path))
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

    app.before_request(import_limit)  # before the CSRF check, which reads the form
    csrf.init_app(app)
    compress.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    app.teardown_appcontext(close_store)
    app.jinja_env.globals.update(
        reason_text=reason_text,
        BASE_CSS=BASE_CSS,
        LANGUAGES=LANGUAGES,
        current_language=current_language,
        rule_lines=rule_lines,
        switch_ref=switch_ref,
        switch_word=switch_word,
        vist_line=vist_line,
        game_name=game_name,
    )
    app.jinja_env.filters.update(
        minus=minus_sign,
        laid=on_table,
        cards=cards_filter,
        clock=clock_filter,
        when=when_filter,
        machine_time=machine_time,
    )
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    app.register_blueprint(views.bp)
    app.register_blueprint(seats.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(desk.bp)
    app.register_blueprint(summary.bp)
    app.register_blueprint(nights.bp)
    csrf.exempt(api.bp)
    csrf.exempt(nights.api_bp)

    app.add_url_rule("/lang/<code>", "set_language", set_language, methods=["POST", "GET"])
    app.add_url_rule("/manifest.webmanifest", "manifest", manifest)
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    for raised, handler in HANDLERS:
        app.register_error_handler(raised, handler)
    app.after_request(security_headers)
    # Flask's documented way to wrap its WSGI app: the method replaced on this instance by a plain WSGI callable
    app.wsgi_app = browser_query(app.wsgi_app)  # type: ignore[method-assign,assignment]
    refresh_stale_stats_at_start(app, database)
    return app
