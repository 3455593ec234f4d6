"""The rules desk and the rules reference, through the test client (CSRF on, as in production)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from conftest import DESK, ask_desk, desk_token
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kunken_scorer import service
from kunken_scorer.core.deal import evaluate_deal
from kunken_scorer.core.messages import MESSAGES
from kunken_scorer.core.reading import Deal
from kunken_scorer.core.rules import HOUSE_RULES, RuleSet

RU = {"Accept-Language": "ru"}
EN = {"Accept-Language": "en"}


# -- helpers -------------------------------------------------------------------------------


class _Elements(HTMLParser):
    """Collect every element with an id: its attributes and its text."""

    VOID = {"input", "br", "meta", "link", "img", "hr"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.by_id: dict[str, dict] = {}
        self.stack: list = []

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        entry = {"tag": tag, "attrs": attrs, "text": []}
        if "id" in attrs:
            self.by_id[attrs["id"]] = entry
        if tag not in self.VOID:
            self.stack.append(entry)

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data):
        for entry in self.stack:
            entry["text"].append(data)


class Page:
    """A rendered page: its HTML, and elements by id."""

    def __init__(self, response):
        self.response = response
        self.status = response.status_code
        self.html = response.get_data(as_text=True)
        parser = _Elements()
        parser.feed(self.html)
        self.by_id = parser.by_id

    def text(self, element_id: str) -> str:
        """The whitespace-normalised text of the element with this id ('' if absent)."""
        entry = self.by_id.get(element_id)
        return " ".join("".join(entry["text"]).split()) if entry else ""

    def attr(self, element_id: str, name: str):
        """An attribute of the element with this id."""
        return self.by_id[element_id]["attrs"].get(name)

    def has(self, element_id: str) -> bool:
        """True when an element has this id."""
        return element_id in self.by_id

    def reason_links(self, question: str) -> list[str]:
        """The hrefs of the rule links in a question's answer."""
        block = self.html.split(f'id="{question}-answer"', 1)[1].split("</section>", 1)[0]
        return re.findall(r'class="rule-link" href="([^"]+)"', block)


def ask(client, question: str, url: str = DESK, headers=None, **fields) -> Page:
    """Post one of the desk's questions (field names without the prefix)."""
    return Page(ask_desk(client, question, url, headers, **fields))


def all_anchors() -> set[str]:
    """Every rules-reference anchor a reason can point at (the app imports every module first)."""
    return {anchor for anchor, _template in MESSAGES.values()}


@pytest.fixture
def kunken_session(store):
    """A Kunken session with joker_limit "one" and two deals; the last one has melds and a vist."""
    rules = RuleSet.for_game("kunken", {"joker_limit": "one"}).to_dict()
    session, _token = store.create_session("kunken", rules, ["Anna", "Boris"], None)
    store.add_deal(
        session.id,
        {
            "players": [
                {"name": "Anna", "melds": ["2♣ 3♣ 4♣"], "vists": [], "hand": "K♠"},
                {"name": "Boris", "melds": [], "vists": [], "hand": "5♦"},
            ],
            "went_out": None,
            "express": False,
            "redeal": False,
        },
    )
    store.add_deal(
        session.id,
        {
            "players": [
                {
                    "name": "Anna",
                    "melds": ["A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥"],
                    "vists": [{"to": "Boris", "meld": 0, "cards": "10♣"}],
                    "hand": "",
                },
                {"name": "Boris", "melds": ["7♣ 8♣ 9♣"], "vists": [], "hand": "K♣ JK"},
            ],
            "went_out": "Anna",
            "express": False,
            "redeal": False,
        },
    )
    return session.id


# -- the desk page -------------------------------------------------------------------------


def test_desk_shows_five_questions_each_with_keypad_fields_and_csrf(client):
    page = Page(client.get(DESK, headers=EN))
    assert page.status == 200
    for question in ("meld", "swap", "opening", "discard", "vist"):
        assert page.has(f"desk-{question}") and page.has(f"{question}-form")
        assert page.has(f"{question}-csrf_token")
        assert page.attr(f"{question}-form", "method") == "post"
    for field in (
        "meld-cards",
        "meld-table",
        "swap-meld",
        "swap-card",
        "swap-table",
        "opening-melds",
        "opening-bank_card",
        "opening-table",
        "discard-card",
        "discard-melds",
        "vist-meld",
        "vist-cards",
        "vist-table",
    ):
        assert "data-keypad" in page.by_id[field]["attrs"], field
    assert page.attr("opening-has_layout", "type") == "checkbox"
    assert page.has("game-select") and "Ordered rummy" in page.text("game-select")


def test_desk_carries_the_card_keypad(client):
    page = Page(client.get(DESK, headers=RU))
    assert page.has("keypad")
    assert re.search(r'<script src="/static/keypad.js[^"]*" defer></script>', page.html)


def test_desk_has_no_inline_styles_or_scripts(client):
    for url in (DESK, "/rules/kunken", "/rules/ordered-rummy"):
        html = client.get(url).get_data(as_text=True)
        assert " style=" not in html
        assert not re.search(r"\son[a-z]+=", html)
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)


def test_a_legal_run_with_a_joker_names_the_joker_and_scores(client):
    page = ask(client, "meld", cards="5♥ JK 7♥", headers=EN)
    assert page.status == 200
    assert page.attr("meld-answer", "data-legal") == "true"
    assert page.text("meld-answer-verdict") == "Legal meld."
    assert page.attr("meld-answer-kind", "data-kind") == "run"
    assert page.text("meld-answer-points") == "15"
    assert page.text("meld-answer-cards") == "5♥ JK=6♥ 7♥"
    assert "stands for 6♥" in page.text("meld-answer-jokers")
    assert not page.has("meld-answer-reasons")


def test_an_illegal_set_gives_its_reason_linking_to_the_sets_paragraph(client):
    page = ask(client, "meld", cards="K♦ K♦ K♥", headers=EN)
    assert page.attr("meld-answer", "data-legal") == "false"
    assert "K♦ appears twice" in page.text("meld-answer-reasons")
    assert page.reason_links("meld") == ["/rules/kunken#sets"]
    assert not page.has("meld-answer-points")


def test_russian_notation_is_read(client):
    page = ask(client, "meld", cards="5ч дж 7ч", headers=RU)
    assert page.attr("meld-answer", "data-legal") == "true"
    assert page.text("meld-answer-cards") == "5♥ Дж=6♥ 7♥"  # shown in the page's notation
    page = ask(client, "meld", cards="Тп, Тч, Тб", headers=RU)
    assert page.attr("meld-answer-kind", "data-kind") == "set"
    assert page.text("meld-answer-points") == "30"


def test_russian_pages_answer_in_russian_notation(client):
    """Every card an answer shows, and every example in a card field, is in the page's notation."""
    page = ask(client, "meld", cards="JK K♠ K♣", headers=RU)
    assert page.text("meld-answer-cards") == "Дж К♠ К♣"
    assert "К♥, К♦" in page.text("meld-answer-jokers")
    page = ask(client, "swap", meld="JK K♠ K♣", card="K♦", has_layout="y", headers=RU)
    assert "К♦" in page.text("swap-answer-verdict") and "K♦" not in page.text("swap-answer")
    page = ask(client, "discard", card="Q♦", melds="9♦ 10♦ J♦", headers=RU)
    assert page.text("discard-answer-meld").endswith("9♦ 10♦ В♦.")
    page = ask(client, "opening", bank_card="7♥", melds="A♠ A♥ A♦\n6♥ 7♥ 8♥ 9♥", headers=RU)
    assert page.text("opening-answer-melds").startswith("Т♠ Т♥ Т♦")
    page = ask(client, "vist", meld="J♥ Q♥ K♥", cards="A♥", headers=RU)
    assert "Т♥" in page.text("vist-answer-verdict") and "В♥ Д♥ К♥ Т♥" in page.text("vist-answer-cards")
    assert page.attr("swap-meld", "placeholder") == "Дж К♠ К♣"
    assert Page(client.get(DESK, headers=EN)).attr("swap-meld", "placeholder") == "JK K♠ K♣"


def test_a_set_joker_may_be_any_suit_the_set_lacks_until_the_table_uses_them_up(client):
    page = ask(client, "meld", cards="JK K♠ K♣", headers=EN)
    assert page.text("meld-answer-cards") == "JK K♠ K♣"
    assert "any card the set lacks: K♥, K♦" in page.text("meld-answer-jokers")
    assert page.text("meld-answer-points") == "30"
    page = ask(client, "meld", cards="JK K♠ K♣", table="K♥ Q♥ J♥\nK♥ K♠ K♦", headers=EN)
    assert page.text("meld-answer-cards") == "JK=K♦ K♠ K♣"
    assert "stands for K♦" in page.text("meld-answer-jokers")


def test_other_melds_on_the_table_exhaust_a_jokers_card(client):
    page = ask(client, "meld", cards="6♥ JK 8♥", table="6♥ 7♥ 8♥\n7♥ 7♠ 7♦", headers=EN)
    assert page.attr("meld-answer", "data-legal") == "false"
    assert page.reason_links("meld") == ["/rules/kunken#joker-copies"]


def test_swap_a_missing_suit_for_the_joker_but_not_a_suit_the_set_holds(client):
    page = ask(client, "swap", meld="JK K♠ K♣", card="K♦", has_layout="y", headers=EN)
    assert page.attr("swap-answer", "data-legal") == "true"
    assert "K♦ may replace the joker" in page.text("swap-answer-verdict")
    assert "card 1" in page.text("swap-answer-detail")
    page = ask(client, "swap", meld="JK K♠ K♣", card="Кп", has_layout="y", headers=EN)
    assert page.attr("swap-answer", "data-legal") == "false"
    assert "the set already holds K♠" in page.text("swap-answer-reasons")
    assert page.reason_links("swap") == ["/rules/kunken#swap"]


def test_swap_needs_a_layout_of_ones_own(client):
    page = ask(client, "swap", meld="JK K♠ K♣", card="K♦", headers=EN)  # the box left unticked
    assert page.attr("swap-answer", "data-legal") == "false"
    assert "meld of their own" in page.text("swap-answer-reasons")
    # a fresh desk starts with the box ticked: the rule's usual case
    assert '<input checked id="swap-has_layout"' in client.get(DESK, headers=EN).get_data(as_text=True)


#: The house rule ``swap_own_melds`` as a reason names it, in English and in Russian.
SWAP_OWN_MELDS = ("“A joker may be swapped out of one's own melds too”", "«Джокера можно заменить и в своих выкладках»")


@pytest.mark.parametrize(
    "headers, label, why",
    [
        (EN, "The meld belongs to the player swapping", "other players' melds only, not out of one's own"),
        (RU, "Это комбинация самого заменяющего игрока", "только в выкладках партнёров, не в своих"),
    ],
)
def test_swap_out_of_ones_own_meld_is_refused_by_default_and_says_the_house_rule(client, headers, label, why):
    desk = Page(client.get(DESK, headers=headers))
    assert desk.attr("swap-own_meld", "type") == "checkbox" and "checked" not in desk.by_id["swap-own_meld"]["attrs"]
    assert label in desk.html
    page = ask(client, "swap", meld="JK K♠ K♣", card="K♦", has_layout="y", own_meld="y", headers=headers)
    assert page.status == 200 and page.attr("swap-answer", "data-legal") == "false"
    assert "checked" in page.by_id["swap-own_meld"]["attrs"]  # the answer keeps the box as it was sent
    reasons = page.text("swap-answer-reasons")
    assert why in reasons and SWAP_OWN_MELDS[headers is RU] in reasons  # the house rule named
    assert re.findall(r'data-code="([a-z_]+)"', page.html) == ["swap_own_meld"]
    assert page.reason_links("swap") == ["/rules/kunken#swap"]
    # the same swap out of another player's meld (the box left unticked) is the usual legal one
    other = ask(client, "swap", meld="JK K♠ K♣", card="K♦", has_layout="y", headers=headers)
    assert other.attr("swap-answer", "data-legal") == "true"


@pytest.mark.parametrize("headers", [EN, RU])
def test_swap_out_of_ones_own_meld_is_allowed_at_a_table_with_the_house_rule(client, store, headers):
    rules = RuleSet.for_game("kunken", {"swap_own_melds": True}).to_dict()
    session, _token = store.create_session("kunken", rules, ["Anna", "Boris"], None)
    url = f"{DESK}?session={session.id}"
    desk = Page(client.get(url, headers=headers))
    assert desk.has("swap-own_meld") and '<li data-switch="swap_own_melds">' in desk.html  # a difference shown
    page = ask(client, "swap", url, headers, meld="JK K♠ K♣", card="K♦", has_layout="y", own_meld="y")
    assert page.attr("swap-answer", "data-legal") == "true"
    assert not page.has("swap-answer-reasons")
    assert ("K♦ may replace the joker" if headers is EN else "К♦") in page.text("swap-answer-verdict")
    # a card that could not replace the joker anyway still says why, whoever's meld it is
    page = ask(client, "swap", url, headers, meld="JK K♠ K♣", card="K♠", has_layout="y", own_meld="y")
    assert page.attr("swap-answer", "data-legal") == "false"
    assert re.findall(r'data-code="([a-z_]+)"', page.html) == ["swap_set_suit_taken"]


def test_swap_in_a_run_needs_the_exact_card(client):
    page = ask(client, "swap", meld="5♥ JK 7♥", card="6♥", has_layout="y", headers=EN)
    assert page.attr("swap-answer", "data-legal") == "true"
    page = ask(client, "swap", meld="5♥ JK 7♥", card="8♥", has_layout="y", headers=EN)
    assert page.attr("swap-answer", "data-legal") == "false"
    assert "the joker stands for 6♥" in page.text("swap-answer-reasons")


def test_taking_the_bank_with_fifty_points_and_not_with_twenty(client):
    page = ask(client, "opening", melds="A♠ A♥ A♦\n6♥ 7♥ 8♥ 9♥", bank_card="7♥", headers=EN)
    assert page.attr("opening-answer", "data-legal") == "true"
    assert "Points of the melds: 50; needed: 50." == page.text("opening-answer-points")
    page = ask(client, "opening", melds="6♥ 7♥ 8♥ 9♥", bank_card="7♥", headers=EN)
    assert page.attr("opening-answer", "data-legal") == "false"
    assert "worth 20 points" in page.text("opening-answer-reasons")
    assert page.reason_links("opening") == ["/rules/kunken#opening"]
    page = ask(client, "opening", melds="6♥ 7♥ 8♥ 9♥", bank_card="7♥", has_layout="y", headers=EN)
    assert page.attr("opening-answer", "data-legal") == "true"


def test_an_opening_with_an_illegal_meld_links_both_paragraphs(client):
    page = ask(client, "opening", melds="A♠ A♥ A♦\nK♦ K♦ K♥", bank_card="A♠", headers=EN)
    assert page.attr("opening-answer", "data-legal") == "false"
    links = page.reason_links("opening")
    assert "/rules/kunken#opening" in links and "/rules/kunken#sets" in links


def test_a_discard_that_fits_and_one_that_does_not(client):
    url = DESK + "?game=ordered-rummy"
    page = ask(client, "discard", url=url, card="Q♦", melds="K♠ K♥ K♣\n9♦ 10♦ J♦", headers=EN)
    assert page.attr("discard-answer", "data-legal") == "true"
    assert page.attr("discard-answer-meld", "data-meld") == "2"
    page = ask(client, "discard", url=url, card="2♣", melds="9♦ 10♦ J♦", headers=EN)
    assert page.attr("discard-answer", "data-legal") == "false"
    # the verdict says it once, with one link to the rule: no reason repeats it below
    assert page.text("discard-answer-verdict") == "No: 2♣ fits none of these melds."
    assert "does not fit" not in page.text("discard-answer")
    assert page.reason_links("discard") == ["/rules/ordered-rummy#rummy-call"]


def test_a_discard_answer_names_a_line_that_is_no_meld(client):
    """2♥ 3♥ cannot lie on the table: 4♥ fits nothing, and the answer says why the line does not count."""
    page = ask(client, "discard", url=DESK + "?game=ordered-rummy", card="4♥", melds="K♠ K♥ K♣\n2♥ 3♥", headers=EN)
    assert page.attr("discard-answer", "data-legal") == "false"
    reasons = page.text("discard-answer-reasons")
    assert "Meld 2 is not legal, so nothing can be added to it: a meld needs at least 3 cards" in reasons
    assert "Meld 1" not in reasons


@pytest.mark.parametrize(
    "game, words, gone",
    [
        (
            "kunken",
            ["Taking the bank", "May I take the bank", "Bank card taken", "No: the bank may not be taken this way."],
            [],
        ),
        (
            "ordered-rummy",
            [
                "Taking cards from the discards",
                "May I take this discarded card",
                "Card taken from the discards",
                "Check taking the card",
                "Yes: the card may be taken.",
            ],
            ["bank"],
        ),
    ],
)
def test_taking_a_card_is_worded_for_the_game(client, game, words, gone):
    """Ordered rummy has no bank: a card is taken from the discards, and the desk says so everywhere."""
    page = ask(client, "opening", url=f"{DESK}?game={game}", melds="2♥ 3♥ 4♥", bank_card="3♥", headers=EN)
    assert page.attr("opening-answer", "data-legal") == ("true" if game == "ordered-rummy" else "false")  # 50 needed
    section = page.html.split('id="desk-opening"', 1)[1].split("</section>", 1)[0]
    section = re.sub(r"<[^>]*\bvalue=\"([^\"]*)\"[^>]*>|<[^>]+>", r" \1 ", section)  # the words, a button's too
    nav = page.text("desk-jump")
    for word in words:
        assert word in section or word in nav, word
    for word in gone:
        assert word not in section.lower() and word not in nav.lower()


def test_taking_a_card_in_ordered_rummy_opens_with_a_run_laid_in_any_order(client):
    """The desk reads "the first meld is a run" as the deal does: one of the melds of that turn is a run."""
    url = DESK + "?game=ordered-rummy"
    for melds in ("7♣ 7♦ 7♥\n2♥ 3♥ 4♥", "2♥ 3♥ 4♥\n7♣ 7♦ 7♥"):
        page = ask(client, "opening", url=url, melds=melds, bank_card="3♥", headers=EN)
        assert page.attr("opening-answer", "data-legal") == "true", melds
    page = ask(client, "opening", url=url, melds="7♣ 7♦ 7♥", bank_card="7♦", headers=EN)
    assert page.attr("opening-answer", "data-legal") == "false"
    assert "A player's first meld must be a run." in page.text("opening-answer-reasons")


def test_a_vist_that_fits_and_one_that_breaks_the_meld(client):
    page = ask(client, "vist", meld="2♥ 3♥ 4♥", cards="5♥", headers=EN)
    assert page.attr("vist-answer", "data-legal") == "true"
    assert page.text("vist-answer-added-points").endswith(": 5.")
    assert page.text("vist-answer-points") == "20"
    page = ask(client, "vist", meld="K♠ K♥ JK", cards="K♠", headers=EN)
    assert page.attr("vist-answer", "data-legal") == "false"
    assert "No: adding K♠" in page.text("vist-answer-verdict")
    assert page.reason_links("vist") == ["/rules/kunken#sets"]


def test_a_vist_to_a_meld_that_is_not_legal_itself_is_refused_for_the_meld(client):
    """5♥ 6♥ is no meld (too few cards): 7♥ would make it a run, but there was nothing to add it to."""
    page = ask(client, "vist", meld="5♥ 6♥", cards="7♥", headers=EN)
    assert page.attr("vist-answer", "data-legal") == "false"
    assert "the meld on the table is not a legal meld itself" in page.text("vist-answer-verdict")
    assert "7♥" not in page.text("vist-answer-verdict")
    assert "A meld needs at least 3 cards; this one has 2." in page.text("vist-answer")
    page = ask(client, "vist", meld="5♥ 6♥ 7♥", cards="8♥", headers=EN)  # a legal meld still takes the vist
    assert page.attr("vist-answer", "data-legal") == "true"


def test_the_chosen_game_sets_the_preset(client):
    # the ace scores 15 in ordered rummy, 1 in a run of three
    page = ask(client, "meld", url=DESK + "?game=ordered-rummy", cards="Q♠ K♠ A♠", headers=EN)
    assert page.text("meld-answer-points") == "21"
    page = ask(client, "meld", url=DESK + "?game=ordered-rummy", cards="J♠ Q♠ K♠ A♠", headers=EN)
    assert page.text("meld-answer-points") == "45"
    assert Page(client.get(DESK + "?game=poker")).status == 404


def test_a_bad_card_is_a_form_error_naming_the_token(client):
    page = ask(client, "meld", cards="11♥ 5♥ 6♥", headers=EN)
    assert page.status == 422
    assert '"11♥": no such rank' in page.text("meld-cards-errors")
    assert page.attr("meld-cards", "aria-invalid") == "true"
    assert not page.has("meld-answer")
    page = ask(client, "opening", melds="A♠ A♥ A♦\n6♥ 7x 8♥", bank_card="7♥", headers=EN)
    assert page.status == 422
    assert 'Line 2 (“6♥ 7x 8♥”): "7x": no such suit' in page.text("opening-melds-errors")
    page = ask(client, "swap", meld="JK K♠ K♣", card="K♦ K♥", has_layout="y", headers=EN)
    assert page.status == 422 and "exactly one card" in page.text("swap-card-errors")
    page = ask(client, "vist", meld="", cards="5♥", headers=EN)
    assert page.status == 422 and page.text("vist-meld-errors")


def test_the_posted_form_keeps_its_input_and_the_others_stay_blank(client):
    page = ask(client, "vist", meld="2♥ 3♥ 4♥", cards="5♥", headers=EN)
    assert page.attr("vist-meld", "value") == "2♥ 3♥ 4♥"
    assert page.attr("meld-cards", "value") == ""


def test_posting_needs_the_csrf_token(client):
    response = client.post(DESK, data={"meld-cards": "5♥ JK 7♥", "meld-submit": "go"})
    assert response.status_code == 400
    assert "meld-answer" not in response.get_data(as_text=True)


def test_a_post_that_is_no_question_is_refused(client):
    token = desk_token(client)
    assert client.post(DESK, data={"csrf_token": token}).status_code == 400


HOSTILE = [
    "<script>alert(1)</script>",
    "\x00\x01",
    "JK=JK",
    "JK=JK=K♦",
    "K♠" * 500,
    "♠ ♥ ♦ ♣",
    "10♥ " * 200,
    "=",
    "*=*",
    "Д=Д",
    "JK " * 13,
    "\u202e5♥",
    "\ufeff",
    "A♠ " * 14,
    "5♥\r\n6♥",
    "K♦=5♥",
    "%(x)s {x}",
    "{{ 7*7 }}",
]


@pytest.mark.parametrize("text", HOSTILE)
def test_hostile_input_never_breaks_the_desk(client, text):
    token = desk_token(client)
    for question, fields in [
        ("meld", {"cards": text, "table": text}),
        ("swap", {"meld": text, "card": text, "table": text}),
        ("opening", {"melds": text + "\n" + text, "bank_card": text, "table": text}),
        ("discard", {"card": text, "melds": text}),
        ("vist", {"meld": text, "cards": text, "table": text}),
    ]:
        data = {f"{question}-csrf_token": token, f"{question}-submit": "go"}
        data.update({f"{question}-{k}": v for k, v in fields.items()})
        response = client.post(DESK, data=data)
        assert response.status_code in (200, 422), (question, text)
        html = response.get_data(as_text=True)
        assert "<script>alert" not in html
        if text == "{{ 7*7 }}":
            assert "{{ 7*7 }}" in html  # echoed as typed, never evaluated


def test_hostile_query_strings_are_not_found_not_errors(client):
    for url in (
        DESK + "?session=%00",
        DESK + "?session=" + "x" * 5000,
        DESK + "?game=<b>",
        "/rules/<b>",
        "/rules/kunken?session=nope",
        "/rules/ordered-rummy?session=",
    ):
        status = client.get(url).status_code
        assert status in (200, 404), url


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(text=st.text(alphabet=st.sampled_from(list("0123456789JQKAJKВДКТпчбт♠♥♦♣shdc=* ,\n\x00<>&\"'")), max_size=60))
def test_any_typed_text_gets_an_answer_or_a_form_error(client, text):
    token = desk_token(client)
    for question, fields in [
        ("meld", {"cards": text, "table": text}),
        ("vist", {"meld": text, "cards": text}),
        ("opening", {"melds": text, "bank_card": text}),
    ]:
        data = {f"{question}-csrf_token": token, f"{question}-submit": "go"}
        data.update({f"{question}-{k}": v for k, v in fields.items()})
        assert client.post(DESK, data=data).status_code in (200, 422)


# -- opened from a session -----------------------------------------------------------------


def test_a_session_desk_uses_the_sessions_switches(client, kunken_session):
    page = ask(client, "meld", cards="5♥ JK 7♥ JK", headers=EN)
    assert page.attr("meld-answer", "data-legal") == "true"
    url = f"{DESK}?session={kunken_session}"
    page = ask(client, "meld", url=url, cards="5♥ JK 7♥ JK", table="", headers=EN)
    assert page.attr("meld-answer", "data-legal") == "false"
    assert page.reason_links("meld") == [f"/rules/kunken?session={kunken_session}#joker-limits"]
    assert page.text("desk-differences") == "Jokers allowed in one meld: at most one"  # words, not the code


def test_a_session_desk_prefills_the_last_deals_melds_and_links_back(client, kunken_session):
    page = Page(client.get(f"{DESK}?session={kunken_session}", headers=EN))
    assert page.status == 200
    text = page.text("meld-table")
    for meld in ("A♠ A♥ A♦", "6♥ 7♥ 8♥ 9♥", "7♣ 8♣ 9♣ 10♣"):
        assert meld in text
    assert "2♣ 3♣ 4♣" not in text  # an earlier deal's melds are not on the table
    assert "A♠ A♥ A♦" in page.text("discard-melds")
    assert page.attr("desk-back", "href") == f"/s/{kunken_session}"
    assert not page.has("game-select")
    assert page.attr("meld-form", "action") == f"/rules/desk?session={kunken_session}#desk-meld"


def test_a_session_desk_counts_the_tables_cards_for_jokers(client, kunken_session):
    # both 10♣ would be on the table with the prefilled melds plus one more 10♣
    url = f"{DESK}?session={kunken_session}"
    table = "A♠ A♥ A♦\n6♥ 7♥ 8♥ 9♥\n7♣ 8♣ 9♣ 10♣\n10♣ 10♦ 10♥"
    page = ask(client, "meld", url=url, cards="J♣ JK K♣", table=table, headers=EN)
    assert page.attr("meld-answer", "data-legal") == "true"
    page = ask(client, "meld", url=url, cards="9♣ JK J♣", table=table + "\n9♣ 9♦ 9♥", headers=EN)
    assert page.attr("meld-answer", "data-legal") == "false"


def test_the_desk_prefills_the_table_with_every_vist_whatever_the_seat_order(client, store):
    """B's 9♥ fits A's run only after C's 8♥; the desk's table shows the whole run."""
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["A", "B", "C"], None)
    body = {
        "players": [
            {"name": "A", "melds": ["5♥ 6♥ 7♥"], "hand": ""},
            {"name": "B", "melds": [], "vists": [{"to": "A", "meld": 0, "cards": "9♥"}], "hand": "2♣"},
            {"name": "C", "melds": [], "vists": [{"to": "A", "meld": 0, "cards": "8♥"}], "hand": "3♣"},
        ],
        "went_out": "A",
    }
    checked = service.check_deal(store.get_session(session.id), body)
    record, report = checked.record, checked.report
    assert report.valid, report.problems
    store.add_deal(session.id, record)
    page = client.get(f"/rules/desk?session={session.id}", headers={"Accept-Language": "en"}).get_data(as_text=True)
    assert "5♥ 6♥ 7♥ 8♥ 9♥" in page


def test_a_session_stored_with_only_its_switches_still_gets_its_game(client, store):
    session, _ = store.create_session("ordered-rummy", {"ace_points": 11}, ["A", "B"], None)
    page = ask(client, "meld", url=f"{DESK}?session={session.id}", cards="J♠ Q♠ K♠ A♠", headers=EN)
    assert page.text("meld-answer-points") == "41"


def test_an_unknown_session_is_not_found(client):
    assert client.get(DESK + "?session=no-such-session").status_code == 404
    assert client.get("/rules/kunken?session=no-such-session").status_code == 404


# -- the rules reference -------------------------------------------------------------------


@pytest.mark.parametrize("game", ["kunken", "ordered-rummy"])
@pytest.mark.parametrize("headers", [EN, RU], ids=["en", "ru"])
def test_every_reason_anchor_is_a_paragraph_on_every_reference_page(client, game, headers):
    page = Page(client.get(f"/rules/{game}", headers=headers))
    assert page.status == 200
    missing = sorted(a for a in all_anchors() if not page.has(a))
    assert not missing, f"/rules/{game} ({headers}) lacks paragraphs for {missing}"


@pytest.mark.usefixtures("app")  # the app imports every module: every reason is known
def test_the_anchor_list_covers_the_core_and_service_reasons():
    anchors = all_anchors()
    assert {"sets", "runs", "joker-limits", "swap", "opening", "rummy-call", "deal-record", "players"} <= anchors


@pytest.mark.parametrize(
    "game, heading", [("kunken", "Как взять банк"), ("ordered-rummy", "Первая комбинация — секвенция")]
)
def test_the_reference_is_russian_for_a_russian_browser_or_cookie(client, game, heading):
    page = Page(client.get(f"/rules/{game}", headers=RU))
    assert "Комбинации по рангу (комплекты)" in page.text("sets")
    assert heading in page.html
    assert page.attr("rules-" + game, "lang") == "ru"
    client.set_cookie("lang", "ru")
    assert "Комбинации по масти (секвенции)" in Page(client.get(f"/rules/{game}", headers=EN)).text("runs")
    client.set_cookie("lang", "en")
    english = Page(client.get(f"/rules/{game}", headers=RU))
    assert english.text("sets").startswith("Sets") and "Комбинации" not in english.html


@pytest.mark.parametrize(
    "headers, says",
    [
        ("EN", "lays 5♥ JK 7♥ and goes out. Plus points: Anna 49 (29 and 20), Boris 28; the cards Anna still holds"),
        ("RU", "выложил 5♥ Дж 7♥ и вышел. Плюсовые очки: у Анны 49 (29 и 20), у Бориса 28; карты, которые остались"),
    ],
)
def test_the_ordered_rummy_swap_example_scores_as_its_page_says(client, headers, says):
    """The example lays Anna a run first: ordered rummy's first meld must be one (it once showed a set alone).
    What the page says each scores is the plus of the melds laid: Boris goes out with the joker's run and
    Anna holds a card (only one player may end with no cards), as the page says."""
    example = {
        "players": [
            {"name": "Anna", "melds": ["9♠ 10♠ J♠", "K♠ K♣ JK"], "hand": "4♦"},
            {"name": "Boris", "melds": ["5♥ JK 7♥"]},
        ],
        "swaps": [{"by": "Boris", "from": "Anna", "meld": 1, "card": "K♦"}],
        "went_out": "Boris",
    }
    report = evaluate_deal(Deal.from_dict(example), RuleSet.preset("ordered-rummy"))
    assert report.valid, [p.message for p in report.problems]
    assert [(p.name, p.plus, p.minus) for p in report.players] == [("Anna", 49, 4), ("Boris", 28, 0)]
    text = re.sub(r"\s+", " ", Page(client.get("/rules/ordered-rummy", headers=globals()[headers])).text("swap"))
    assert says in text


@pytest.mark.parametrize(
    "headers, says",
    [
        ("EN", "lays 5♥ JK 7♥ and goes out. Plus points: Anna 20, Boris 25; the cards Anna still holds"),
        ("RU", "выложил 5♥ Дж 7♥ и вышел. Плюсовые очки: у Анны 20, у Бориса 25; карты, которые остались у Анны"),
    ],
)
def test_the_kunken_swap_example_scores_as_its_page_says(client, headers, says):
    """Boris takes the joker out of Anna's meld (another player's: no house rule needed) and goes out; Anna
    holds a card. The page gives the plus points."""
    example = {
        "players": [
            {"name": "Anna", "melds": ["K♠ K♣ JK"], "hand": "4♦"},
            {"name": "Boris", "melds": ["5♥ JK 7♥"]},
        ],
        "swaps": [{"by": "Boris", "from": "Anna", "card": "K♦"}],
        "went_out": "Boris",
    }
    report = evaluate_deal(Deal.from_dict(example), RuleSet.preset("kunken"))
    assert report.valid, [p.message for p in report.problems]
    assert [(p.name, p.plus, p.minus) for p in report.players] == [("Anna", 20, 5), ("Boris", 25, 0)]
    text = re.sub(r"\s+", " ", Page(client.get("/rules/kunken", headers=globals()[headers])).text("swap"))
    assert says in text


@pytest.mark.parametrize(
    "game, headers, says",
    [
        ("kunken", EN, "Only the other players’ melds give up their jokers"),
        ("kunken", RU, "Джокера забирают только из чужих комбинаций"),
        ("ordered-rummy", EN, "the joker comes only from another player’s meld"),
        ("ordered-rummy", RU, "джокера забирают только из чужой комбинации"),
    ],
)
def test_the_reference_says_whose_melds_a_joker_comes_from(client, game, headers, says):
    page = Page(client.get(f"/rules/{game}", headers=headers))
    text = page.text("swap")
    assert says in text and "anyone’s meld" not in text and "чьей угодно" not in text
    assert '<a class="switch-ref" href="#switch-swap_own_melds">' in page.html and page.has("switch-swap_own_melds")


def test_the_desk_fills_in_the_last_deals_table_in_the_pages_notation(client, store):
    """A Russian desk shows the table it takes from the last deal in Russian notation: Дж=6♥, not JK=6♥."""
    session, _ = store.create_session("kunken", RuleSet.preset().to_dict(), ["Anna", "Boris"], None)
    melds = {
        "players": [{"name": "Anna", "melds": ["5♥ JK 7♥", "K♠ K♣ K♦"]}, {"name": "Boris", "hand": "5♦"}],
        "went_out": "Anna",
    }
    store.add_deal(session.id, melds)
    russian = client.get(f"{DESK}?session={session.id}", headers=RU).get_data(as_text=True)
    english = client.get(f"{DESK}?session={session.id}", headers=EN).get_data(as_text=True)
    assert "5♥ Дж=6♥ 7♥" in russian and "К♠ К♣ К♦" in russian and "JK=" not in russian
    assert "5♥ JK=6♥ 7♥" in english


def test_the_reference_shows_every_house_rule_with_the_preset_values(client):
    page = Page(client.get("/rules/kunken", headers=EN))
    for name in HOUSE_RULES:
        assert page.has(f"switch-{name}"), name
        assert "differs" not in page.attr(f"switch-{name}", "class").split()
    assert "50" in page.text("switch-opening_points")
    assert "half" in page.text("switch-joker_limit")
    ordered = Page(client.get("/rules/ordered-rummy", headers=EN))
    assert "25" in ordered.text("switch-joker_in_hand")
    assert "15" in ordered.text("switch-ace_points")


#: How the reference pages spell the presets' player counts ("two to five", "от двух до пяти").
PLAYER_COUNT_WORDS = {
    "en": {2: "two", 5: "five", 12: "twelve"},
    "ru": {2: "двух", 5: "пяти", 12: "двенадцати"},
}


@pytest.mark.parametrize("game", ["kunken", "ordered-rummy"])
@pytest.mark.parametrize("lang", ["en", "ru"])
def test_the_reference_says_how_many_players_the_preset_seats(client, game, lang):
    preset = RuleSet.preset(game)
    words = PLAYER_COUNT_WORDS[lang]
    expected = {"en": "two to {}", "ru": "от двух до {}"}[lang].format(words[preset.max_players])
    assert words[preset.min_players] == words[2]
    text = " ".join(Page(client.get(f"/rules/{game}", headers=EN if lang == "en" else RU)).text("players").split())
    assert expected in text.lower()


def test_the_reference_of_a_session_marks_its_switches(client, kunken_session):
    page = Page(client.get(f"/rules/kunken?session={kunken_session}", headers=EN))
    assert page.status == 200
    assert "differs" in page.attr("switch-joker_limit", "class").split()
    assert "at most one" in page.text("switch-joker_limit")
    assert "preset" in page.text("switch-joker_limit")
    assert "differs" not in page.attr("switch-ace_points", "class").split()
    assert page.attr("rules-back", "href") == f"/s/{kunken_session}"
    # the session is Kunken: its rules are not shown under the other game's address
    response = client.get(f"/rules/ordered-rummy?session={kunken_session}")
    assert response.status_code == 302 and response.headers["Location"].endswith(
        f"/rules/kunken?session={kunken_session}"
    )


def test_an_unknown_game_has_no_rules_page(client):
    assert client.get("/rules/poker").status_code == 404


def test_a_reason_link_lands_on_its_paragraph(client):
    page = ask(client, "meld", cards="K♦ K♦ K♥", headers=RU)
    href = page.reason_links("meld")[0]
    path, anchor = href.split("#")
    reference = Page(client.get(path, headers=RU))
    assert reference.status == 200 and reference.has(anchor)
    assert "Комплект" in reference.text(anchor)


def test_the_desk_lets_a_phone_jump_to_each_question_and_names_each_field_once(client):
    page = client.get("/rules/desk", headers={"Accept-Language": "en"}).get_data(as_text=True)
    jumps = re.findall(r'<a href="#(desk-\w+)">', page[page.index('id="desk-jump"') :])
    assert jumps == ["desk-meld", "desk-swap", "desk-opening", "desk-discard", "desk-vist"]
    for target in jumps:
        assert f'id="{target}"' in page
    # "Other melds on the table" is said by the summary; the field's label is for screen readers only
    assert page.count("<summary>Other melds on the table</summary>") == 4
    labels = re.findall(r"<label ([^>]*)>Other melds on the table, one per line \(optional\)</label>", page)
    assert len(labels) == 4 and all('class="visually-hidden"' in attrs for attrs in labels)


def test_a_run_with_a_gap_and_no_joker_is_explained_in_plain_russian(client):
    answer = ask(client, "meld", cards="5♥ 6♥ 8♥", headers=RU).html
    assert "Карты не идут подряд: в пропусках 1 карта, а джокеров, чтобы их закрыть, — ни одного." in answer
    assert "только 0" not in answer and "(s)" not in answer


def test_a_wild_card_table_prefills_the_desk_with_the_wild_card_and_its_checks_take_it(client, store):
    """The desk opened from a 7♠-wild session writes the last deal's table with 7♠ where it was laid (a
    printed joker, JK=6♥, would be refused there), and a vist onto that meld is answered on its merits."""
    rules = RuleSet.for_game("ordered-rummy", {"wild_card": "7♠"}).to_dict()
    session, _token = store.create_session("ordered-rummy", rules, ["Ann", "Bob"], None)
    deal = {
        "players": [
            {"name": "Ann", "melds": ["5♥ 7♠ 7♥"], "vists": [], "hand": ""},
            {"name": "Bob", "melds": ["9♣ 10♣ J♣"], "vists": [{"to": "Ann", "meld": 0, "cards": "8♥"}], "hand": "K♦"},
        ],
        "went_out": "Ann",
        "express": False,
        "redeal": False,
    }
    store.add_deal(session.id, deal)
    url = f"{DESK}?session={session.id}"
    page = Page(client.get(url, headers=EN))
    prefilled = re.search(r'<textarea[^>]*id="discard-melds"[^>]*>(.*?)</textarea>', page.html, re.S)[1]
    assert prefilled.split() and prefilled.strip().splitlines() == ["5♥ 7♠ 7♥ 8♥", "9♣ 10♣ J♣"]
    answer = ask(client, "vist", url=url, meld="5♥ 7♠ 7♥ 8♥", cards="9♥", table="9♣ 10♣ J♣", headers=EN)
    assert answer.attr("vist-answer", "data-legal") == "true", answer.text("vist-answer")
    meld = ask(client, "meld", url=url, cards="5♥ 7♠ 7♥", headers=EN)
    assert meld.text("meld-answer-cards") == "5♥ 7♠ 7♥"
    assert "6♥" in meld.text("meld-answer-jokers")


@pytest.mark.lang("en")
def test_a_switch_that_means_nothing_in_the_game_is_neither_listed_nor_reported_as_changed(client):
    """Ordered rummy has no express: its multiplier is no house rule there, set or not (it showed as "1 changed: ×3"
    on the session page, and as a row of the rules reference beside "No express")."""
    assert RuleSet.for_game("ordered-rummy", {"express_multiplier": 3}).house_rules_changed() == {}
    made = client.post(
        "/api/v1/sessions",
        json={"game": "ordered-rummy", "players": ["Anna", "Boris"], "rules": {"express_multiplier": 3}},
    ).get_json()
    sid = made["id"]
    for path in (f"/s/{sid}", f"/s/{sid}/summary", f"/rules/ordered-rummy?session={sid}", "/rules/ordered-rummy"):
        page = client.get(path).get_data(as_text=True)
        assert "Express multiplies the deal by" not in page, path
    assert "Express multiplies the deal by" in client.get("/rules/kunken").get_data(as_text=True)
