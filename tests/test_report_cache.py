"""Compiled templates kept between runs (report.environment's bytecode cache): the same text,
and a cache that is damaged or cannot be written is no cache, never an error."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from pbem.view import report


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # jinja's folder goes under it
    return tmp_path


def test_a_template_is_compiled_once_and_read_back(cache: Path) -> None:
    first = report.environment().get_template("report.html.j2")
    kept = list(cache.glob("_jinja2-cache-*/pbem-*.cache"))
    assert len(kept) == 1
    again = report.environment().get_template("report.html.j2")
    assert again is not first and again.root_render_func.__code__.co_code == first.root_render_func.__code__.co_code


@pytest.mark.parametrize("damage", [b"", b"garbage", b"j2" * 3])
def test_a_damaged_cache_entry_is_compiled_again(cache: Path, damage: bytes) -> None:
    honest = report.environment().get_template("report.html.j2")
    for entry in cache.glob("_jinja2-cache-*/pbem-*.cache"):
        entry.write_bytes(damage)
    again = report.environment().get_template("report.html.j2")
    assert again.root_render_func.__code__.co_code == honest.root_render_func.__code__.co_code


def test_no_usable_cache_folder_means_no_cache(cache: Path) -> None:
    import os

    (cache / f"_jinja2-cache-{os.getuid()}").write_text("a file where the folder would be")
    assert report._compiled_templates() is None  # jinja refuses it: every run compiles, as before
    assert report.environment().from_string("{{ n }}").render(n=2) == "2"
