"""Offline narration: a Piper voice says each caption line, cached, then mixed into one mastered track.

- :func:`..voices.resolve_voice` (re-exported here) turns ``--voice none|joe|PATH.onnx`` into a :class:`VoiceFile` (or ``None``),
  raising :class:`VoiceNotFound` (a usage error) or :class:`NarrationUnavailable` (the extra is missing).
- :class:`Narrator` is the scene kit's ``Voice``: ``speak(text)`` returns the speech's length, from
  the cache in ``<cache>/narration/`` or synthesised with Piper and cached (written to a temporary
  name and renamed; read back only when its WAV parses and its sha256 matches its record).
- :func:`narration_track` places each line's speech where the line starts in the video, and
  :func:`master` brings the track to -16 LUFS integrated with true peaks at most -1 dBTP: a gain
  from ffmpeg's EBU R128 measurement (the ``ebur128`` filter), then ffmpeg's ``alimiter`` run at
  four times the sample rate so that it catches the peaks between samples.

Synthesis uses ``noise_scale`` = ``noise_w_scale`` = 0: Piper's default noise makes two syntheses of
one sentence differ (lengths 4.67, 4.74 and 4.81 s for one line); at 0 they are identical, and the
pitch movement measured over two lines (4.47 and 4.45 semitones standard deviation) stays within
the range the default gives (4.26 to 5.50). Nobody listened: no loudspeaker here.
"""

from __future__ import annotations

import hashlib
import io
import json
import logging
import math
import wave
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Iterable

import av
import numpy as np

from ..files import write_atomic
from ..voices import (
    INSTALL,
    SYNTHESIS,
    NarrationUnavailable,
    VoiceFile,
    VoiceNotFound,
    engine_version,
    file_sha256,
    resolve_voice,
)

__all__ = [
    "VoiceFile",
    "file_sha256",
    "engine_version",
    "Narrator",
    "VoiceNotFound",
    "NarrationUnavailable",
    "SynthesisFailed",
    "resolve_voice",
    "narration_track",
    "master",
    "measure",
    "Loudness",
    "INSTALL",
    "SAMPLE_RATE",
    "TARGET_LUFS",
    "TRUE_PEAK_LIMIT",
    "SYNTHESIS",
]

log = logging.getLogger("attention_explainer")

SAMPLE_RATE = 48_000
"""The narration track's rate: Opus works at 48 kHz, and AAC is happiest there too."""

TARGET_LUFS = -16.0
"""Integrated loudness, the usual target for speech in online video."""

TRUE_PEAK_LIMIT = -1.0
"""The highest true peak allowed, in dBTP."""

LIMITER_CEILING_DB = -3.5
"""The limiter's first ceiling at four times the sample rate, lowered further when the encoded files peak higher."""

TRUE_PEAK_MARGIN = 0.2
"""Decibels kept below the true-peak limit in the encoded files, for the clips cut from the track."""

LOUDNESS_TOLERANCE = 0.25
"""How close to the target the mastering gets (the requirement is one LU)."""

CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()
"""This module's code as it was imported: a cached mastered track is only reused by the code that made it."""

CACHE_FORMAT = 1
"""Bumped when the cache's layout changes, so old entries are never misread."""


class SynthesisFailed(RuntimeError):
    """Piper could not say a line; the message gives the line and the reason."""


@dataclass
class Narrator:
    """Says lines with a Piper voice, through a cache keyed by text, voice, engine and settings."""

    voice: VoiceFile
    cache: Path
    clips: dict[str, np.ndarray] = field(default_factory=dict)
    synthesised: int = 0
    """Lines synthesised by this narrator (the rest came from the cache)."""
    _piper: object = None

    @property
    def folder(self) -> Path:
        return self.cache / "narration"

    def key(self, text: str) -> str:
        record = {
            "format": CACHE_FORMAT,
            "text": text,
            "voice": self.voice.sha256,
            "config": self.voice.config_sha256,
            "engine": engine_version(),
            "settings": SYNTHESIS,
        }
        return hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()

    def speak(self, text: str) -> float:
        """Prepare ``text`` as speech (from the cache, or synthesised and cached); return its length in seconds."""
        if not text.strip():
            self.clips[text] = np.zeros(0, np.int16)
            return 0.0
        if text not in self.clips:
            samples = self._read(text)
            if samples is None:
                samples = self._synthesise(text)
                self._write(text, samples)
            self.clips[text] = samples
        return len(self.clips[text]) / self.sample_rate

    @property
    def sample_rate(self) -> int:
        return int(json.loads(self.voice.config.read_text(encoding="utf-8"))["audio"]["sample_rate"])

    def clip(self, text: str) -> np.ndarray:
        """The speech of a line already said, as 16-bit samples at the voice's rate."""
        if text not in self.clips:
            self.speak(text)
        return self.clips[text]

    def _paths(self, text: str) -> tuple[Path, Path]:
        key = self.key(text)
        return self.folder / f"{key}.wav", self.folder / f"{key}.json"

    def _read(self, text: str) -> np.ndarray | None:
        """The cached speech of ``text``, or ``None`` when missing or corrupt (a corrupt entry is warned about)."""
        audio, record = self._paths(text)
        if not audio.exists() and not record.exists():
            return None
        try:
            facts = json.loads(record.read_text(encoding="utf-8"))
            data = audio.read_bytes()
            if (
                not isinstance(facts, dict)
                or facts.get("text") != text
                or facts.get("sha256") != hashlib.sha256(data).hexdigest()
            ):
                raise ValueError("its bytes do not match their record")
            with wave.open(io.BytesIO(data)) as reader:
                if (reader.getnchannels(), reader.getsampwidth(), reader.getframerate()) != (1, 2, self.sample_rate):
                    raise ValueError("not 16-bit mono at the voice's rate")
                samples = np.frombuffer(reader.readframes(reader.getnframes()), dtype="<i2")
            if len(samples) != facts.get("samples") or not len(samples):
                raise ValueError("wrong length")
            return samples.astype(np.int16)
        except (OSError, ValueError, EOFError, wave.Error) as error:
            log.warning("narration cache entry %s unreadable (%s): synthesising it again", audio.name, error)
            return None

    def _write(self, text: str, samples: np.ndarray) -> None:
        audio, record = self._paths(text)
        buffer = io.BytesIO()
        with wave.open(buffer, "wb") as writer:
            writer.setnchannels(1)
            writer.setsampwidth(2)
            writer.setframerate(self.sample_rate)
            writer.writeframes(samples.astype("<i2").tobytes())
        data = buffer.getvalue()
        facts = {"text": text, "samples": len(samples), "sha256": hashlib.sha256(data).hexdigest(), "voice": self.voice.name}
        try:
            write_atomic(audio, data)
            write_atomic(record, json.dumps(facts, ensure_ascii=False).encode())
        except OSError as error:  # a cache that cannot be written costs a synthesis next time, nothing more
            log.warning("narration cache not written (%s)", error)

    def _synthesise(self, text: str) -> np.ndarray:
        try:
            from piper import PiperVoice, SynthesisConfig

            if self._piper is None:
                self._piper = PiperVoice.load(self.voice.model, config_path=self.voice.config)
            settings = SynthesisConfig(**SYNTHESIS)
            chunks = [chunk.audio_int16_array for chunk in self._piper.synthesize(text, syn_config=settings)]
        except Exception as error:
            raise SynthesisFailed(
                f"voice {self.voice.name} could not say {text[:60]!r}: {type(error).__name__}: {error}"
            ) from error
        if not chunks:
            raise SynthesisFailed(f"voice {self.voice.name} gave no audio for {text[:60]!r}")
        self.synthesised += 1
        return np.concatenate(chunks).astype(np.int16)


# --- the track -----------------------------------------------------------------


def _resample(samples: np.ndarray, rate: int) -> np.ndarray:
    """16-bit samples at ``rate`` as floats at :data:`SAMPLE_RATE` (a polyphase filter: the same input, the same output)."""
    from scipy.signal import resample_poly

    ratio = Fraction(SAMPLE_RATE, rate)
    return resample_poly(samples.astype(np.float64) / 32768.0, ratio.numerator, ratio.denominator)


def narration_track(
    lines: Iterable[tuple[float, str]], narrator: Narrator, seconds: float, parts: Iterable[tuple[float, float]] = ()
) -> np.ndarray:
    """The mastered narration of a video ``seconds`` long: each ``(start, spoken)`` line's speech from ``start``.

    Mastering costs seconds per minute of track, so the result is cached too, keyed by the lines,
    their times, the voice and this module's code; a cached track is checked like a cached line.
    """
    lines = [(round(start, 6), spoken) for start, spoken in lines]
    parts = [(round(start, 6), round(length, 6)) for start, length in parts]
    record = {"lines": lines, "seconds": round(seconds, 6), "speech": [narrator.key(spoken) for _, spoken in lines if spoken]}
    record["parts"] = parts
    record["code"] = CODE
    key = hashlib.sha256(json.dumps(record, sort_keys=True, ensure_ascii=False).encode()).hexdigest()
    path = narrator.folder / "tracks" / f"{key}.f32"
    track = _read_track(path, round(seconds * SAMPLE_RATE))
    if track is not None:
        return track
    track = np.zeros(round(seconds * SAMPLE_RATE), np.float64)
    for start, spoken in lines:
        if not spoken:
            continue
        speech = _resample(narrator.clip(spoken), narrator.sample_rate)
        first = round(start * SAMPLE_RATE)
        end = min(len(track), first + len(speech))
        track[first:end] += speech[: end - first]
    mastered = master(track, parts)
    try:
        data = mastered.astype("<f4").tobytes()
        write_atomic(path, data)
        write_atomic(path.with_suffix(".json"), json.dumps({"sha256": hashlib.sha256(data).hexdigest()}).encode())
    except OSError as error:
        log.warning("narration track not cached (%s)", error)
    return mastered


def _read_track(path: Path, samples: int) -> np.ndarray | None:
    """A cached mastered track of ``samples`` samples, or ``None`` when missing or corrupt."""
    if not path.exists():
        return None
    try:
        data = path.read_bytes()
        facts = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
        if not isinstance(facts, dict) or facts.get("sha256") != hashlib.sha256(data).hexdigest() or len(data) != 4 * samples:
            raise ValueError("its bytes do not match their record")
        return np.frombuffer(data, dtype="<f4").astype(np.float32)
    except (OSError, ValueError) as error:
        log.warning("cached narration track %s unreadable (%s): mastering it again", path.name, error)
        return None


@dataclass(frozen=True)
class Loudness:
    """An EBU R128 measurement: integrated loudness (LUFS) and true peak (dBTP)."""

    integrated: float
    true_peak: float


def _frames(samples: np.ndarray, rate: int, size: int = 4800):
    for first in range(0, len(samples), size):
        frame = av.AudioFrame.from_ndarray(
            np.ascontiguousarray(samples[None, first : first + size], np.float32), format="flt", layout="mono"
        )
        frame.sample_rate, frame.pts, frame.time_base = rate, first, Fraction(1, rate)
        yield frame


def _run(samples: np.ndarray, rate: int, filters: list[tuple[str, str]]) -> list[av.AudioFrame]:
    """Push ``samples`` through a chain of ffmpeg filters; the frames that come out."""
    graph = av.filter.Graph()
    nodes = [graph.add_abuffer(sample_rate=rate, format="flt", layout="mono", time_base=Fraction(1, rate))]
    nodes += [graph.add(name, args) for name, args in filters]
    nodes.append(graph.add("abuffersink"))
    for first, second in zip(nodes, nodes[1:]):
        first.link_to(second)
    graph.configure()
    out: list[av.AudioFrame] = []

    def drain():
        while True:
            try:
                out.append(graph.pull())
            except (av.BlockingIOError, av.EOFError):
                return

    for frame in _frames(samples, rate):
        graph.push(frame)
        drain()
    graph.push(None)
    drain()
    return out


def measure(samples: np.ndarray, rate: int = SAMPLE_RATE, true_peak: bool = True) -> Loudness:
    """Integrated loudness and true peak (4x oversampled) of a mono track, by ffmpeg's ``ebur128`` filter.

    Without ``true_peak`` the peak is not measured (it costs as much again) and reported as ``nan``.
    """
    frames = _run(samples, rate, [("ebur128", "metadata=1" + (":peak=true" if true_peak else ""))])
    readings = [frame.metadata["lavfi.r128.I"] for frame in frames if "lavfi.r128.I" in frame.metadata]
    integrated = float(readings[-1]) if readings else -math.inf
    if not true_peak:
        return Loudness(integrated, math.nan)
    peak = max(float(frame.metadata.get("lavfi.r128.true_peak", 0.0)) for frame in frames)
    return Loudness(integrated, 20 * math.log10(peak) if peak > 0 else -math.inf)


def _gain_and_limit(samples: np.ndarray, gain_db: float, ceiling_db: float) -> np.ndarray:
    ceiling = 10 ** (ceiling_db / 20)
    filters = [
        ("volume", f"volume={gain_db:.6f}dB:precision=double"),
        ("aresample", str(4 * SAMPLE_RATE)),
        ("alimiter", f"limit={ceiling:.6f}:attack=5:release=50:level=disabled:latency=1"),
        ("aresample", str(SAMPLE_RATE)),
    ]
    out = np.concatenate([frame.to_ndarray().reshape(-1) for frame in _run(samples, SAMPLE_RATE, filters)])
    result = np.zeros(len(samples), np.float32)
    result[: min(len(out), len(samples))] = out[: len(samples)]
    return result


def _to_loudness(samples: np.ndarray, ceiling_db: float) -> np.ndarray:
    """Gain, then the limiter at ``ceiling_db``, with the gain found by the secant method on the measured loudness.

    The limiter takes loudness off with the peaks (about half of each extra decibel of gain),
    so the gain is measured again: two or three rounds of about a second per minute of track.
    """
    gains, levels = [TARGET_LUFS - measure(samples, true_peak=False).integrated], []
    for _ in range(6):
        result = _gain_and_limit(samples, gains[-1], ceiling_db)
        levels.append(measure(result, true_peak=False).integrated)
        if abs(levels[-1] - TARGET_LUFS) <= LOUDNESS_TOLERANCE:
            break
        slope = 0.5 if len(levels) < 2 else (levels[-1] - levels[-2]) / (gains[-1] - gains[-2])
        gains.append(gains[-1] + (TARGET_LUFS - levels[-1]) / max(slope, 0.1))
    return result


def encoded_true_peak(samples: np.ndarray, parts: Iterable[tuple[float, float]] = ()) -> float:
    """The highest true peak of ``samples`` once encoded as AAC and as Opus and decoded again (dBTP).

    ``parts`` (start and length in seconds) are the step clips, each encoded on its own as AAC:
    a clip's encoding can peak where the whole track's does not.
    """
    peaks = []
    pieces = [("mp4", samples), ("webm", samples)] + [
        ("mp4", samples[round(start * SAMPLE_RATE) : round((start + length) * SAMPLE_RATE)]) for start, length in parts
    ]
    for kind, piece in pieces:
        if not np.any(piece):
            continue
        container_format = kind
        buffer = io.BytesIO()
        with av.open(buffer, "w", format=container_format) as container:
            stream, packets = add_audio(container, kind, piece)
            for packet in packets:
                container.mux(packet)
        buffer.seek(0)
        with av.open(buffer) as container:
            decoded = np.concatenate([frame.to_ndarray().reshape(-1) for frame in container.decode(audio=0)])
        peaks.append(measure(decoded).true_peak)
    return max(peaks, default=-math.inf)


def master(samples: np.ndarray, parts: Iterable[tuple[float, float]] = ()) -> np.ndarray:
    """``samples`` at :data:`TARGET_LUFS` integrated (within :data:`LOUDNESS_TOLERANCE`) with true peaks at most
    :data:`TRUE_PEAK_LIMIT`, as heard from the AAC and Opus files, not just before encoding.

    A plain gain to -16 LUFS leaves Piper's peaks above full scale (+4.9 dBTP measured on a
    scene's lines), so the gain is followed by a limiter. Lossy encoding raises peaks again
    (the AAC of one scene peaked 2.3 dB above the limiter's ceiling), so the track is encoded,
    decoded and measured, and the ceiling lowered by what the codecs added while it is too high.
    """
    if not np.any(samples):
        return samples.astype(np.float32)
    ceiling = LIMITER_CEILING_DB
    for _ in range(4):
        result = _to_loudness(samples, ceiling)
        excess = encoded_true_peak(result, parts) - (TRUE_PEAK_LIMIT - TRUE_PEAK_MARGIN)
        log.info("narration: limiter ceiling %.1f dBFS gives true peaks %.2f dB over the encoded limit", ceiling, excess)
        if excess <= 0:
            break
        ceiling -= excess + 0.1
    return result


# --- into the videos -------------------------------------------------------------

AUDIO_CODECS = {"mp4": ("aac", "fltp", 96_000), "webm": ("libopus", "flt", 64_000)}
"""The sound of each container: AAC in the MP4 (every browser plays it), Opus in the WebM."""


def add_audio(container, kind: str, samples: np.ndarray):
    """Add a mono audio stream to ``container`` and encode ``samples`` (floats at :data:`SAMPLE_RATE`) for it.

    Returns the stream and its packets, to be muxed in time order with the video's.
    """
    codec, sample_format, bit_rate = AUDIO_CODECS[kind]
    stream = container.add_stream(codec, rate=SAMPLE_RATE, layout="mono")
    stream.bit_rate = bit_rate
    stream.time_base = Fraction(1, SAMPLE_RATE)
    if codec == "libopus":
        stream.options = {"application": "voip"}
    context = stream.codec_context
    context.open()  # the frame size is known once the encoder is open
    size = context.frame_size or 1024
    packets = []
    data = np.asarray(samples, np.float32)
    for first in range(0, len(data), size):
        chunk = data[first : first + size]
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(chunk[None, :]), format=sample_format, layout="mono")
        frame.sample_rate, frame.pts, frame.time_base = SAMPLE_RATE, first, Fraction(1, SAMPLE_RATE)
        packets.extend(stream.encode(frame))
    packets.extend(stream.encode(None))
    return stream, packets


def mux_in_time_order(container, video: list, audio: list) -> None:
    """Mux video and audio packets interleaved by decoding time, as players read them."""

    def when(packet) -> float:
        return float(packet.dts * packet.time_base) if packet.dts is not None else 0.0

    tagged = [(when(p), 0, k, p) for k, p in enumerate(video)] + [(when(p), 1, k, p) for k, p in enumerate(audio)]
    for *_, packet in sorted(tagged, key=lambda entry: entry[:3]):
        container.mux(packet)
