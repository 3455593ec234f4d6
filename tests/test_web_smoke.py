"""The app factory starts on a fresh database file and answers errors in words."""

from kunken_scorer.web import create_app


def test_factory_uses_the_given_database_and_keeps_a_generated_secret(tmp_path, monkeypatch):
    monkeypatch.delenv("KUNKEN_SECRET_KEY", raising=False)
    app = create_app({"DATABASE": str(tmp_path / "k.db"), "TESTING": True})
    assert (tmp_path / "k.db").exists()
    assert app.config["SECRET_KEY"] and len(app.config["SECRET_KEY"]) >= 32


def test_environment_variables_configure_the_app(tmp_path, monkeypatch):
    monkeypatch.setenv("KUNKEN_DATABASE", str(tmp_path / "env.db"))
    monkeypatch.setenv("KUNKEN_SECRET_KEY", "s" * 40)
    monkeypatch.setenv("KUNKEN_PUBLIC_URL", "http://scorer.example:8000")
    app = create_app()
    assert app.config["DATABASE"] == str(tmp_path / "env.db")
    assert app.config["SECRET_KEY"] == "s" * 40
    assert app.config["PUBLIC_URL"] == "http://scorer.example:8000"
    assert (tmp_path / "env.db").exists()


def test_the_manifest_speaks_the_page_language_and_points_at_local_icons(client):
    ru = client.get("/manifest.webmanifest", headers={"Accept-Language": "ru"})
    en = client.get("/manifest.webmanifest", headers={"Accept-Language": "en"})
    assert ru.mimetype == "application/manifest+json"
    assert ru.get_json()["lang"] == "ru" and en.get_json()["name"] == "Kunken scorer"
    assert ru.get_json()["name"] != en.get_json()["name"]
    for icon in ru.get_json()["icons"]:
        assert icon["src"].startswith("/static/icons/")
        with client.get(icon["src"]) as response:
            assert response.status_code == 200 and response.mimetype == "image/png"


def test_a_server_error_is_a_page_in_words_not_a_traceback(app, client):
    @app.get("/boom")
    def boom():
        raise RuntimeError("kaboom")
    app.config["PROPAGATE_EXCEPTIONS"] = False
    page = client.get("/boom", headers={"Accept-Language": "en"})
    assert page.status_code == 500
    text = page.get_data(as_text=True)
    assert "nothing was saved" in text and "kaboom" not in text and "Traceback" not in text
