"""The club key (issue 46): the one secret that signs every invite link and every member's cookie. It lives in the
database (``club``, made by migration m018 with its first key), so a backup restored keeps the club's members and a
new key, made here, ends every membership and every invite link at once."""

from __future__ import annotations

import secrets

from .db import Database, _now


class ClubMixin(Database):
    """The club key: read, and made anew."""

    def club_key(self) -> str:
        """The club's current key (m018 made the first one: reading it never writes)."""
        row = self.db.execute("SELECT key FROM club WHERE id = 1").fetchone()
        if row is None:  # only a file whose row was deleted by hand: a key is made, as a new key would be
            return self.new_club_key()
        return str(row[0])

    def new_club_key(self) -> str:
        """Replace the club key with a new random one; the new key. Every invite link and member's cookie signed
        with the old one stops working at once."""
        key = secrets.token_urlsafe(32)
        with self._write():
            self.db.execute(
                "INSERT INTO club (id, key, created_at) VALUES (1, ?, ?)"
                " ON CONFLICT (id) DO UPDATE SET key = excluded.key, created_at = excluded.created_at",
                [key, _now()],
            )
        return key
