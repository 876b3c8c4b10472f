"""A real browser for the tests: Debian's headless chromium, driven by its own command line.

``run(page, script)`` opens a copy of ``page`` with ``script`` appended, lets the page's own
scripts run, and returns what ``script`` wrote into ``<pre id="pbem-test">`` (JSON). No
driver library is needed: ``--dump-dom`` prints the DOM after the scripts ran. Tests skip,
with the reason shown, where no chromium is installed (``.ci/run`` installs it, best effort).
"""

from __future__ import annotations

import html
import json
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--window-size=1280,900", "--virtual-time-budget=5000"]


def chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("no chromium on this machine (.ci/run installs Debian's chromium, best effort)")


def run(page: Path, script: str) -> object:
    browser = chromium()
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "page.html"
        text = page.read_text()
        probe = ("<script>(function(){var out;try{out=(function(){" + script + "}())}catch(e){out={error:String(e)}}"
                 "var pre=document.createElement('pre');pre.id='pbem-test';pre.textContent=JSON.stringify(out);"
                 "document.body.appendChild(pre);}());</script>")
        copy.write_text(text.replace("</body>", probe + "</body>") if "</body>" in text else text + probe)
        done = subprocess.run([browser, *FLAGS, f"--user-data-dir={tmp}/profile", "--dump-dom", copy.as_uri()],
                              capture_output=True, text=True, timeout=120)
    m = re.search(r'<pre id="pbem-test">(.*?)</pre>', done.stdout, re.S)
    assert m, f"the page did not run the probe:\n{done.stderr[-2000:]}"
    return json.loads(html.unescape(m.group(1)))


def launched():
    """Playwright's chromium for a test module (the ``chromium`` fixture of tests/conftest.py):
    Debian's executable, never a browser Playwright downloads.  Skips, saying why, where there is
    no chromium, no Playwright, or a chromium Playwright cannot start."""
    executable = chromium()
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed (pip install '.[test]')")
    with sync_api.sync_playwright() as p:
        try:
            instance = p.chromium.launch(executable_path=executable, args=["--no-sandbox", "--disable-gpu"])
        except Exception as e:  # noqa: BLE001 - a browser that cannot start is a skip, with its reason
            pytest.skip(f"Playwright cannot start {executable}: {str(e).splitlines()[0]}")
        yield instance
        instance.close()
