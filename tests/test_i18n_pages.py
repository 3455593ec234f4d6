"""The pages people read are wholly in Russian on a Russian phone, and in English on request.

Every main page is rendered through the test client with ``Accept-Language: ru`` and its
visible text (tags, scripts and styles stripped; tooltips, spoken labels and button captions
kept) is searched for English words: any run of four or more ASCII letters that is not on a
short allow-list (names, formats, identifiers) fails the test. The same pages in English
must show their English texts, so the check cannot pass by showing nothing.
"""

from __future__ import annotations

import html as htmllib
import re
from html.parser import HTMLParser

import pytest
from conftest import CSRF, ask_desk, deal_data, start_fields

from kunken_scorer.core.rules import SWITCHES
from kunken_scorer.service.exports import FORMAT as EXPORT_FORMAT

# -- what the table types ----------------------------------------------------------------------

PLAYERS = ("Анна", "Boris", "Вера")
#: words that may stay as they are on a Russian page: a player's name, file formats, keys, ids
ALLOWED = {"Boris", "Kunken", "JSON", "json", "CSV", "SVG", "PDF", "Ctrl"}
#: English still shown on Russian pages because the code builds it outside the catalog:
#: word -> where (remove an entry once fixed; test_known_gaps_are_still_open then fails)
KNOWN_GAPS: dict[str, str] = {}

#: a legal deal: Анна goes out with express; Boris adds a vist to her run; Вера holds cards
DEAL_EXPRESS = {0: ("A♠ A♥ A♦\n6♥ 7♥ 8♥", "", ""), 1: ("", "Анна 2: 9♥", "K♣ 3♦"), 2: ("", "", "Q♠ Q♦ JK")}
#: an illegal meld (two K♠ in a set) recorded anyway, with a note
DEAL_ILLEGAL = {0: ("K♠ K♠ K♥", "", "2♣"), 1: ("5♦ 6♦ 7♦", "", "9♠"), 2: ("", "", "4♣ 4♦")}


# -- reading a page as a person sees it ---------------------------------------------------------


class _Visible(HTMLParser):
    """Text a person sees or hears: element text, tooltips, spoken labels, button captions.

    What the person typed (a textarea's text, an input's value) is theirs, not the page's.
    """

    HIDDEN = {"script", "style", "template", "noscript", "textarea"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in self.HIDDEN:
            self._skip += 1
        values = dict(attrs)
        for name in ("title", "aria-label", "alt"):
            if values.get(name):
                self.parts.append(values[name])
        if (
            tag == "input"
            and (values.get("type") or "").lower() in ("submit", "button", "reset")
            and values.get("value")
        ):
            self.parts.append(values["value"])

    def handle_endtag(self, tag):
        if tag in self.HIDDEN and self._skip:
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(page: str) -> str:
    """The page's visible text, one space between pieces."""
    parser = _Visible()
    parser.feed(page)
    parser.close()
    return " ".join(" ".join(parser.parts).split())


URL = re.compile(r"\b(?:https?://|/)[^\s<>\"]*")
WORD = re.compile(r"[A-Za-z0-9_]+")


def english_words(page: str, allowed=ALLOWED) -> list[str]:
    """ASCII words of four or more letters left in a page's visible text.

    Identifiers (with ``_`` or digits, like ``ace_low`` or ``players[0]``) and addresses are
    not words; neither are card tokens (``K♠``, ``JK=6♥``: one or two letters).

    >>> english_words('<p title="Add cards">Комбинация K♠ Q♠ JK <code>ace_low</code></p><script>var later;</script>')
    ['cards']
    """
    text = URL.sub(" ", visible_text(page).replace(EXPORT_FORMAT, " "))
    return [
        word
        for word in WORD.findall(text)
        if len(word) >= 4 and "_" not in word and not any(c.isdigit() for c in word) and word not in allowed
    ]


def untranslated(page: str) -> list[str]:
    """English words on a Russian page, past the allow-list and the known gaps."""
    return english_words(page, ALLOWED | set(KNOWN_GAPS))


# -- building an evening ------------------------------------------------------------------------


def get(client, url: str, language: str, status: int = 200) -> str:
    response = client.get(url, headers={"Accept-Language": language})
    assert response.status_code == status, (url, response.status_code)
    return response.get_data(as_text=True)


def start_data(page: str, players=PLAYERS, game: str = "kunken", **fields) -> dict:
    """The start form of the home ``page`` filled in: ``game``'s default switches, then ``fields``."""
    return start_fields(CSRF.search(page)[1], players, game, create="x", **fields)


def start_session(client, game: str = "kunken", players=PLAYERS) -> str:
    """Start a session from the home form (this client becomes its scorer); return its id."""
    page = get(client, "/", "ru")
    # the opening points: a house rule the session page and summary list
    data = start_data(page, players, game, target_kind="score", target_value="500", **{"rules-opening_points": "40"})
    response = client.post("/sessions", data=data, headers={"Accept-Language": "ru"})
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"].rsplit("/", 1)[1]


def post_deal(client, sid: str, seats: dict, *, save: bool, went_out: str = "", language: str = "ru", **flags):
    """Fill in the deal form and press Check (``save=False``) or Save; return the response."""
    page = get(client, f"/s/{sid}/deals/new", language)
    data = deal_data(page, seats, went_out, **flags)
    data["save" if save else "check"] = "x"
    return client.post(f"/s/{sid}/deals/new", data=data, headers={"Accept-Language": language})


@pytest.fixture
def evening(client):
    """A session (target 500, one house rule changed) with an express deal, a redeal and a deal
    recorded anyway with a note; this client is its scorer."""
    sid = start_session(client)
    assert post_deal(client, sid, DEAL_EXPRESS, save=True, went_out="Анна", express=True).status_code == 303
    assert (
        post_deal(client, sid, {0: ("", "", ""), 1: ("", "", ""), 2: ("", "", "")}, save=True, redeal=True).status_code
        == 303
    )
    response = post_deal(client, sid, DEAL_ILLEGAL, save=True, override=True, note="так решили за столом")
    assert response.status_code == 303, response.get_data(as_text=True)
    return sid


def desk_answer(client, language: str, url: str = "/rules/desk") -> str:
    """The rules desk answering "is this meld legal?" about an illegal meld (with its reasons)."""
    headers = {"Accept-Language": language}
    response = ask_desk(client, "meld", url, headers, cards="K♠ K♠ JK K♥ JK", table="K♦ K♦ K♣")
    assert response.status_code == 200, response.get_data(as_text=True)
    return response.get_data(as_text=True)


def import_text(client, text: str, language: str, status: int):
    """Paste ``text`` on the import page; return the page answered (or followed to)."""
    page = get(client, "/import", language)
    response = client.post(
        "/import",
        data={"csrf_token": CSRF.search(page)[1], "text": text, "submit": "x"},
        headers={"Accept-Language": language},
    )
    assert response.status_code == status, response.get_data(as_text=True)
    if response.status_code == 302:
        return get(client, response.headers["Location"], language)
    return response.get_data(as_text=True)


def pages(client, sid: str, language: str) -> dict[str, str]:
    """Every main page of the evening, as a phone in ``language`` sees it."""
    checked = post_deal(client, sid, DEAL_ILLEGAL, save=False, language=language)
    assert checked.status_code == 200
    out = {
        "home": get(client, "/", language),
        "session": get(client, f"/s/{sid}", language),
        "record-deal (checked, with problems)": checked.get_data(as_text=True),
        "history": get(client, f"/s/{sid}/history", language),
        "summary": get(client, f"/s/{sid}/summary", language),
        "players": get(client, "/players", language),
        "import": get(client, "/import", language),
        "import (not JSON)": import_text(client, "{", language, status=400),
        "import (not an export)": import_text(client, '{"format": "other/v9"}', language, status=400),
        "rules desk (answered)": desk_answer(client, language),
        "rules desk of the session (answered)": desk_answer(client, language, f"/rules/desk?session={sid}"),
        "rules of kunken (session)": get(client, f"/rules/kunken?session={sid}", language),
        "rules of kunken": get(client, "/rules/kunken", language),
        "rules of ordered rummy": get(client, "/rules/ordered-rummy", language),
        "rules desk of ordered rummy": get(client, "/rules/desk?game=ordered-rummy", language),
        "not found": get(client, "/s/no-such-session", language, status=404),
        "chart": get(client, f"/s/{sid}/chart.svg", language),
    }
    edit = re.search(r'href="(/s/[^"]+/deals/\d+/edit)"', out["session"])
    assert edit, "the scorer sees an edit link for each deal"
    out["edit deal"] = get(client, edit[1], language)
    part = get(client, f"/s/{sid}/draft/0", language)
    saved = client.post(
        f"/s/{sid}/draft/0",
        headers={"Accept-Language": language},
        data={
            "csrf_token": CSRF.search(part)[1],
            "deal": re.search(r'name="deal"[^>]*value="(\d+)"', part)[1],
            "revision": re.search(r'name="revision"[^>]*value="(\d+)"', part)[1],
            "hand_mode": "cards",
            "player-melds": "A♠ A♥ 2♦",
            "player-vists": "",
            "autosave": "1",
        },
    )
    assert saved.status_code == 200, saved.get_data(as_text=True)
    out["a player's part (saved, with a problem)"] = saved.get_data(as_text=True)
    out["the draft of the next deal"] = get(client, f"/s/{sid}/draft", language)
    return out


# -- Russian ------------------------------------------------------------------------------------


def test_every_main_page_is_wholly_in_russian(client, evening):
    found = {name: untranslated(page) for name, page in pages(client, evening, "ru").items()}
    assert not {name: words for name, words in found.items() if words}, found


#: what a switch is called in code and the API, never on a page: names and values with an underscore
CODE_NAMES = {word for word in (*SWITCHES, *(str(v) for s in SWITCHES.values() for v in s.choices)) if "_" in word}


@pytest.mark.parametrize("language", ["ru", "en"])
def test_no_page_shows_a_switch_code_name(client, evening, language):
    """Pages name house rules by their label and values in words (one table, rules.SWITCHES)."""
    shown = {
        name: sorted(CODE_NAMES & set(re.findall(r"[a-z_]+", visible_text(page))))
        for name, page in pages(client, evening, language).items()
    }
    assert not {name: codes for name, codes in shown.items() if codes}, shown
    # the check reads visible text: the code in an attribute is fine, in text it is caught
    assert CODE_NAMES & set(re.findall(r"[a-z_]+", visible_text("<p>joker_in_hand</p>")))


def test_the_russian_pages_show_the_russian_texts(client, evening):
    """Sanity: the pages checked above really hold the parts that speak (reasons, flashes, tables)."""
    shown = pages(client, evening, "ru")
    deal = visible_text(shown["record-deal (checked, with problems)"])
    assert "в комплекте не может быть двух одинаковых карт" in deal  # the reason next to the melds
    assert "Ошибок: " in deal and "правило" in deal
    session = visible_text(shown["session"])
    assert "Сыграно партий" in session and "экспресс" in session and "записано с ошибками" in session
    assert "пересдача" in session.lower() and "Домашние правила: изменено правил — 1" in session
    assert "Цель: счёт до 500" in session
    assert "Средний счёт за партию" in visible_text(shown["players"])
    assert "Положение после партии 3" in visible_text(shown["summary"])
    desk = visible_text(shown["rules desk (answered)"])
    assert "Комбинация неправильная." in desk and "§ Комбинации по рангу (комплекты)" in desk
    assert "Что-то пошло не так" in visible_text(shown["not found"])
    assert "Партия" in visible_text(shown["chart"])


def test_flash_messages_and_form_errors_are_russian(client):
    sid = start_session(client)
    response = post_deal(client, sid, DEAL_ILLEGAL, save=True)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert not untranslated(page), untranslated(page)
    assert "Записать всё равно" in visible_text(page)
    response = post_deal(client, sid, DEAL_EXPRESS, save=True, went_out="Анна")
    assert response.status_code == 303
    page = get(client, response.headers["Location"], "ru")
    assert "Партия 1 записана." in visible_text(page) and not untranslated(page)


def field_errors(page: str, field_id: str) -> list[str]:
    """The errors shown under a field, as text."""
    listed = re.search(rf'<ul class="errors" id="{re.escape(field_id)}-errors">(.*?)</ul>', page, re.S)
    return [visible_text(item) for item in re.findall(r"<li[^>]*>(.*?)</li>", listed[1], re.S)] if listed else []


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("-1", "Введите целое число, 0 или больше."),
        ("1.5", "Введите целое число."),
        ("два", "Введите целое число."),
        ("99999999999", "Введите целое число."),  # was also "Number must be at least 0."
    ],
)
def test_a_count_typed_wrong_has_one_russian_error(client, value, message):
    sid = start_session(client)
    seats = {0: ("A♠ A♥ A♦", "", ""), 1: ("", "", ""), 2: ("", "", "")}
    response = post_deal(
        client, sid, seats, save=True, went_out="Анна", hand_mode="counts", **{"players-1-small": value}
    )
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_errors(page, "players-1-small") == [message]
    assert not untranslated(page), untranslated(page)


def test_the_start_form_explains_its_switches_in_russian(client):
    page = get(client, "/", "ru")
    data = {"csrf_token": CSRF.search(page)[1], "game": "kunken", "defaults_for": "kunken", "create": "x"}
    data.update({"players-0": "Анна", "players-1": "Вера"})
    data.update({"rules-ace_points": "abc", "rules-joker_limit": "bogus", "rules-wild_card": "7♠" * 11})
    data.update({"rules-hand_size": "-3", "rules-opening_points": "1001"})
    response = client.post("/sessions", data=data, headers={"Accept-Language": "ru"})
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert field_errors(page, "rules-ace_points") == ["Введите целое число."]  # was also "Not a valid integer value."
    # a whole number out of the switch's range says the range (it said "Enter a whole number." of -3)
    assert field_errors(page, "rules-hand_size") == ["Введите целое число от 1 до 20."]
    assert field_errors(page, "rules-opening_points") == ["Введите целое число от 0 до 1000."]
    assert field_errors(page, "rules-wild_card") == ["Слишком длинно: не больше 20 символов."]
    assert field_errors(page, "rules-joker_limit") == ["Неверный вариант."] and not untranslated(page), untranslated(
        page
    )


def test_an_imported_evening_is_announced_in_russian(client, evening):
    exported = client.get(f"/s/{evening}/export.json").get_data(as_text=True)
    page = import_text(client, exported, "ru", status=302)
    assert "Запись игры загружена (партий: 3)." in visible_text(page)
    assert not untranslated(page), untranslated(page)


def test_the_russian_hint_word_for_a_doubling_joker_is_accepted(client):
    """The house-rule hint tells a Russian table to type «удвоить»; the form takes it."""
    page = get(client, "/", "ru")
    assert "«удвоить»" in visible_text(page)
    data = start_data(page, ("Анна", "Вера"), target_kind="", target_value="", **{"rules-joker_in_hand": "Удвоить"})
    response = client.post("/sessions", data=data, headers={"Accept-Language": "ru"})
    assert response.status_code == 303, visible_text(response.get_data(as_text=True))
    session = get(client, response.headers["Location"], "ru")
    assert "Джокер, оставшийся на руках, стоит: удваивает минусовые очки" in visible_text(session)


def test_messages_built_in_code_are_russian(client):
    """Messages whose parts the core builds (expected values, pinned jokers, targets) are Russian too."""
    page = get(client, "/", "ru")
    # a wild card that is a card, but no natural one: the core refuses it, naming what it expects
    data = start_data(page, ("Анна", "Вера"), target_kind="deals", target_value="", **{"rules-wild_card": "JK"})
    home = client.post("/sessions", data=data, headers={"Accept-Language": "ru"}).get_data(as_text=True)
    desk = ask_desk(client, "meld", headers={"Accept-Language": "ru"}, cards="5♥ JK=8♣ 7♥").get_data(as_text=True)
    assert "значение «JK» не подходит; ожидается: обычная карта, например 7♠" in visible_text(home)
    assert "Дж=8♣" in visible_text(desk) and "JK=8♣" not in visible_text(desk)  # in the page's notation
    assert not untranslated(home) and not untranslated(desk), (untranslated(home), untranslated(desk))
    # the word a joker left in hand takes besides a number, as the page writes it (not the API's "double")
    data = start_data(page, ("Анна", "Вера"), target_kind="", target_value="", **{"rules-joker_in_hand": "втрое"})
    home = visible_text(client.post("/sessions", data=data, headers={"Accept-Language": "ru"}).get_data(as_text=True))
    assert "ожидается: целое число от 0 до 1000 или «удвоить»" in home and "double" not in home


# -- English ------------------------------------------------------------------------------------

ENGLISH = {
    "home": ["Start a session", "When does the session end?", "House rules (optional)"],
    "session": ["Deals played", "Record a deal", "Undo the last deal", "recorded anyway", "redeal", "express"],
    "record-deal (checked, with problems)": ["a set may not hold two copies of the same card", "Check", "Save"],
    "history": ["History of changes", "Deal 1 recorded"],
    "summary": ["Rules in force", "Download CSV", "Recorded anyway and notes"],
    "players": ["Average deal score", "Last played"],
    "a player's part (saved, with a problem)": [
        "Saved by the scorer at",
        "a player’s part",
        "neither all of one rank (a set) nor all of one suit",
    ],
    "the draft of the next deal": ["from the players’ phones", "has a problem", "waiting", "Record deal"],
    "import": ["Import a score sheet", "Or paste the exported JSON"],
    "import (not JSON)": ["This is not valid JSON (line 1, column 2)."],
    "import (not an export)": ["Nothing was imported: This is not a score sheet export this version can read"],
    "rules desk (answered)": ["Is this meld legal?", "Not a legal meld.", "A set has at most 4 cards"],
    "rules desk of the session (answered)": ["Using the house rules of the session of Анна, Boris, Вера"],
    "rules desk of ordered rummy": ["Does this discard fit a meld on the table"],
    "rules of kunken (session)": ["The house rules this session was played under", "differs from the preset: 50"],
    "rules of kunken": ["Rules of Kunken", "Rules in force"],
    "rules of ordered rummy": ["Rules of Ordered rummy"],
    "not found": ["Something is not right", "There is no such page or session."],
    "chart": ["Deal", "Total"],
    "edit deal": ["Edit deal 1", "Delete deal 1", "Who went out"],
}


def test_the_same_pages_in_english_show_the_english_texts(client, evening):
    shown = pages(client, evening, "en")
    assert set(ENGLISH) == set(shown), "every page checked in Russian has English texts to find"
    for name, texts in ENGLISH.items():
        text = visible_text(shown[name])
        for expected in texts:
            assert expected in text, (name, expected)
    assert english_words(shown["home"]), "the English home page is caught by the word check"


# -- the card keypad ----------------------------------------------------------------------------


def keypad_labels(page: str) -> list[str]:
    """The captions of the keypad's rank and joker keys, in order."""
    return [
        htmllib.unescape(label)
        for label in re.findall(r'<button type="button" class="key (?:rank|joker)"[^>]*>([^<]*)</button>', page)
    ]


@pytest.mark.parametrize("url", ["/s/{sid}/deals/new", "/rules/desk"])
def test_the_keypad_speaks_the_page_language(client, url):
    sid = start_session(client)
    url = url.format(sid=sid)
    russian = keypad_labels(get(client, url, "ru"))
    english = keypad_labels(get(client, url, "en"))
    numbers = [str(n) for n in range(2, 11)]
    assert russian == [*numbers, "В", "Д", "К", "Т", "Дж"], russian
    assert english == [*numbers, "J", "Q", "K", "A", "JK"], english
