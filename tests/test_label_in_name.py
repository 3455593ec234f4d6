"""A keypad key's accessible name starts with what the key shows (WCAG 2.5.3, label in name): a person using
speech input says "2" or "Борис 2:", the words on the key, and a screen reader says them too.

Checked on the deal form in both languages, with a meld recorded so that its vist chips are on the page."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from conftest import deal_data, start, text


class Keys(HTMLParser):
    """Every keypad button of a page: (its aria-label or None, the text it shows)."""

    def __init__(self) -> None:
        super().__init__()
        self.keys: list[tuple[str | None, str]] = []
        self._open: list[object] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "button" and "key" in (found.get("class") or "").split():
            self._open = [found.get("aria-label"), ""]

    def handle_data(self, data: str) -> None:
        if self._open is not None:
            self._open[1] += data

    def handle_endtag(self, tag: str) -> None:
        if tag == "button" and self._open is not None:
            label, shown = self._open
            self.keys.append((label, " ".join(str(shown).split())))
            self._open = None


def keys_of(page: str) -> list[tuple[str | None, str]]:
    parser = Keys()
    parser.feed(page)
    return parser.keys


#: Keys that show a symbol for an action (⌫ ↵ … ⌨ ✕): named by what they do, which their symbol does not say.
ACTION_SYMBOLS = {"⌫", "↵", "…", "⌨", "✕"}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_every_keypad_key_is_named_by_what_it_shows(client, language):
    client.set_cookie("lang", language)
    sid = start(client, players=("Анна", "Борис"))
    page = text(client.get(f"/s/{sid}/deals/new"))
    # a meld typed and checked: its chips ("Борис 1: 2♥ 3♥ 4♥") join the keypad
    checked = client.post(
        f"/s/{sid}/deals/new",
        data={**deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}), "check": "1"},
    )
    keys = keys_of(text(checked))
    shown = [visible for _, visible in keys]
    assert "2" in shown and ("Дж" if language == "ru" else "JK") in shown
    assert any(visible.startswith("Борис 1:") for visible in shown), shown
    for label, visible in keys:
        if visible in ACTION_SYMBOLS:
            continue
        name = label if label is not None else visible
        assert name.startswith(visible), (label, visible)


def test_the_check_catches_a_key_named_otherwise():
    keys = keys_of('<button class="key rank" aria-label="two">2</button><button class="key">3</button>')
    assert keys == [("two", "2"), (None, "3")]
    assert not "two".startswith("2")
