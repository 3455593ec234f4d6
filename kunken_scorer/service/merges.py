"""Two names of one person merged into one player on ``/players`` (issue 47), and the merge undone.

"Лёня" and "Леня" typed at different evenings are two players; merged, the statistics and ratings count every
session of the one as the other's (``stats.stats_rows``), and the ratings replay the whole history as if the two
had always been one. The sessions themselves keep their names as typed, so undoing the merge gives back exactly
what was there before. Names merged in a chain follow it (Лёня into Леня, Леня into Лёва: all three are Лёва).

A merge is refused when it would make two players of one session one: they sat at one table, so they are two
different people. Each use case runs in one transaction (the checks, the merge, the sessions it changes marked
stale), then brings the statistics and ratings up to date as ``/players`` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..core.fields import clean_name, player_key
from ..store import MergeRow, StorageUnavailable, Store
from .ratings import refresh_ratings
from .stats import merge_targets, refresh_stale_stats

# -- what a merge comes to ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Merged:
    """The merge is recorded. ``ratings_current`` False: a long history, its ratings replayed in the background
    (``/players`` says so meanwhile)."""

    merge: MergeRow
    ratings_current: bool


@dataclass(frozen=True)
class Unmerged:
    """The merge is undone (``already``: it was undone before, by another request or a double tap)."""

    merge: MergeRow
    ratings_current: bool
    already: bool = False


@dataclass(frozen=True)
class NoSuchPlayer:
    """No player of this name has a scored session on this install."""

    name: str


@dataclass(frozen=True)
class SameName:
    """Both names are one name already (capitals and the way a letter was typed do not count)."""

    name: str


@dataclass(frozen=True)
class MergedAlready:
    """``name`` is merged into ``into`` already: that merge is undone first."""

    name: str
    into: str


@dataclass(frozen=True)
class OnePlayerAlready:
    """``into`` counts as ``name`` already (it was merged into it): merging back would make a loop."""

    name: str
    into: str


@dataclass(frozen=True)
class PlayedTogether:
    """The two played in one session (the latest such, ``session_id`` on ``played_at``): two different people."""

    names: tuple[str, str]
    session_id: str
    played_at: str


@dataclass(frozen=True)
class NoSuchMerge:
    """There is no merge of this number (``merge_id`` as asked)."""

    merge_id: int | str


#: Why a merge was refused; nothing was changed.
MergeRefusal = NoSuchPlayer | SameName | MergedAlready | OnePlayerAlready | PlayedTogether


# -- the use cases -----------------------------------------------------------------------------------------------


def merge_players(store: Store, from_name: Any, into_name: Any) -> Merged | MergeRefusal:
    """Merge the player ``from_name`` into ``into_name`` (names as typed, any capitals or spelling of a letter):
    from now on the statistics and ratings count ``from_name``'s sessions as ``into_name``'s. A name that is no
    name raises its ``KunkenError`` (naming the field ``from`` or ``into``)."""
    typed = (clean_name(from_name, "from"), clean_name(into_name, "into"))
    source, target = player_key(typed[0]), player_key(typed[1])
    if source == target:
        return SameName(typed[0])
    refresh_stale_stats(store)  # who played in which session, as it stands (checked against below)
    with store.merge_write():
        _, standing = store.player_merges()
        targets = merge_targets(standing)
        direct = {m.from_player: m for m in standing}
        if source in direct:
            return MergedAlready(direct[source].from_name, targets[source].name)
        root = targets[target].player if target in targets else target
        if root == source:
            return OnePlayerAlready(store.player_name(source) or typed[0], direct[target].from_name)
        shown = store.player_name(source)
        if shown is None:
            return NoSuchPlayer(typed[0])
        into = direct[target].from_name if target in direct else store.player_name(target)
        if into is None:
            return NoSuchPlayer(typed[1])
        met = store.together(source, root, 1)[0]
        if met:
            return PlayedTogether((shown, into), met[0].session_id, met[0].played_at)
        merge = store.add_merge(source, shown, target, into)
        store.mark_players_stale([source, root])
    return Merged(merge, _bring_up_to_date(store))


def undo_merge(store: Store, merge_id: int | str) -> Unmerged | NoSuchMerge:
    """Undo the merge ``merge_id`` (its number, or the number as an address holds it): its two names are two players
    again, every statistic and rating as if it had never been made (a merge into its name since stays: those names
    go with it)."""
    digits = isinstance(merge_id, str) and merge_id.isascii() and merge_id.isdigit()
    number = merge_id if isinstance(merge_id, int) else int(merge_id) if digits else 0
    if not 0 < number < 2**63:  # no number, or past SQLite's integers: no merge has it
        return NoSuchMerge(merge_id)
    with store.merge_write():
        found = store.get_merge(number)
        if found is None:
            return NoSuchMerge(merge_id)
        if found.undone_at is not None:
            return Unmerged(found, True, already=True)
        _, standing = store.player_merges()
        into = merge_targets(standing).get(found.from_player)
        undone = store.end_merge(number)
        assert undone is not None  # read above, in this transaction
        store.mark_players_stale([into.player if into else found.into_player])
    return Unmerged(undone, _bring_up_to_date(store))


def standing_merges(store: Store) -> list[MergeRow]:
    """The merges that stand, the oldest first (``/players`` lists them, each with its Undo)."""
    return store.player_merges()[1]


def _bring_up_to_date(store: Store) -> bool:
    """The statistics and ratings after a merge or its undoing, worked out now as ``/players`` would; True when the
    ratings are current (False: replayed in the background, or the file could not be written now: the next look at
    ``/players`` does it)."""
    try:
        refresh_stale_stats(store)
        return refresh_ratings(store)
    except StorageUnavailable:
        return False


# -- the API's answers -------------------------------------------------------------------------------------------


def merge_answer(merge: MergeRow) -> dict[str, Any]:
    """A merge as the API answers it (``/api/v1/players/merges``)."""
    return {
        "id": merge.id,
        "from": merge.from_name,
        "into": merge.into_name,
        "created_at": merge.created_at,
        "undone_at": merge.undone_at,
    }


def merges_answer(merges: list[MergeRow]) -> dict[str, Any]:
    """``GET /api/v1/players/merges``: the merges that stand, the oldest first."""
    return {"merges": [merge_answer(m) for m in merges]}
