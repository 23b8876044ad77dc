"""The two fingerprints: an edit of a scene changes only its render hash, an edit of a page template only the package hash."""

from __future__ import annotations

import inspect
import json
from pathlib import Path

from attention_explainer.options import RenderJob
from attention_explainer.package.manifest import read_manifest
from attention_explainer.pipeline import freshness
from scenes import SCENES


def _edited(monkeypatch, edited_file: Path) -> None:
    """Make every read of ``edited_file`` see one more line, as if someone had edited it."""
    read_bytes = Path.read_bytes

    def edited(path):
        return read_bytes(path) + (b"\n# an edit\n" if path.resolve() == edited_file.resolve() else b"")

    monkeypatch.setattr(Path, "read_bytes", edited)


def test_editing_one_scene_changes_only_its_render_hash(monkeypatch):
    jobs = {name: RenderJob(name, quality="low") for name in SCENES}
    before = {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()}
    _edited(monkeypatch, Path(inspect.getsourcefile(SCENES["scaling"])))
    after = {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()}
    assert after["scaling"][0] != before["scaling"][0]
    assert all(after[name][0] == before[name][0] for name in SCENES if name != "scaling")
    assert all(after[name][1] == before[name][1] for name in SCENES)


def test_editing_a_page_template_changes_only_the_package_hash(monkeypatch):
    from attention_explainer.pages import templating as pages

    jobs = {name: RenderJob(name, quality="low") for name in SCENES}
    before = {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()}
    _edited(monkeypatch, pages.TEMPLATES / "presenter.html")
    after = {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()}
    assert all(after[name][0] == before[name][0] for name in SCENES)
    assert all(after[name][1] != before[name][1] for name in SCENES)


def test_editing_an_exporter_changes_neither_hash(monkeypatch):
    """The SCORM zip and the deck are written beside a package by `export`; their code never makes a package stale."""
    from attention_explainer import exports
    from attention_explainer.pages import templating as pages

    exporters = Path(exports.__file__).parent
    jobs = {name: RenderJob(name, quality="low") for name in ("scaling", "self-attention")}
    before = {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()}
    for exporter in (
        exporters / "scorm.py",
        exporters / "deck.py",
        exporters / "export.py",
        exporters / "templates" / "scorm_player.html",
    ):
        assert exporter.is_file(), exporter
        _edited(monkeypatch, exporter)
        assert {name: (freshness.render_hash(job), freshness.package_hash(job)) for name, job in jobs.items()} == before
    _edited(monkeypatch, pages.TEMPLATES.parent / "explorer.py")  # the explorer is a page of the package
    assert all(freshness.package_hash(job) != before[name][1] for name, job in jobs.items())


def test_editing_the_gallery_changes_neither_hash(monkeypatch):
    """``media/index.html`` is written beside the renders: its code and template never make a package stale."""
    from attention_explainer.pages import templating as pages

    job = RenderJob("scaling", quality="low")
    before = (freshness.render_hash(job), freshness.package_hash(job))
    for gallery in (pages.TEMPLATES.parent / "gallery.py", pages.TEMPLATES / "gallery.html"):
        assert gallery.is_file(), gallery
        _edited(monkeypatch, gallery)
        assert (freshness.render_hash(job), freshness.package_hash(job)) == before
    _edited(monkeypatch, pages.TEMPLATES / "style.css")  # the gallery's style is the pages' style, inside every package
    assert freshness.package_hash(job) != before[1]


def test_only_plain_relative_paths_count_as_inside_a_package():
    from attention_explainer.files import is_inside_path

    for inside in ("scaling.mp4", "sections/01-intro.mp4", "a.b/c..d"):
        assert is_inside_path(inside), inside
    for outside in ("", "/etc/passwd", "../x", "sections/../../x", "a//b", "./a", "a/.", "a\\..\\b", "C:x", "a\0b", None, 3):
        assert not is_inside_path(outside), outside


def test_a_manifest_naming_a_path_outside_its_folder_is_unreadable(tmp_path):
    manifest = {"scene": "scaling", "title": "t", "render_hash": "r", "package_hash": "p", "files": []}
    for path in ("scaling.mp4", "../../x", "/tmp/x"):
        manifest["files"] = [{"path": path, "sha256": "0" * 64, "bytes": 1, "part": "render"}]
        (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
        assert (read_manifest(tmp_path) is None) == (path != "scaling.mp4"), path
