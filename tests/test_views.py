"""The table app's pages through the test client, with CSRF on (as in production)."""

from __future__ import annotations

import html as htmllib
import re

import pytest

from kunken_scorer.web.forms import parse_vist_line, switch_values

CSRF = re.compile(r'name="csrf_token"[^>]*value="([^"]+)"')


# -- helpers -----------------------------------------------------------------------------------

def phone(app):
    """A test client reading the pages in English (the messages these tests look for)."""
    client = app.test_client()
    client.set_cookie("lang", "en")
    return client


@pytest.fixture
def client(app):
    """The scorer's phone, in English."""
    return phone(app)


def text(response) -> str:
    return response.get_data(as_text=True)


def csrf_from(client, url: str = "/") -> str:
    """A CSRF token as a browser gets it: from a form on a page."""
    response = client.get(url)
    assert response.status_code == 200, url
    return CSRF.search(text(response))[1]


def hidden(page: str, name: str) -> str:
    return htmllib.unescape(re.search(rf'name="{name}"[^>]*value="([^"]*)"', page)[1])


def rule_fields(game: str = "kunken") -> dict:
    """The house-rule switches as a browser posts them, left at ``game``'s defaults."""
    data = {}
    for name, value in switch_values(game).items():
        if isinstance(value, bool):
            if value:
                data[f"rules-{name}"] = "y"
        else:
            data[f"rules-{name}"] = str(value)
    return data


def start(client, players=("Anna", "Boris"), game="kunken", shown="kunken", target=None, **extra) -> str:
    """Start a session from the home page; return its id (this client becomes the scorer)."""
    data = {"csrf_token": csrf_from(client), "game": game, "defaults_for": shown, "create": "Start",
            "target_kind": "", "target_value": "", **rule_fields(shown)}
    for i, name in enumerate(players):
        data[f"players-{i}"] = name
    if target:
        data["target_kind"], data["target_value"] = target
    data.update(extra)
    response = client.post("/sessions", data=data)
    assert response.status_code == 303, text(response)
    return response.headers["Location"].rsplit("/", 1)[1]


def deal_data(page: str, players: dict, went_out: str = "", **flags) -> dict:
    """A deal form filled in: ``players`` maps seat index to (melds, vists, hand)."""
    data = {"csrf_token": hidden(page, "csrf_token"), "form_key": hidden(page, "form_key"),
            "expected": hidden(page, "expected"), "went_out": went_out}
    for i, (melds, vists, hand) in players.items():
        data[f"players-{i}-melds"] = melds
        data[f"players-{i}-vists"] = vists
        data[f"players-{i}-hand"] = hand
    for key, value in flags.items():
        if value is True:
            data[key] = "y"
        elif value:
            data[key] = value
    return data


GOOD = {0: ("A♠ A♥ A♦", "Boris: 5♥", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}  # Anna +35, Boris -5


def record(client, sid: str, players=GOOD, went_out="Anna", button="save", **flags):
    page = text(client.get(f"/s/{sid}/deals/new"))
    return client.post(f"/s/{sid}/deals/new", data={**deal_data(page, players, went_out, **flags), button: "1"})


def totals(page: str) -> dict:
    """The scoreboard's totals by player, read from its DOM hooks."""
    rows = re.findall(r'<tr data-player="([^"]*)" class="standing[^"]*">.*?data-total="(-?\d+)"', page, re.S)
    return {htmllib.unescape(name): int(total) for name, total in rows}


# -- home and starting a session -------------------------------------------------------------------

def test_home_shows_the_start_form_with_kunken_defaults(client):
    page = text(client.get("/"))
    assert 'id="start-form"' in page and 'id="players-7"' in page
    assert 'id="rules-opening_points"' in page and 'value="50"' in page
    assert 'id="defaults-note"' in page


def test_home_shows_ordered_rummy_defaults_when_asked(client):
    page = text(client.get("/?game=ordered-rummy"))
    assert re.search(r'id="rules-joker_in_hand"[^>]*value="25"', page)


def test_start_session_sets_the_scorer_cookie_and_shows_the_session(client, store):
    sid = start(client, ["Anna", "Boris", "Vera"])
    cookie = client.get_cookie(f"kunken_edit_{sid}")
    assert cookie is not None and cookie.http_only and cookie.same_site == "Lax"
    assert store.check_token(sid, cookie.value)
    page = text(client.get(f"/s/{sid}"))
    assert totals(page) == {"Anna": 0, "Boris": 0, "Vera": 0}
    assert 'id="record-deal"' in page and 'id="scorer-link"' in page
    assert 'class="qr"' in page and 'id="viewer-link"' in page
    assert "127.0.0.1" not in page and "localhost" not in page


def test_unchanged_switches_take_the_chosen_games_defaults(client, store):
    sid = start(client, ["A", "B", "C", "D", "E", "F"], game="ordered-rummy", shown="kunken")
    rules = store.get_session(sid)["rules"]
    assert rules["game"] == "ordered-rummy" and rules["joker_in_hand"] == 25 and rules["max_players"] == 8


def test_a_changed_switch_is_kept_over_the_chosen_games_preset(client, store):
    sid = start(client, ["A", "B"], game="ordered-rummy", shown="kunken",
                **{"rules-joker_in_hand": "double", "rules-opening_points": "40"})
    rules = store.get_session(sid)["rules"]
    assert rules["joker_in_hand"] == "double" and rules["opening_points"] == 40
    assert rules["ace_points"] == 15  # left as shown: ordered rummy's own value


def test_show_defaults_reloads_the_switches_and_keeps_the_names(client, store):
    data = {"csrf_token": csrf_from(client), "game": "ordered-rummy", "defaults_for": "kunken",
            "players-0": "Anna", "show_defaults": "1", **rule_fields("kunken")}
    page = text(client.post("/sessions", data=data))
    assert re.search(r'id="rules-joker_in_hand"[^>]*value="25"', page)
    assert 'value="Anna"' in page and hidden(page, "defaults_for") == "ordered-rummy"
    assert store.recent_sessions() == []


@pytest.mark.parametrize("players, message", [
    (["Anna"], "players"),
    (["Anna", "anna"], "players"),
    (["A", "B", "C", "D", "E", "F"], "players"),
])
def test_a_bad_player_list_is_a_form_error(client, store, players, message):
    data = {"csrf_token": csrf_from(client), "game": "kunken", "defaults_for": "kunken", "create": "1",
            **rule_fields()}
    data.update({f"players-{i}": n for i, n in enumerate(players)})
    response = client.post("/sessions", data=data)
    assert response.status_code == 422
    assert 'id="players-errors"' in text(response)
    assert store.recent_sessions() == []


def test_bad_switch_target_and_oversized_name_are_form_errors(client, store):
    token = csrf_from(client)
    base = {"csrf_token": token, "game": "kunken", "defaults_for": "kunken", "create": "1",
            "players-0": "Anna", "players-1": "Boris", **rule_fields()}
    response = client.post("/sessions", data={**base, "rules-wild_card": "11♥"})
    assert response.status_code == 422 and 'id="rules-wild_card-errors"' in text(response)
    response = client.post("/sessions", data={**base, "target_kind": "deals", "target_value": ""})
    assert response.status_code == 422 and 'id="target_value-errors"' in text(response)
    response = client.post("/sessions", data={**base, "players-1": "B" * 500})
    assert response.status_code == 422 and 'id="players-1-errors"' in text(response)
    response = client.post("/sessions", data={**base, "game": "chess"})
    assert response.status_code == 422
    assert store.recent_sessions() == []


def test_target_is_stored_and_shown(client, store):
    sid = start(client, target=("penalty", "100"))
    assert store.get_session(sid)["target"] == {"kind": "penalty", "value": 100}
    assert 'id="target-progress"' in text(client.get(f"/s/{sid}"))


# -- recording deals -------------------------------------------------------------------------

def test_full_flow_record_a_deal_and_see_the_totals(client, store):
    sid = start(client)
    response = record(client, sid)
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/s/{sid}")
    page = text(client.get(f"/s/{sid}"))
    assert "Deal 1 saved." in page
    assert totals(page) == {"Anna": 35, "Boris": -5}
    assert re.search(r'id="deal-count" data-count="1"', page)
    assert re.search(r'id="next-dealer">Boris<', page)
    assert '<td class="num" data-score="35"><b>35</b><small>+35 −0</small></td>' in page
    assert len(store.list_deals(sid)) == 1


def test_check_shows_the_preview_with_jokers_and_scores_and_stores_nothing(client, store):
    sid = start(client)
    players = {0: ("5♥ JK 7♥\nA♠ A♥ A♦", "", ""), 1: ("2♣ 3♣ 4♣", "", "K♣")}
    response = record(client, sid, players, button="check")
    page = text(response)
    assert response.status_code == 200
    assert 'id="preview"' in page and 'data-valid="true"' in page
    assert 'data-stands-for="6♥"' in page
    assert re.search(r'<tr data-player="Anna">.*?data-score="45"', page, re.S)
    assert re.search(r'<tr data-player="Boris">.*?data-plus="15".*?data-minus="10"', page, re.S)
    assert store.list_deals(sid) == []
    assert "5♥ JK 7♥" in page  # the form keeps what was typed


def test_illegal_meld_shows_its_reason_next_to_the_field_and_stores_nothing(client, store):
    sid = start(client)
    players = {0: ("K♦ K♦ K♥", "", ""), 1: ("2♥ 3♥ 4♥", "", "5♣")}
    response = record(client, sid, players)
    page = text(response)
    assert response.status_code == 422
    errors = re.search(r'<ul class="errors" id="players-0-melds-errors">(.*?)</ul>', page, re.S)[1]
    assert "two copies of the same card" in errors and 'data-code="illegal_meld"' in errors
    assert 'id="override-errors"' in page
    assert store.list_deals(sid) == []


def test_record_anyway_needs_a_note_and_the_note_shows_in_history(client, store):
    sid = start(client)
    players = {0: ("K♦ K♦ K♥", "", ""), 1: ("2♥ 3♥ 4♥", "", "5♣")}
    response = record(client, sid, players, override=True)
    assert response.status_code == 422 and 'id="note-errors"' in text(response)
    assert store.list_deals(sid) == []
    response = record(client, sid, players, override=True, note="   ")
    assert response.status_code == 422 and store.list_deals(sid) == []
    response = record(client, sid, players, override=True, note="Vera <b>swears</b> it was two decks")
    assert response.status_code == 303
    deal = store.list_deals(sid)[0]
    assert deal["override"] and deal["note"] == "Vera <b>swears</b> it was two decks"
    session_page = text(client.get(f"/s/{sid}"))
    assert "Vera &lt;b&gt;swears&lt;/b&gt; it was two decks" in session_page
    assert "recorded anyway" in session_page
    history = text(client.get(f"/s/{sid}/history"))
    assert "Vera &lt;b&gt;swears&lt;/b&gt; it was two decks" in history and 'data-action="record"' in history


def test_double_submit_with_the_same_form_key_stores_once(client, store):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    data = {**deal_data(page, GOOD, "Anna"), "save": "1"}
    first = client.post(f"/s/{sid}/deals/new", data=data)
    second = client.post(f"/s/{sid}/deals/new", data=data)
    assert first.status_code == second.status_code == 303
    assert len(store.list_deals(sid)) == 1
    assert "was already saved" in text(client.get(f"/s/{sid}"))


def test_each_render_of_the_form_has_its_own_key(client):
    sid = start(client)
    first = hidden(text(client.get(f"/s/{sid}/deals/new")), "form_key")
    second = hidden(text(client.get(f"/s/{sid}/deals/new")), "form_key")
    assert first != second


def test_a_new_deal_from_a_stale_form_gets_a_conflict_then_may_be_saved(client, store, app):
    sid = start(client)
    other = phone(app)
    other.get(f"/s/{sid}/scorer/{client.get_cookie(f'kunken_edit_{sid}').value}")
    stale = text(client.get(f"/s/{sid}/deals/new"))
    assert record(other, sid).status_code == 303
    players = {0: ("Q♠ Q♥ Q♦", "", ""), 1: ("", "", "2♠")}
    response = client.post(f"/s/{sid}/deals/new", data={**deal_data(stale, players, "Anna"), "save": "1"})
    page = text(response)
    assert response.status_code == 409 and 'id="conflict"' in page and "Nothing was saved" in page
    assert "Q♠ Q♥ Q♦" in page  # the form data is kept
    assert len(store.list_deals(sid)) == 1
    again = client.post(f"/s/{sid}/deals/new", data={**deal_data(page, players, "Anna"), "save": "1"})
    assert again.status_code == 303 and len(store.list_deals(sid)) == 2


def test_two_phones_editing_the_same_deal_get_a_conflict_message(client, store, app):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0]["id"]
    other = phone(app)
    other.get(f"/s/{sid}/scorer/{client.get_cookie(f'kunken_edit_{sid}').value}")
    url = f"/s/{sid}/deals/{deal_id}/edit"
    mine, theirs = text(client.get(url)), text(other.get(url))
    assert "A♠ A♥ A♦" in mine and "Boris: 5♥" in mine
    their_change = {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}
    assert other.post(url, data={**deal_data(theirs, their_change, "Anna"), "save": "1"}).status_code == 303
    my_change = {0: ("A♠ A♥ A♦ A♣", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣ JK")}
    response = client.post(url, data={**deal_data(mine, my_change, "Anna"), "save": "1"})
    page = text(response)
    assert response.status_code == 409 and 'id="conflict"' in page and "changed on another phone" in page
    assert "A♠ A♥ A♦ A♣" in page
    stored = store.get_deal(sid, deal_id)
    assert stored["record"]["players"][1]["hand"] == "K♣" and stored["revision"] == 2


def test_edit_a_deal_and_a_double_tap_on_save_is_not_a_conflict(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0]["id"]
    url = f"/s/{sid}/deals/{deal_id}/edit"
    page = text(client.get(url))
    data = {**deal_data(page, {0: ("A♠ A♥ A♦", "", ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}, "Anna"), "save": "1"}
    assert client.post(url, data=data).status_code == 303
    assert client.post(url, data=data).status_code == 303
    assert totals(text(client.get(f"/s/{sid}"))) == {"Anna": 30, "Boris": 5}
    assert store.get_deal(sid, deal_id)["revision"] == 2


def test_russian_notation_typed_in_the_form_works(client, store):
    sid = start(client, ["Анна", "Борис"])
    players = {0: ("Тп Тч Тб", "борис: 5ч", ""), 1: ("2ч 3ч 4ч", "", "Кт Дж")}
    response = record(client, sid, players, went_out="Анна")
    assert response.status_code == 303, text(response)
    record_ = store.list_deals(sid)[0]["record"]
    assert record_["players"][0]["melds"] == ["A♠ A♥ A♦"]
    assert record_["players"][0]["vists"] == [{"to": "Борис", "meld": None, "cards": "5♥"}]
    assert record_["players"][1]["hand"] == "K♣ JK"
    assert totals(text(client.get(f"/s/{sid}"))) == {"Анна": 35, "Борис": -5}


def test_russian_page_shows_russian_ranks_on_the_keypad(client):
    sid = start(client)
    client.set_cookie("lang", "ru")
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert re.search(r'data-rank="K"[^>]*>К<', page) and re.search(r'data-rank="A"[^>]*>Т<', page)
    client.set_cookie("lang", "en")
    page = text(client.get(f"/s/{sid}/deals/new"))
    assert re.search(r'data-rank="K"[^>]*>K<', page)


def test_a_bad_card_or_vist_line_is_an_error_naming_the_line(client, store):
    sid = start(client)
    players = {0: ("A♠ A♥ A♦\n11♥ 12♥ 13♥", "Vera: 5♥\nBoris 5♥", ""), 1: ("", "", "K♣ Zz")}
    page = text(record(client, sid, players))
    melds = re.search(r'id="players-0-melds-errors">(.*?)</ul>', page, re.S)[1]
    assert "Line 2" in melds and "11♥" in melds
    vists = re.search(r'id="players-0-vists-errors">(.*?)</ul>', page, re.S)[1]
    assert "Line 1" in vists and "Vera" in vists and "Line 2" in vists
    assert "Zz" in re.search(r'id="players-1-hand-errors">(.*?)</ul>', page, re.S)[1]
    assert store.list_deals(sid) == []


def test_vist_problems_and_deal_wide_problems_are_placed(client):
    sid = start(client)
    players = {0: ("A♠ A♥ A♦", "Boris 3: 5♥", "2♠"), 1: ("2♥ 3♥ 4♥", "", "")}
    page = text(record(client, sid, players, went_out="Anna", button="check"))
    assert 'data-code="vist_no_meld"' in re.search(r'id="players-0-vists-errors">(.*?)</ul>', page, re.S)[1]
    assert 'data-code="went_out_with_cards"' in re.search(r'id="players-0-hand-errors">(.*?)</ul>', page, re.S)[1]
    page = text(record(client, sid, GOOD, went_out="", button="check", express=True))
    assert 'data-code="express_without_going_out"' in re.search(r'id="express-errors">(.*?)</ul>', page, re.S)[1]


def test_oversized_fields_get_a_form_error(client, store):
    sid = start(client)
    players = {0: ("A♠ " * 1000, "", ""), 1: ("", "", "")}
    response = record(client, sid, players, note="x" * 1001)
    page = text(response)
    assert response.status_code == 422
    assert 'id="players-0-melds-errors"' in page and 'id="note-errors"' in page
    assert store.list_deals(sid) == []


def test_a_redeal_ignores_the_cards_and_scores_nothing(client, store):
    sid = start(client)
    response = record(client, sid, {0: ("junk that does not parse", "", ""), 1: ("", "", "")}, went_out="",
                      redeal=True)
    assert response.status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert totals(page) == {"Anna": 0, "Boris": 0} and "redeal" in page
    assert store.list_deals(sid)[0]["record"]["redeal"] is True


def test_vist_line_syntax():
    names = ["Anna", "Anna Maria", "R2"]
    assert parse_vist_line("anna maria 2: 5♥", names) == {"to": "Anna Maria", "meld": 1, "cards": "5♥"}
    assert parse_vist_line("Anna #3: 5h 6h", names) == {"to": "Anna", "meld": 2, "cards": "5♥ 6♥"}
    assert parse_vist_line("R2: Тп", names) == {"to": "R2", "meld": None, "cards": "A♠"}


# -- delete, undo, end, history ---------------------------------------------------------------------

def test_delete_undo_and_end_are_recorded_in_the_history(client, store):
    sid = start(client)
    for _ in range(3):
        assert record(client, sid).status_code == 303
    deals = store.list_deals(sid)
    edit_page = text(client.get(f"/s/{sid}/deals/{deals[0]['id']}/edit"))
    response = client.post(f"/s/{sid}/deals/{deals[0]['id']}/delete",
                           data={"csrf_token": hidden(edit_page, "csrf_token"), "revision": deals[0]["revision"]})
    assert response.status_code == 303 and len(store.list_deals(sid)) == 2
    assert "Deal 1 deleted." in text(client.get(f"/s/{sid}"))

    page = text(client.get(f"/s/{sid}"))
    data = {"csrf_token": hidden(page, "csrf_token"), "expected_version": hidden(page, "expected_version")}
    assert client.post(f"/s/{sid}/undo", data=data).status_code == 303
    assert len(store.list_deals(sid)) == 1
    # a second tap on the same (now stale) undo button undoes nothing more
    assert client.post(f"/s/{sid}/undo", data=data).status_code == 303
    assert len(store.list_deals(sid)) == 1
    assert "nothing was undone" in text(client.get(f"/s/{sid}"))

    page = text(client.get(f"/s/{sid}"))
    assert client.post(f"/s/{sid}/end", data={"csrf_token": hidden(page, "csrf_token")}).status_code == 303
    page = text(client.get(f"/s/{sid}"))
    assert 'id="ended-banner"' in page and 'id="record-deal"' not in page and 'id="undo"' not in page
    assert 'class="edit-deal"' not in page
    assert totals(page) == {"Anna": 35, "Boris": -5}

    actions = [e["action"] for e in store.history(sid)]
    assert actions == ["end", "undo", "delete", "record", "record", "record"]
    history = text(client.get(f"/s/{sid}/history"))
    for action in ("end", "undo", "delete", "record"):
        assert f'data-action="{action}"' in history


def test_an_ended_session_refuses_writes_with_a_message(client, store):
    sid = start(client)
    record(client, sid)
    page = text(client.get(f"/s/{sid}/deals/new"))
    deal_id = store.list_deals(sid)[0]["id"]
    store.end_session(sid)
    response = client.post(f"/s/{sid}/deals/new", data={**deal_data(page, GOOD, "Anna"), "save": "1"})
    assert response.status_code == 303
    assert "no longer changed" in text(client.get(f"/s/{sid}"))
    assert client.get(f"/s/{sid}/deals/new").status_code == 303
    assert client.get(f"/s/{sid}/deals/{deal_id}/edit").status_code == 303
    token = hidden(page, "csrf_token")
    for url in (f"/s/{sid}/undo", f"/s/{sid}/deals/{deal_id}/delete"):
        assert client.post(url, data={"csrf_token": token}).status_code == 303
    assert len(store.list_deals(sid)) == 1


# -- who may write --------------------------------------------------------------------------------------

def write_routes(sid: str, deal_id: int) -> list[tuple[str, str]]:
    return [("GET", f"/s/{sid}/deals/new"), ("POST", f"/s/{sid}/deals/new"),
            ("GET", f"/s/{sid}/deals/{deal_id}/edit"), ("POST", f"/s/{sid}/deals/{deal_id}/edit"),
            ("POST", f"/s/{sid}/deals/{deal_id}/delete"), ("POST", f"/s/{sid}/undo"), ("POST", f"/s/{sid}/end")]


def test_the_viewer_link_is_read_only(client, store, app):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0]["id"]
    scorer_page = text(client.get(f"/s/{sid}/deals/new"))
    before = store.version(sid)
    viewer = phone(app)
    page = text(viewer.get(f"/s/{sid}"))
    assert 'id="record-deal"' not in page and 'id="scorer-link"' not in page and 'class="edit-deal"' not in page
    assert 'id="viewer-link"' in page and 'id="viewer-note"' in page
    token = csrf_from(viewer, "/")
    form = {**deal_data(scorer_page, GOOD, "Anna"), "csrf_token": token, "save": "1",
            "expected_version": str(before), "revision": "1"}
    for method, url in write_routes(sid, deal_id):
        response = viewer.open(url, method=method, data=form if method == "POST" else None)
        assert response.status_code == 403, (method, url)
        assert "scorer" in text(response)
    # a wrong token in the cookie is no better than none
    viewer.set_cookie(f"kunken_edit_{sid}", "not-the-token")
    assert viewer.post(f"/s/{sid}/undo", data={"csrf_token": token}).status_code == 403
    assert viewer.get(f"/s/{sid}/scorer/not-the-token").status_code == 403
    assert store.version(sid) == before and len(store.list_deals(sid)) == 1
    assert store.get_session(sid)["ended_at"] is None


def test_the_scorer_link_makes_another_phone_a_scorer(client, app):
    sid = start(client)
    page = text(client.get(f"/s/{sid}"))
    link = htmllib.unescape(re.search(r'id="scorer-link" href="([^"]+)"', page)[1])
    path = link.split("://", 1)[1].split("/", 1)[1]
    second = phone(app)
    response = second.get("/" + path)
    assert response.status_code == 303 and response.headers["Referrer-Policy"] == "no-referrer"
    assert 'id="record-deal"' in text(second.get(f"/s/{sid}"))
    assert record(second, sid).status_code == 303


@pytest.mark.parametrize("route", ["create", "record", "edit", "delete", "undo", "end"])
def test_every_form_post_needs_the_csrf_token(client, store, route):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0]["id"]
    page = text(client.get(f"/s/{sid}/deals/{deal_id}/edit"))
    before = (store.version(sid), len(store.recent_sessions()), store.get_deal(sid, deal_id)["revision"])
    form = deal_data(page, GOOD, "Anna")
    url = {"create": "/sessions", "record": f"/s/{sid}/deals/new", "edit": f"/s/{sid}/deals/{deal_id}/edit",
           "delete": f"/s/{sid}/deals/{deal_id}/delete", "undo": f"/s/{sid}/undo", "end": f"/s/{sid}/end"}[route]
    data = {**form, "save": "1", "create": "1", "game": "kunken", "players-0": "X", "players-1": "Y",
            **rule_fields()}
    for bad in (None, "forged-token"):
        if bad is None:
            data.pop("csrf_token", None)
        else:
            data["csrf_token"] = bad
        response = client.post(url, data=data)
        assert response.status_code == 400
    after = (store.version(sid), len(store.recent_sessions()), store.get_deal(sid, deal_id)["revision"])
    assert after == before


# -- hostile input, unknown sessions ----------------------------------------------------------------------

def test_names_with_html_are_escaped_everywhere(client, store):
    evil = '<script>alert(1)</script>'
    sid = start(client, [evil, '"><img src=x>'])
    players = {0: ("A♠ A♥ A♦", '"><img src=x>: 5♥', ""), 1: ("2♥ 3♥ 4♥", "", "K♣")}
    assert record(client, sid, players, went_out=evil).status_code == 303
    deal_id = store.list_deals(sid)[0]["id"]
    pages = [text(client.get(url)) for url in
             ("/", f"/s/{sid}", f"/s/{sid}/history", f"/s/{sid}/deals/new", f"/s/{sid}/deals/{deal_id}/edit")]
    pages.append(client.get(f"/s/{sid}/live").get_json()["html"])
    pages.append(text(record(client, sid, players, went_out=evil, button="check")))
    for page in pages:
        assert evil not in page and "<img src=x>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[1]


def test_unknown_session_and_deal_are_404_pages(client):
    sid = start(client)
    for url in ("/s/nope", "/s/nope/live", "/s/nope/history", "/s/nope/qr.svg", "/s/nope/deals/new",
                f"/s/{sid}/deals/999/edit", "/s/nope/scorer/x"):
        response = client.get(url)
        assert response.status_code == 404, url
        assert "no such page or session" in text(response)


@pytest.mark.parametrize("field, value", [
    ("went_out", "Nobody-at-all"), ("expected", "abc"), ("form_key", "x"), ("players-0-melds", "\x00\x01"),
    ("players-0-vists", ":::"), ("players-1-hand", "JK=JK"), ("players-5-melds", "A♠ A♥ A♦"),
])
def test_hostile_deal_input_never_gives_a_500(client, store, field, value):
    sid = start(client)
    page = text(client.get(f"/s/{sid}/deals/new"))
    for button in ("check", "save"):
        data = {**deal_data(page, GOOD, "Anna"), button: "1", field: value}
        response = client.post(f"/s/{sid}/deals/new", data=data)
        assert response.status_code < 500
    assert len(store.list_deals(sid)) <= 1


def test_hostile_start_input_never_gives_a_500(client, store):
    token = csrf_from(client)
    for extra in ({"defaults_for": "<x>"}, {"rules-joker_limit": "all"}, {"rules-ace_points": "-5"},
                  {"rules-hand_size": "many"}, {"target_kind": "score", "target_value": "999999999999"},
                  {"players-0": "\x07bell"}, {"players-99": "Extra"}):
        data = {"csrf_token": token, "game": "kunken", "defaults_for": "kunken", "create": "1",
                "players-0": "Anna", "players-1": "Boris", **rule_fields(), **extra}
        assert client.post("/sessions", data=data).status_code < 500


# -- live updates and the QR code ---------------------------------------------------------------------------

def test_live_endpoint_answers_304_while_nothing_changed(client, app):
    sid = start(client)
    viewer = phone(app)
    first = viewer.get(f"/s/{sid}/live")
    assert first.status_code == 200
    body = first.get_json()
    assert set(body) >= {"version", "html"} and 'id="scoreboard"' in body["html"] and 'id="deals-card"' in body["html"]
    etag = first.headers["ETag"]
    assert etag == f'"{body["version"]}"'
    assert viewer.get(f"/s/{sid}/live", headers={"If-None-Match": etag}).status_code == 304
    record(client, sid)
    changed = viewer.get(f"/s/{sid}/live", headers={"If-None-Match": etag})
    assert changed.status_code == 200 and changed.get_json()["version"] > body["version"]
    assert totals(changed.get_json()["html"]) == {"Anna": 35, "Boris": -5}
    assert 'class="edit-deal"' not in changed.get_json()["html"]
    assert 'class="edit-deal"' in client.get(f"/s/{sid}/live").get_json()["html"]


def test_qr_code_is_served_as_svg(client):
    sid = start(client)
    response = client.get(f"/s/{sid}/qr.svg")
    assert response.status_code == 200 and response.mimetype == "image/svg+xml"
    assert text(response).startswith("<svg")


def test_pages_have_no_inline_scripts_styles_or_handlers(client, store):
    sid = start(client)
    record(client, sid)
    deal_id = store.list_deals(sid)[0]["id"]
    for url in ("/", f"/s/{sid}", f"/s/{sid}/deals/new", f"/s/{sid}/deals/{deal_id}/edit", f"/s/{sid}/history"):
        page = text(client.get(url))
        assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", page), url
        assert not re.search(r"\sstyle=|\son[a-z]+=", page), url


def test_the_qr_code_draws_exactly_the_modules_of_the_link():
    """The compact SVG path paints every dark module of the QR code and nothing else."""
    from kunken_scorer.web.qr import qr_modules, qr_svg
    url = "http://192.168.1.20:8000/s/Llek4jVjxJ4WDo0U7mVf_dXb"
    painted = set()
    for x, y, width in re.findall(r"M(\d+) (\d+)h(\d+)v1h-\3z", re.search(r' d="([^"]+)"', qr_svg(url))[1]):
        painted |= {(int(x) + dx, int(y)) for dx in range(int(width))}
    dark = {(x, y) for y, row in enumerate(qr_modules(url)) for x, on in enumerate(row) if on}
    assert painted == dark and len(dark) > 300
