"""A club's data is its members' (issue 46): who is a member, the invite links that make one, and the club key that
ends every membership at once.

- ``members_required``: whether the server keeps its club's data for members (``KUNKEN_MEMBERS``, by default on
  behind an ``https://`` public address), read once as the app starts;
- ``make_invite``: an invite link's token, valid for ``INVITE_DAYS`` days; ``join``: the member's pass a phone
  opening it keeps (an ``InviteRefused`` when the link has expired or is not this club's);
- ``is_member``: whether a phone's pass is one of the club's current key;
- ``new_club_key``: a new key, which ends every membership and every invite link made before;
- ``runs_night``: whether a request holding tokens runs a night (its owner, or a table's scorer), and sees it.

A token and a pass are HMAC-signed with the club key kept in the database (``store.members``): nothing else is
stored for them, so a phone's membership is its pass, and only a new key takes every one back.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from ..core.messages import N_
from ..store import Store
from .nights import is_night_owner

#: Where an invite link points, before its token (the web's route, and the command line's link: one address).
INVITE_PATH = "/join/"

#: How long an invite link lets a phone join: long enough to pass on at the next club night, short enough that a
#: link found later in an old chat opens nothing.
INVITE_DAYS = 7
INVITE_AGE = INVITE_DAYS * 24 * 3600

#: ``KUNKEN_MEMBERS``'s words (any capitals), and what each means.
MEMBERS_WORDS = {**dict.fromkeys(("on", "true", "yes", "1"), True), **dict.fromkeys(("off", "false", "no", "0"), False)}


class MembersSettingError(ValueError):
    """``KUNKEN_MEMBERS`` holds something else than on or off."""


def members_required(setting: object, public_url: object) -> bool:
    """Whether the club's data is for its members only: ``setting`` (``KUNKEN_MEMBERS``: ``on``/``off``, or a
    boolean as Flask reads ``true``/``false`` from the environment); unset or blank, on exactly when ``public_url``
    (``KUNKEN_PUBLIC_URL``) is an ``https://`` address, a server on the open internet. On a LAN (no public address,
    or an ``http://`` one) nothing changes.

    >>> members_required(None, "https://club.example.org"), members_required(None, "http://192.168.1.5:8000")
    (True, False)
    >>> members_required("off", "https://club.example.org"), members_required(True, None)
    (False, True)
    """
    if setting is None or (isinstance(setting, str) and not setting.strip()):
        return str(public_url or "").strip().lower().startswith("https://")
    if isinstance(setting, bool):
        return setting
    if isinstance(setting, int) and setting in (0, 1):  # KUNKEN_MEMBERS=1, read by Flask as the number
        return bool(setting)
    word = MEMBERS_WORDS.get(str(setting).strip().lower())
    if word is None:
        raise MembersSettingError(f"KUNKEN_MEMBERS must be on or off, not {setting!r}")
    return word


def _signature(key: str, purpose: str, text: str) -> str:
    """``text`` signed for ``purpose`` with the club ``key`` (HMAC-SHA-256, 128 bits, URL-safe)."""
    digest = hmac.new(key.encode(), f"{purpose}:{text}".encode(), hashlib.sha256).digest()[:16]
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def _signed(key: str, purpose: str, value: str) -> bool:
    """True when ``value`` is ``<text>.<signature>`` signed for ``purpose`` with ``key``."""
    text, dot, signature = value.rpartition(".")
    return bool(dot and text) and hmac.compare_digest(signature.encode(), _signature(key, purpose, text).encode())


@dataclass(frozen=True)
class Invite:
    """An invite link's token, and when it stops letting a phone join (seconds since the epoch)."""

    token: str
    expires: int


def make_invite(store: Store, now: float | None = None) -> Invite:
    """A new invite, valid ``INVITE_DAYS`` days from ``now`` (the clock's time if None): its token names when it
    expires and is signed with the club key, so nothing is stored and a new key ends it."""
    expires = int(time.time() if now is None else now) + INVITE_AGE
    return Invite(f"{expires}.{_signature(store.club_key(), 'invite', str(expires))}", expires)


class InviteRefused(Exception):
    """An invite link that lets no phone join: ``message`` says why, as an English message id (marked ``N_``)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


#: The longest token or pass read (a longer one is no token of ours).
_LONGEST = 200


def join(store: Store, token: str, now: float | None = None) -> str:
    """The member's pass for a phone opening the invite link ``token`` (a new member id, signed with the club
    key); an ``InviteRefused`` when the link is not the club's current key's, or has expired."""
    if len(token) > _LONGEST or not _signed(store.club_key(), "invite", token):
        raise InviteRefused(
            N_(
                "This invite link is not valid: it was cut short, or the club has ended every invite since."
                " Ask a member for a new one."
            )
        )
    expires = token.partition(".")[0]
    if not (expires.isascii() and expires.isdigit()) or int(expires) < (time.time() if now is None else now):
        raise InviteRefused(N_("This invite link has expired: ask a member for a new one."))
    member = secrets.token_urlsafe(12)
    return f"{member}.{_signature(store.club_key(), 'member', member)}"


def is_member(store: Store, member_pass: str | None) -> bool:
    """True when ``member_pass`` (a phone's member cookie) was made with the club's current key."""
    if not member_pass or len(member_pass) > _LONGEST:
        return False
    return _signed(store.club_key(), "member", member_pass)


def new_club_key(store: Store) -> None:
    """Make a new club key: every membership and every invite link made before stop at once."""
    store.new_club_key()


def runs_night(store: Store, night_id: str, night_token: str | None, scorer_tokens: Mapping[str, str]) -> bool:
    """True when a request holding ``night_token`` and ``scorer_tokens`` (edit tokens by session id) runs the night
    ``night_id``: it holds the night's token (its owner link), or the edit token of one of the night's tables (the
    phones that keep score there see the night without being members)."""
    if is_night_owner(store, night_id, night_token):
        return True
    if not scorer_tokens:
        return False
    return any(
        table.session_id in scorer_tokens and store.check_token(table.session_id, scorer_tokens[table.session_id])
        for table in store.night_tables(night_id)
    )
