"""The Flask app factory and its configuration.

Configuration, in order: defaults -> environment variables prefixed ``KUNKEN_`` ->
``test_config``. Without any, the SQLite file and a generated secret key live in the data folder
(``paths.data_dir``: ``KUNKEN_DATA_DIR``, systemd's ``STATE_DIRECTORY``, else ``instance/``; the key is
created on first run and kept there, never a constant in code).

The app's parts live in modules of their own, one concern each (README.md, "Layout"); this one puts
them together and nothing else.
"""

from __future__ import annotations

from typing import Any

from flask import Config, Flask
from flask.json.provider import DefaultJSONProvider
from flask_babel import Babel
from flask_compress import Compress
from flask_wtf.csrf import CSRFProtect

from ..core.melds import on_table
from ..core.notation import vist_line
from ..core.times import machine_time
from ..service.background import StartupError
from . import api, corrections, desk, members, night_files, nights, seats, summary, views
from .assets import init_assets
from .database import close_store
from .errors import HANDLERS
from .filters import (
    average_filter,
    cards_filter,
    clock_filter,
    day_filter,
    hand_filter,
    minus_sign,
    points_filter,
    when_filter,
)
from .languages import LANGUAGES, current_language, select_locale, set_language
from .limits import import_limit
from .links import qr_code
from .paths import ROOT, data_dir
from .proxies import behind_proxies, trusted_addresses
from .pwa import manifest, service_worker
from .security import BASE_CSS, SessionOverHttps, security_headers
from .startup import browser_query, start
from .wording import game_name, reason_text, rule_lines, switch_ref, switch_word

__all__ = ["StartupError", "configuration", "create_app"]

csrf = CSRFProtect()
babel = Babel()
#: Pages, JSON, SVG, CSS and JS go compressed (Brotli, else gzip): a 100-deal session page is 78 KB as text.
compress = Compress()
api.bp.register_blueprint(nights.api_bp)  # /api/v1/nights: the API's, routed in nights.py with the night's pages
api.bp.register_blueprint(summary.api_bp)  # /api/v1/players/merges: the API's, routed with /players
api.bp.register_blueprint(night_files.api_bp)  # /api/v1/nights/<id>/export: routed with the night's files

#: The settings before ``KUNKEN_*`` and ``test_config``.
DEFAULTS: dict[str, Any] = {
    "PUBLIC_URL": None,
    "MAX_CONTENT_LENGTH": 256 * 1024,
    "COMPRESS_ALGORITHM": ["br", "gzip"],
    "COMPRESS_MIMETYPES": [
        "text/html",
        "application/json",
        "image/svg+xml",
        "text/css",
        "text/javascript",
        "application/javascript",
        "application/manifest+json",
    ],
    # an exported session sent back: 2,000 deals (exports.MAX_DEALS) as the download writes them are 2.5 MB
    "IMPORT_MAX_CONTENT_LENGTH": 4 * 1024 * 1024,
    "WTF_CSRF_TIME_LIMIT": None,  # a scorer's page stays open all evening
    # Over https Flask-WTF also wants a Referer naming this host, and the pages send none (Referrer-Policy:
    # no-referrer, so a link's token never leaves in one): behind the https proxy every form was refused. The
    # CSRF token and the SameSite=Lax, Secure session cookie remain the check.
    "WTF_CSRF_SSL_STRICT": False,
    "BABEL_DEFAULT_LOCALE": "ru",
    "BABEL_TRANSLATION_DIRECTORIES": str(ROOT / "translations"),
    "SESSION_COOKIE_SAMESITE": "Lax",
    "JSON_AS_ASCII": False,
    "CREATE_LIMIT": 120,  # sessions created or imported per address and minute; 0: no limit
    "DATABASE_MAX_MB": 0,  # 0: no cap on the database file's size
}
#: What every template may call, and its filters.
TEMPLATE_GLOBALS = {
    "reason_text": reason_text,
    "BASE_CSS": BASE_CSS,
    "LANGUAGES": LANGUAGES,
    "current_language": current_language,
    "rule_lines": rule_lines,
    "switch_ref": switch_ref,
    "switch_word": switch_word,
    "vist_line": vist_line,
    "game_name": game_name,
    "qr_code": qr_code,
}
TEMPLATE_FILTERS = {
    "minus": minus_sign,
    "laid": on_table,
    "cards": cards_filter,
    "hand_text": hand_filter,
    "clock": clock_filter,
    "when": when_filter,
    "day": day_filter,
    "points": points_filter,
    "average": average_filter,
    "machine_time": machine_time,
}


def configuration(test_config: dict[str, Any] | None = None) -> Config:
    """The settings alone (defaults, ``KUNKEN_*``, ``test_config``), with nothing opened or created."""
    return _new_app(test_config).config


def _new_app(test_config: dict[str, Any] | None = None) -> Flask:
    data = data_dir()  # read as the app is made, not imported: the environment and the current folder of now
    app = Flask(
        __name__,
        template_folder=str(ROOT / "templates"),
        static_folder=str(ROOT / "static"),
        instance_path=str(data),
        instance_relative_config=True,
    )
    app.config.from_mapping(DEFAULTS, DATABASE=str(data / "kunken.db"))
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
    proxies = trusted_addresses(app.config.get("TRUSTED_PROXIES"))  # StartupError: an entry that is no address
    start(app)  # StartupError: catalogs not compiled, no secret key, a database it cannot open
    assert isinstance(app.json, DefaultJSONProvider)  # Flask's own: the app sets no other json_provider_class
    app.json.ensure_ascii = False
    app.json.sort_keys = False

    app.before_request(import_limit)  # before the CSRF check, which reads the form
    csrf.init_app(app)
    compress.init_app(app)
    babel.init_app(app, locale_selector=select_locale)
    app.teardown_appcontext(close_store)
    app.jinja_env.globals.update(TEMPLATE_GLOBALS)
    app.jinja_env.filters.update(TEMPLATE_FILTERS)
    app.jinja_env.trim_blocks = True
    app.jinja_env.lstrip_blocks = True

    for blueprint in (views.bp, seats.bp, corrections.bp, api.bp, desk.bp, summary.bp, nights.bp, night_files.bp):
        app.register_blueprint(blueprint)
    csrf.exempt(api.bp)
    csrf.exempt(nights.api_bp)
    csrf.exempt(summary.api_bp)
    members.init_app(app)  # KUNKEN_MEMBERS read (StartupError), its gate before every request, the invite pages

    app.add_url_rule("/lang/<code>", "set_language", set_language, methods=["POST", "GET"])
    app.add_url_rule("/manifest.webmanifest", "manifest", manifest)
    app.add_url_rule("/sw.js", "service_worker", service_worker)
    for raised, handler in HANDLERS:
        app.register_error_handler(raised, handler)
    app.after_request(security_headers)
    app.session_interface = SessionOverHttps()  # its cookie Secure under https, as security_headers makes the others
    init_assets(app)  # static addresses carry their content's hash; such a request is cacheable for good
    # Flask's documented way to wrap its WSGI app: the method replaced on this instance by a plain WSGI callable
    app.wsgi_app = browser_query(app.wsgi_app)  # type: ignore[method-assign,assignment]
    # outermost, so that everything inside sees the phone's address and scheme (KUNKEN_TRUSTED_PROXIES)
    app.wsgi_app = behind_proxies(app.wsgi_app, proxies)  # type: ignore[method-assign,assignment]
    return app
