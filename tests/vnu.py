"""The Nu HTML Checker (vnu.jar, the W3C's validator), fetched once from the npm registry and run on HTML files.

``python tests/vnu.py fetch`` (``make test`` runs it) downloads the pinned ``vnu-jar`` package, checks its
SHA-512 against the pin, and keeps the jar in ``.venv/``; ``check(paths)`` runs it (Java 11 or newer:
Debian's ``default-jre-headless``) and answers its errors.
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "26.9.27"
TARBALL = f"https://registry.npmjs.org/vnu-jar/-/vnu-jar-{VERSION}.tgz"
INTEGRITY = "sha512-TkQd5DFfOaWC9ebtvozTsrH2Vaod3jYg+vrOeREzIXxBexLz9+rS2DNtjn7+RPUiZhgli0SghgBX6RJRNea0KA=="
JAR = Path(__file__).resolve().parent.parent / ".venv" / f"vnu-{VERSION}.jar"


def fetch() -> Path:
    """The jar, downloaded and checked if it is not here yet."""
    if JAR.exists():
        return JAR
    with urllib.request.urlopen(TARBALL, timeout=120) as response:
        packed = response.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(packed).digest()).decode()
    if digest != INTEGRITY:
        raise SystemExit(f"{TARBALL}: SHA-512 {digest} is not the pinned {INTEGRITY}")
    with tarfile.open(fileobj=io.BytesIO(packed)) as archive:
        member = archive.extractfile("package/build/dist/vnu.jar")
        assert member is not None
        JAR.parent.mkdir(parents=True, exist_ok=True)
        partial = JAR.with_suffix(".partial")
        partial.write_bytes(member.read())
        partial.replace(JAR)
    return JAR


def check(paths: list[Path]) -> list[str]:
    """The checker's errors on these files, as "file:line: message" (warnings and info left out)."""
    java = shutil.which("java")
    if java is None:
        raise RuntimeError("the Nu HTML Checker needs Java: apt-get install -y default-jre-headless (make test does)")
    if not JAR.exists():
        raise RuntimeError(f"{JAR} is missing: run `python tests/vnu.py fetch` (make test does)")
    run = subprocess.run(
        [java, "-jar", str(JAR), "--errors-only", "--format", "json", *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    messages = json.loads(run.stderr or run.stdout or '{"messages": []}')["messages"]
    return [
        f"{Path(m.get('url', '')).name}:{m.get('lastLine', '?')}: {m.get('message')}"
        for m in messages
        if m.get("type") == "error"
    ]


if __name__ == "__main__":
    if sys.argv[1:] != ["fetch"]:
        raise SystemExit("usage: python tests/vnu.py fetch")
    print(fetch())
