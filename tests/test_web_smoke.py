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
