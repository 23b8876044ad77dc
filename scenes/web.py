"""Pages for the course page and the classroom: the gallery and the step-through presenter.

Both are plain HTML, CSS and a little JavaScript, with every path relative and every
piece of data inline, so they work opened straight from disk, copied to any web
server, and offline: no CDN, no web font, no request leaves the machine.
"""

from __future__ import annotations

import html
import json
from pathlib import Path

from . import SCENES
from .inputs import OPTIONS

QUALITIES = ("low", "medium", "high", "4k")

__all__ = ["write_presenter", "write_gallery", "embed_snippet", "parse_vtt"]

STYLE = """
:root { color-scheme: dark; --bg: #111318; --fg: #f2f2f2; --muted: #b4b9c6; --accent: #f0e442; --card: #1b1e26; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 16px/1.5 "DejaVu Sans", Verdana, sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 24px; }
a { color: var(--accent); }
.muted { color: var(--muted); }
video { width: 100%; background: #000; border-radius: 6px; }
pre { background: #0b0c10; padding: 12px; overflow-x: auto; border-radius: 6px; font-size: 13px; }
button { font: inherit; background: var(--card); color: var(--fg); border: 1px solid var(--muted); border-radius: 4px; padding: 4px 12px; cursor: pointer; }
"""


def _esc(text: str) -> str:
    return html.escape(str(text), quote=True)


def embed_snippet(scene: str, video_path: str, captions_path: str, poster_path: str) -> str:
    """The ``<video>`` element a teacher pastes into a course page, captions on by default."""
    return (
        f'<video controls preload="metadata" width="960" poster="{_esc(poster_path)}">\n'
        f'  <source src="{_esc(video_path)}" type="video/mp4">\n'
        f'  <track kind="captions" src="{_esc(captions_path)}" srclang="en" label="English" default>\n'
        f"  Your browser cannot play this video; see the transcript.\n"
        f"</video>"
    )


PRESENTER = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>{title} · presenter</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}
body {{ display: flex; flex-direction: column; height: 100vh; }}
header {{ display: flex; gap: 16px; align-items: baseline; padding: 10px 20px; }}
#stage {{ flex: 1; display: flex; align-items: center; justify-content: center; min-height: 0; }}
#stage video {{ max-height: 100%; max-width: 100%; width: auto; border-radius: 0; }}
#caption {{ padding: 10px 20px 16px; font-size: 20px; min-height: 4em; }}
#help {{ margin-left: auto; }}
</style>
</head>
<body>
<header>
  <strong id="counter"></strong>
  <span id="step-title"></span>
  <span id="help" class="muted">→ or space: next · ←: previous · Home: first · F: full screen · C: caption</span>
</header>
<div id="stage">
  <video id="clip-a" muted playsinline preload="auto"></video>
  <video id="clip-b" muted playsinline preload="auto" hidden></video>
</div>
<div id="caption"></div>
<script type="application/json" id="steps">{steps}</script>
<script>
"use strict";
const steps = JSON.parse(document.getElementById("steps").textContent);
let shown = document.getElementById("clip-a");
let spare = document.getElementById("clip-b");
let current = 0;

function load(video, index) {{
  // Each video remembers which step it holds, so a preloaded clip is reused, not fetched again.
  if (video.dataset.index !== String(index)) {{
    video.src = steps[index].file;
    video.dataset.index = String(index);
    video.load();
  }}
}}

function go(index) {{
  index = Math.max(0, Math.min(steps.length - 1, index));
  current = index;
  if (spare.dataset.index === String(index)) {{
    [shown, spare] = [spare, shown];  // the next clip is already loaded: swap, no gap
  }} else {{
    load(shown, index);
  }}
  spare.pause();
  spare.hidden = true;
  shown.hidden = false;
  shown.currentTime = 0;
  shown.play().catch(() => {{}});
  document.getElementById("counter").textContent = `Step ${{index + 1}} of ${{steps.length}}`;
  document.getElementById("step-title").textContent = steps[index].name.replace(/-/g, " ");
  document.getElementById("caption").textContent = steps[index].caption;
  document.body.dataset.step = String(index);
  if (index + 1 < steps.length) load(spare, index + 1);
}}

document.addEventListener("keydown", (event) => {{
  if (["ArrowRight", " ", "PageDown"].includes(event.key)) go(current + 1);
  else if (["ArrowLeft", "PageUp"].includes(event.key)) go(current - 1);
  else if (event.key === "Home") go(0);
  else if (event.key === "f" || event.key === "F") {{
    if (document.fullscreenElement) document.exitFullscreen(); else document.documentElement.requestFullscreen().catch(() => {{}});
  }} else if (event.key === "c" || event.key === "C") {{
    const caption = document.getElementById("caption");
    caption.hidden = !caption.hidden;
  }} else return;
  event.preventDefault();
}});
go(0);
</script>
</body>
</html>
"""


def write_presenter(package: Path, title: str, sections: list[dict]) -> Path:
    """Write ``present.html``: plays one step, stops at its end, waits for a key."""
    steps = [{"name": s["name"], "caption": s["caption"], "file": s["file"]} for s in sections]
    # "</" inside the inline JSON would end the script element early; \u003c keeps it data.
    data = json.dumps(steps, ensure_ascii=False).replace("</", "<\\/")
    page = PRESENTER.format(title=_esc(title), style=STYLE, steps=data)
    target = package / "present.html"
    target.write_text(page, encoding="utf-8")
    return target


GALLERY = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Attention, explained with real numbers</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>{style}
article {{ background: var(--card); border-radius: 8px; padding: 20px; margin: 24px 0; }}
article h2 {{ margin: 0 0 4px; }}
.files a {{ margin-right: 12px; white-space: nowrap; }}
</style>
</head>
<body>
<main>
<h1>Attention, explained with real numbers</h1>
<p class="muted">Every number in these videos was computed by <code>attention_math</code> and checked against PyTorch.
Captions are on by default; each video has a transcript, per-step clips and a step-through presenter.</p>
{articles}
{empty}
</main>
<script>
"use strict";
for (const video of document.querySelectorAll("video")) {{
  if (location.protocol === "file:") {{
    // Browsers refuse <track> files on pages opened from disk, so the same cues come inline.
    const track = video.addTextTrack("captions", "English", "en");
    for (const cue of JSON.parse(video.nextElementSibling.textContent)) track.addCue(new VTTCue(cue.start, cue.end, cue.text));
  }} else {{
    // Added here rather than in the markup, so that a page opened from disk never requests it.
    const track = Object.assign(document.createElement("track"), {{kind: "captions", src: video.dataset.captions, srclang: "en", label: "English", default: true}});
    video.appendChild(track);
  }}
  // Captions on by default, whatever the browser's own setting.
  for (const track of video.textTracks) track.mode = "showing";
}}
for (const button of document.querySelectorAll("button[data-copy]")) {{
  button.addEventListener("click", () => {{
    const text = document.getElementById(button.dataset.copy).textContent;
    const done = () => {{ button.textContent = "Copied"; }};
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done);
    else {{
      const area = document.createElement("textarea");
      area.value = text; document.body.appendChild(area); area.select();
      document.execCommand("copy"); area.remove(); done();
    }}
  }});
}}
</script>
</body>
</html>
"""

ARTICLE = """<article id="{anchor}">
  <h2>{title}</h2>
  <p class="muted">{description} <span>({quality}, {theme} theme, {duration})</span></p>{inputs}
  <video controls preload="metadata" poster="{folder}/poster.png" data-captions="{folder}/captions.vtt">
    {sources}
  </video>
  <script type="application/json" class="cues">{cues}</script>
  <p class="files">{links}</p>
  <p><strong>Embed in a course page</strong> <button data-copy="embed-{anchor}">Copy</button></p>
  <pre id="embed-{anchor}">{snippet}</pre>
</article>"""

FILE_LINKS = (
    ("present.html", "Present step by step"),
    ("{scene}.mp4", "MP4"),
    ("{scene}.webm", "WebM"),
    ("captions.vtt", "Captions (VTT)"),
    ("captions.srt", "Captions (SRT)"),
    ("transcript.txt", "Transcript"),
    ("worksheet.html", "Worksheet"),
    ("sections.json", "Steps"),
    ("trace.json", "Numbers (trace)"),
    ("manifest.json", "Manifest"),
    ("preview.gif", "Preview GIF"),
)


def parse_vtt(text: str) -> list[dict]:
    """The cues of a WebVTT file as ``{"start", "end", "text"}``: seconds, and the text as in the
    file, still escaped, because ``VTTCue`` parses cue text the way a ``<track>`` does."""

    def seconds(stamp: str) -> float:
        hours, minutes, rest = stamp.split(":")
        return int(hours) * 3600 + int(minutes) * 60 + float(rest)

    cues = []
    for block in text.split("\n\n")[1:]:
        lines = block.strip().splitlines()
        timing = next((k for k, line in enumerate(lines) if "-->" in line), None)
        if timing is None:
            continue
        start, end = (part.strip() for part in lines[timing].split("-->"))
        cues.append({"start": seconds(start), "end": seconds(end), "text": "\n".join(lines[timing + 1 :])})
    return cues


def _describe_inputs(inputs: dict) -> str:
    """A line naming a render's own settings (a teacher's sentence, seed...), escaped; empty for the defaults."""
    if not inputs:
        return ""
    parts = [f"{_esc(OPTIONS[key].flag if key in OPTIONS else key)} <q>{_esc(str(value))}</q>" for key, value in sorted(inputs.items())]
    return '\n  <p class="inputs">Rendered with ' + ", ".join(parts) + "</p>"


def write_gallery(media_root: Path | str) -> Path:
    """Write ``media_root/index.html`` listing every finished render found under it."""
    media_root = Path(media_root)
    media_root.mkdir(parents=True, exist_ok=True)
    order = {name: index for index, name in enumerate(SCENES)}
    quality_order = {name: index for index, name in enumerate(QUALITIES)}
    manifests = {path: json.loads(path.read_text(encoding="utf-8")) for path in media_root.glob("*/*/manifest.json")}

    def teaching_order(path: Path):
        # A scene's own renders first, then its renders with a teacher's settings, each by quality.
        scene = manifests[path]["scene"]
        return (order.get(scene, len(order)), bool(manifests[path].get("inputs")), quality_order.get(path.parent.name, 9), str(path))

    articles = []
    for manifest_path in sorted(manifests, key=teaching_order):
        manifest = manifests[manifest_path]
        package = manifest_path.parent
        folder = package.relative_to(media_root).as_posix()
        scene = manifest["scene"]
        sources = [f'<source src="{_esc(folder)}/{_esc(scene)}.mp4" type="video/mp4">']
        if (package / f"{scene}.webm").exists():
            sources.append(f'<source src="{_esc(folder)}/{_esc(scene)}.webm" type="video/webm">')
        links = [
            f'<a href="{_esc(folder)}/{_esc(file.format(scene=scene))}">{_esc(text)}</a>'
            for file, text in FILE_LINKS
            if (package / file.format(scene=scene)).exists()
        ]
        seconds = sum(s["duration"] for s in json.loads((package / "sections.json").read_text(encoding="utf-8")))
        cues = json.dumps(parse_vtt((package / "captions.vtt").read_text(encoding="utf-8")), ensure_ascii=False)
        snippet = embed_snippet(scene, f"{folder}/{scene}.mp4", f"{folder}/captions.vtt", f"{folder}/poster.png")
        articles.append(
            ARTICLE.format(
                anchor=_esc(folder.replace("/", "-")),
                title=_esc(manifest["title"]),
                description=_esc(manifest["description"]),
                quality=_esc(manifest["settings"]["quality"]),
                inputs=_describe_inputs(manifest.get("inputs") or {}),
                theme=_esc(manifest["settings"]["theme"]),
                duration=f"{int(seconds // 60)}:{int(seconds % 60):02d}",
                folder=_esc(folder),
                sources="\n    ".join(sources),
                links=" ".join(links),
                snippet=_esc(snippet),
                cues=cues.replace("</", "<\\/"),
            )
        )
    empty = "" if articles else '<p>No videos rendered yet: run <code>python render.py scaling --quality high</code>.</p>'
    target = media_root / "index.html"
    target.write_text(GALLERY.format(style=STYLE, articles="\n".join(articles), empty=empty), encoding="utf-8")
    return target
