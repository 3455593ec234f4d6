"""Every string shown to a user is in the Russian catalog, translated, with its placeholders intact;
the page language and the language switch."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parent.parent
KEYWORDS = {
    "_": None,
    "gettext": None,
    "lazy_gettext": None,
    "_l": None,
    "N_": None,
    "M_": None,
    "ngettext": (1, 2),
    "lazy_ngettext": (1, 2),
    "P_": (1, 2),
}
METHODS = [("kunken_scorer/**.py", "python"), ("templates/**.html", "jinja2")]
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{(\w+)\}")


def extracted() -> dict[str, str]:
    """msgid -> where it was found, for every marked string in the code and templates."""
    found = {}
    for filename, _line, message, _comments, _context in extract_from_dir(
        str(ROOT), METHODS, keywords=KEYWORDS, options_map={"templates/**.html": {"extensions": "jinja2.ext.i18n"}}
    ):
        msgid = message[0] if isinstance(message, tuple) else message  # a plural's catalog key is its singular
        if msgid:
            found.setdefault(msgid, filename)
    return found


def catalog(language: str):
    """The language's .po catalog."""
    with (ROOT / "translations" / language / "LC_MESSAGES" / "messages.po").open("rb") as f:
        return read_po(f)


def test_sources_have_strings_to_translate():
    found = extracted()
    assert len(found) > 100
    assert "A meld needs at least 3 cards; this one has {count}." in found


def test_every_string_is_translated_into_russian():
    ru = catalog("ru")
    missing = []
    for msgid, where in extracted().items():
        message = ru.get(msgid)
        if message is None or not message.string or message.fuzzy:
            missing.append(f"{where}: {msgid!r}")
    assert not missing, f"{len(missing)} untranslated:\n" + "\n".join(sorted(missing)[:60])


def test_the_russian_reads_as_a_person_writes_it_with_no_gender_in_brackets():
    """No "вышел(а)" or "заменил(а)": a phrase that must name no gender is written so that it needs none."""
    bracketed = re.compile(r"\w\((а|ла|ась|ся|ая|на)\)")
    found = [
        f"{message.id!r} -> {string!r}"
        for message in catalog("ru")
        if message.id
        for string in (message.string if isinstance(message.string, tuple) else (message.string,))
        if string and bracketed.search(string)
    ]
    assert not found, "\n".join(found)
    assert bracketed.search("вышел(а)") and not bracketed.search("выход: Анна (3)")


def test_translations_keep_their_placeholders():
    ru = catalog("ru")
    broken = []
    for message in ru:
        if not message.id or not message.string:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        wanted = {m for i in ids for m in PLACEHOLDER.findall(i)}
        for s in strings:
            if {m for m in PLACEHOLDER.findall(s)} - wanted or (
                len(ids) == 1 and {m for m in PLACEHOLDER.findall(s)} != wanted
            ):
                broken.append(f"{message.id!r} -> {s!r}")
    assert not broken, "\n".join(broken[:40])


@pytest.mark.parametrize("msgid", ["Kunken scorer", "A meld needs at least 3 cards; this one has {count}."])
def test_the_app_speaks_russian_by_default_and_english_on_request(client, msgid):
    ru = catalog("ru").get(msgid).string
    assert ru and ru != msgid
    home_ru = client.get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    home_en = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert catalog("ru").get("Kunken scorer").string in home_ru
    assert "Kunken scorer" in home_en


@pytest.mark.parametrize(
    ("header", "page", "api"),
    [
        ("en-GB,en;q=0.9,ru;q=0.8", "en", "en"),
        ("de-DE,ru;q=0.5,en;q=0.4", "ru", "ru"),
        ("ru-RU", "ru", "ru"),
        ("fr-FR,de;q=0.5", "ru", "en"),  # neither of ours: Russian pages, English for scripts
        ("", "ru", "en"),
        ("de;q=0.1, " * 40 + "en;q=0.9", "en", "en"),  # a long header (not kept) is read all the same
    ],
)
def test_the_browser_preference_picks_the_language_each_time(client, header, page, api):
    """The preferred language of an Accept-Language header is kept per header text: every request still gets
    its own header's answer, whatever came before it."""
    words = {"ru": catalog("ru").get("Kunken scorer").string, "en": "Kunken scorer"}
    refusal = {"ru": "Отправьте", "en": "Send the body as JSON"}
    for other in ("en", "ru", header):  # the answer for each header stands, in any order
        for _ in range(2):
            text = client.get("/", headers={"Accept-Language": header}).get_data(as_text=True)
            assert words[page] in text and words["en" if page == "ru" else "ru"] not in text
            client.get("/", headers={"Accept-Language": other})
    answer = client.post("/api/v1/deals/score", data="{}", headers={"Accept-Language": header})
    assert answer.status_code == 415 and refusal[api] in answer.get_json()["error"]


def test_the_language_switch_is_remembered_on_the_device(client):
    response = client.get("/lang/en?next=/", headers={"Accept-Language": "ru"})
    assert response.status_code == 302 and response.headers["Location"].endswith("/")
    page = client.get("/", headers={"Accept-Language": "ru"}).get_data(as_text=True)
    assert "Kunken scorer" in page
    client.get("/lang/ru?next=/")
    page = client.get("/", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert catalog("ru").get("Kunken scorer").string in page


def test_the_language_switch_never_redirects_off_site(client):
    response = client.get("/lang/en?next=//evil.example/")
    assert response.headers["Location"] in ("/", "http://localhost/")


# -- the language switch redirected off-site: "/\t/evil.example" left as "//evil.example" ------------


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example",
        "/\n/evil.example",
        "/\r\n/evil.example",
        "/\\evil.example",
        "/ /evil.example",
        "/\x00/evil.example",
    ],
)
def test_the_language_switch_never_redirects_off_site_through_odd_characters(client, target):
    response = client.get("/lang/en", query_string={"next": target})
    assert response.status_code == 302
    assert response.headers["Location"] == "/"


def test_the_language_switch_still_returns_to_the_page(client):
    response = client.get("/lang/ru", query_string={"next": "/rules/desk?game=ordered-rummy"})
    assert response.headers["Location"] == "/rules/desk?game=ordered-rummy"
