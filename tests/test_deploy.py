"""The deployment files an operator copies (issue 46): deploy/kunken-scorer.service passes ``systemd-analyze
verify`` and says what the issue asks of the service; deploy/Caddyfile passes ``caddy validate`` in both its forms
(a public name, and the LAN's ``tls internal``) and sends every request to the address the unit serves on.
A tool that is missing makes its test FAIL, saying what to install (`make browser` installs both)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from kunken_scorer.cli import arguments
from kunken_scorer.web.proxies import trusted_addresses

UNIT = ROOT / "deploy" / "kunken-scorer.service"
CADDYFILE = ROOT / "deploy" / "Caddyfile"


def needed(tool: str, package: str) -> str:
    found = shutil.which(tool)
    if found is None:
        pytest.fail(f"{tool} is not installed: apt-get install {package} (make browser does)")
    return found


def directives(text: str) -> dict[str, list[str]]:
    """``Key=value`` lines of a unit file by key (a key may come more than once), comments left out."""
    found: dict[str, list[str]] = {}
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith(("#", ";", "[")) and "=" in line:
            key, value = line.split("=", 1)
            found.setdefault(key.strip(), []).append(value.strip())
    return found


def environment_of(unit: dict[str, list[str]]) -> dict[str, str]:
    return dict(entry.split("=", 1) for entry in unit["Environment"])


def test_the_unit_passes_systemd_analyze_verify(tmp_path):
    """verify wants ExecStart's program to exist: the copy runs this checkout's Python on the package, with the
    unit's own arguments."""
    analyze = needed("systemd-analyze", "systemd")
    text = UNIT.read_text(encoding="utf-8")
    line = next(line for line in text.splitlines() if line.startswith("ExecStart="))
    program, _, rest = line.removeprefix("ExecStart=").partition(" ")
    assert program == "/opt/kunken-scorer/bin/kunken-scorer", "the venv docs/hosting.md installs into"
    copy = tmp_path / "kunken-scorer.service"
    copy.write_text(text.replace(line, f"ExecStart={sys.executable} -m kunken_scorer {rest}"), encoding="utf-8")
    checked = subprocess.run([analyze, "verify", str(copy)], capture_output=True, text=True, timeout=60, cwd=tmp_path)
    said = checked.stdout + checked.stderr
    assert checked.returncode == 0, said
    # verify also warns without failing (an unknown key, a bad value it ignores): nothing about this unit
    assert "kunken-scorer.service" not in said, said


def test_the_unit_runs_as_its_own_user_restarts_on_failure_and_is_locked_down():
    unit = directives(UNIT.read_text(encoding="utf-8"))
    assert unit["DynamicUser"] == ["yes"] or unit.get("User") not in (None, ["root"])
    assert unit["StateDirectory"] == ["kunken-scorer"]
    assert unit["Restart"] == ["on-failure"]
    assert unit["ProtectSystem"] == ["strict"] and unit["NoNewPrivileges"] == ["yes"]
    assert unit["ProtectHome"] == ["yes"] and unit["PrivateTmp"] == ["yes"]
    assert unit["CapabilityBoundingSet"] == [""]  # no capability at all
    # SIGTERM is the clean stop (within 10 s, kunken_scorer/server.py): systemd waits longer than that
    assert unit["KillSignal"] == ["SIGTERM"] and int(unit["TimeoutStopSec"][0]) > 10
    assert unit["EnvironmentFile"] == ["-/etc/kunken-scorer.env"]  # optional: the operator's settings


def test_the_unit_keeps_the_database_in_its_state_directory_and_trusts_the_local_proxy():
    unit = directives(UNIT.read_text(encoding="utf-8"))
    environment = environment_of(unit)
    state = "/var/lib/" + unit["StateDirectory"][0]
    assert Path(environment["KUNKEN_DATABASE"]).parent == Path(state)
    assert unit["WorkingDirectory"] == [state]  # with ProtectSystem=strict, the one folder it may write
    assert trusted_addresses(environment["KUNKEN_TRUSTED_PROXIES"]) == frozenset({"127.0.0.1"})


def test_the_unit_s_command_line_is_one_the_command_understands(monkeypatch):
    unit = directives(UNIT.read_text(encoding="utf-8"))
    command = unit["ExecStart"][0].split()
    for name in [n for n in os.environ if n.startswith("KUNKEN_")]:
        monkeypatch.delenv(name)
    args = arguments(command[1:])
    assert (args.command, args.host, args.port) == ("serve", "127.0.0.1", 8000)


def test_the_unit_serves_where_the_caddyfile_sends():
    unit = directives(UNIT.read_text(encoding="utf-8"))
    command = unit["ExecStart"][0].split()[1:]
    assert "--port" in command
    port = int(command[command.index("--port") + 1])
    assert f"reverse_proxy 127.0.0.1:{port}" in CADDYFILE.read_text(encoding="utf-8")


def caddy_json(tmp_path: Path, config: Path) -> dict:
    """``caddy validate`` then ``caddy adapt`` on ``config``, with the domain variable set; its JSON."""
    caddy = needed("caddy", "caddy")
    env = {
        **os.environ,
        "KUNKEN_DOMAIN": "scores.example.org",
        "HOME": str(tmp_path),
        "XDG_DATA_HOME": str(tmp_path / "data"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    run = {"capture_output": True, "text": True, "timeout": 60, "env": env, "cwd": tmp_path}
    valid = subprocess.run([caddy, "validate", "--adapter", "caddyfile", "--config", str(config)], **run)
    assert valid.returncode == 0 and "Valid configuration" in valid.stdout + valid.stderr, valid.stderr
    adapted = subprocess.run([caddy, "adapt", "--adapter", "caddyfile", "--config", str(config)], **run)
    assert adapted.returncode == 0, adapted.stderr
    return json.loads(adapted.stdout)


def routes_of(adapted: dict) -> list[dict]:
    servers = adapted["apps"]["http"]["servers"]
    return [route for server in servers.values() for route in server["routes"]]


def upstreams(adapted: dict) -> list[str]:
    text = json.dumps(routes_of(adapted))
    return re.findall(r'"dial": "([^"]+)"', text)


def test_the_caddyfile_serves_a_public_name_with_automatic_certificates(tmp_path):
    adapted = caddy_json(tmp_path, CADDYFILE)
    hosts = [m["host"] for route in routes_of(adapted) for m in route.get("match", []) if "host" in m]
    assert hosts == [["scores.example.org"]]  # {$KUNKEN_DOMAIN}
    assert upstreams(adapted) == ["127.0.0.1:8000"]
    # no certificate of its own: Caddy's automatic ones (an internal issuer would show under the tls app)
    assert "internal" not in json.dumps(adapted.get("apps", {}).get("tls", {}))
    assert "Strict-Transport-Security" in json.dumps(routes_of(adapted))


def test_the_caddyfile_s_lan_form_signs_its_own_certificate(tmp_path):
    """The LAN block, uncommented in place of the public one (as the file's comment tells the operator)."""
    text = CADDYFILE.read_text(encoding="utf-8")
    public, lan = text.split("# --- LAN", 1)
    public_block = public.split("# --- a public name", 1)[1].split("\n", 1)[1]
    commented = "\n".join("# " + line for line in public_block.splitlines())
    uncommented = "\n".join(line.removeprefix("# ") for line in lan.split("\n", 1)[1].splitlines())
    config = tmp_path / "Caddyfile"
    config.write_text(public.replace(public_block, commented + "\n") + "\n" + uncommented, encoding="utf-8")
    adapted = caddy_json(tmp_path, config)
    assert upstreams(adapted) == ["127.0.0.1:8000"]
    issuers = json.dumps(adapted["apps"]["tls"]["automation"]["policies"])
    assert '"module": "internal"' in issuers
    hosts = json.dumps([m["host"] for route in routes_of(adapted) for m in route.get("match", []) if "host" in m])
    assert "scores.example.org" not in hosts and "kunken.lan" in hosts  # the LAN's names, the public one gone
