"""Issue 34, failure 3: a scheduler address where something accepts and never speaks Dask ends in one line, within a deadline."""

from __future__ import annotations

import http.server
import json
import re
import socket
import subprocess
import sys
import tempfile
import threading

import pytest
from click.testing import CliRunner

import render
from attention_explainer.pipeline import cluster

from .helpers import wait_for

pytest.importorskip("distributed")


def run_batch(tmp_path, address):
    batch_file = tmp_path / "renders.txt"
    batch_file.write_text("softmax -q low\n", encoding="utf-8")
    media, cache = tmp_path / "media", tmp_path / "cache"
    arguments = ["batch", str(batch_file), "--media-dir", str(media), "--cache-dir", str(cache), "--scheduler", address]
    return CliRunner().invoke(render.main, arguments), media


@pytest.fixture
def silent_server():
    """A port that accepts connections and never writes a byte."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()
    accepted = []

    def accept():
        try:
            while True:
                accepted.append(server.accept()[0])
        except OSError:
            pass

    threading.Thread(target=accept, daemon=True).start()
    yield server.getsockname()[1], accepted
    server.close()
    for connection in accepted:
        connection.close()


@pytest.fixture
def http_server():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), http.server.SimpleHTTPRequestHandler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield server.server_address[1]
    server.shutdown()
    server.server_close()


def check_refused(result, media, address):
    assert result.exit_code == 1, result.output
    assert result.output.strip().splitlines() == [f"Error: no Dask scheduler answered at {address} within 1 s"]
    assert not (media / "softmax").exists()


def test_a_peer_that_accepts_and_never_answers(tmp_path, monkeypatch, silent_server):
    port, accepted = silent_server
    monkeypatch.setattr(cluster, "HANDSHAKE_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{port}"
    result, media = run_batch(tmp_path, address)
    assert accepted, "the probe never connected"
    check_refused(result, media, address)


def test_an_http_server(tmp_path, monkeypatch, http_server):
    monkeypatch.setattr(cluster, "HANDSHAKE_SECONDS", 1.0)
    address = f"tcp://127.0.0.1:{http_server}"
    result, media = run_batch(tmp_path, address)
    check_refused(result, media, address)


def test_a_peer_that_answers_something_else_is_named(monkeypatch):
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen()

    def greet():
        connection, _ = server.accept()
        connection.sendall(b"SSH-2.0-OpenSSH_9.2p1 Debian\r\n")
        connection.close()

    threading.Thread(target=greet, daemon=True).start()
    address = f"tcp://127.0.0.1:{server.getsockname()[1]}"
    with pytest.raises(cluster.ClusterUnavailable, match="not as a Dask scheduler does"):
        cluster.probe_scheduler(address, 5)
    server.close()


def test_a_real_scheduler_passes_the_probe(tmp_path):
    scheduler_file = tmp_path / "scheduler.json"
    command = [sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1", "--port", "0"]
    command += ["--no-dashboard", "--scheduler-file", str(scheduler_file)]
    with (tmp_path / "scheduler.log").open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    try:
        wait_for(lambda: scheduler_file.exists() and scheduler_file.stat().st_size > 0, 60, "the scheduler")
        address = json.loads(scheduler_file.read_text(encoding="utf-8"))["address"]
        cluster.probe_scheduler(address, 30)  # raises if the greeting is not recognised
    finally:
        process.terminate()
        process.wait(30)


def test_a_render_that_fails_on_a_worker_is_reported_in_one_line(tmp_path, monkeypatch):
    """Poor item: a broken voice file gave an 800-character traceback fragment on a cluster, one line locally."""
    from attention_explainer.options import RenderJob

    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the worker's folder
    voice = tmp_path / "broken.onnx"
    voice.write_bytes(b"not a voice model")
    (tmp_path / "broken.onnx.json").write_text("{not json", encoding="utf-8")
    spec = cluster.job_spec(RenderJob("softmax", {}, "low", voice=str(voice)))
    with pytest.raises(cluster.RenderFailed) as failure:
        cluster.render_task(spec, cancelled=lambda: False)
    message = str(failure.value)
    assert "\n" not in message and "Traceback" not in message and " | " not in message
    assert len(message) < 300 and re.match(r"[A-Za-z]+: \S", message), message  # the error's type, then what it says


def test_the_failure_line_of_a_log():
    log = "Traceback (most recent call last):\n  File x\nValueError: bad\nrender failed: ValueError: bad voice\n"
    assert cluster.failure_line(log, 1) == "ValueError: bad voice"
    assert cluster.failure_line("killed\n", -9) == "the render process exited with code -9: killed"
