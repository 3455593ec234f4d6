"""An exported session keeps its date and its ended state through export and import."""

from kunken_scorer.exports import export_document, import_document


def test_export_import_keeps_created_and_ended(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    store.end_session(session["id"])
    doc = export_document(store, session["id"])
    doc["created_at"] = "2025-02-14T19:30:00+00:00"
    copy, token = import_document(store, doc)
    assert copy["id"] != session["id"] and token
    assert copy["created_at"] == "2025-02-14T19:30:00+00:00"
    assert copy["ended_at"] == store.get_session(session["id"])["ended_at"]


def test_a_broken_timestamp_is_dated_now_not_refused(store):
    session, _ = store.create_session("kunken", {"game": "kunken"}, ["Anna", "Boris"], None)
    doc = export_document(store, session["id"])
    doc["created_at"] = "yesterday<script>"
    copy, _ = import_document(store, doc)
    assert copy["created_at"] != "yesterday<script>" and copy["created_at"].startswith("20")
    assert copy["ended_at"] is None
