"""Issue 34, poor items of batches: a byte-order mark, labels that tell variants apart, the summary's paths, a huge batch's opening line."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

import render
from attention_explainer.cli.batch import read_batch
from attention_explainer.options import RenderJob
from attention_explainer.pipeline import workers

from . import hardening_workers


def test_a_batch_file_with_a_byte_order_mark_reads_as_without(tmp_path):
    """Poor item: "line 1: unknown scene '\\ufeffsoftmax'" for a file saved as UTF-8 with BOM."""
    batch_file = tmp_path / "renders.txt"
    batch_file.write_bytes("softmax --quality low\nscaling -q low --seed 7\n".encode("utf-8-sig"))
    entries = read_batch(batch_file, Path("media"), Path("cache"))
    assert [(entry.job.scene, entry.job.inputs) for entry in entries] == [("softmax", {}), ("scaling", {"seed": 7})]


def test_labels_tell_variants_apart():
    """Poor item: a dark and a light render both read "complexity (low)"."""
    dark = RenderJob("complexity", {}, "low")
    light = RenderJob("complexity", {}, "low", theme="light")
    seeded = RenderJob("scaling", {"seed": 7}, "high")
    said = RenderJob("self-attention", {"sentence": "Students sometimes misunderstand transformers because"}, "low")
    assert dark.label == "complexity (low)"
    assert light.label == "complexity --theme light (low)"
    assert seeded.label == "scaling --seed 7 (high)"
    assert said.label == "self-attention --sentence 'Students sometimes misunderstand transformers because' (low)"


def test_a_huge_batch_opens_with_a_count_not_every_name():
    """Poor item: 3,000 seeds printed one 27 KB line of scene names."""
    jobs = [RenderJob("scaling", {"seed": seed}, "low") for seed in range(3000)] + [RenderJob("softmax", {}, "low")]
    assert workers.named(jobs) == "scaling ×3000, softmax"
    many = [RenderJob(f"scene{index}", {}, "low") for index in range(40)]
    assert workers.named(many).endswith("and 28 more") and len(workers.named(many)) < 200


def test_the_summary_keeps_the_path_of_a_variant_that_succeeded(tmp_path, monkeypatch):
    """Poor item: with the light render failed, the dark one's path was dropped too (they shared a label)."""
    monkeypatch.setattr(workers, "WORKER", hardening_workers.light_fails)
    batch_file = tmp_path / "renders.txt"
    batch_file.write_text("softmax -q low\nsoftmax -q low --theme light\n", encoding="utf-8")
    media, cache = tmp_path / "media", tmp_path / "cache"
    result = CliRunner().invoke(
        render.main, ["batch", str(batch_file), "--media-dir", str(media), "--cache-dir", str(cache), "--jobs", "1"]
    )
    assert result.exit_code == 1
    assert result.stdout.splitlines() == [str(media / "softmax" / "low" / "softmax.mp4")]
    assert "softmax --theme light (low): FAILED" in result.stderr
    assert result.stderr.strip().splitlines()[-1] == "Error: 1 of 2 renders failed: softmax --theme light (low)"
