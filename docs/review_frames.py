"""Frames for a fresh reviewer: one at the end of every line (after the animations it leads), one at each step's end.

Usage: ``.venv/bin/python docs/review_frames.py PACKAGE_DIR OUT_DIR`` (``PACKAGE_DIR`` is a render's folder, e.g.
``media/sentiment-attention--joe-3a43da1d/medium``). Writes ``SS-LL.png`` (step SS, line LL; ``SS-end.png`` for a
step's last frame) and ``lines.txt`` (each frame's file, its time, the caption and, where it differs, the spoken
form). See docs/reviewing.md.
"""

import json
import sys
from pathlib import Path

import av

package, out = Path(sys.argv[1]), Path(sys.argv[2])
out.mkdir(parents=True, exist_ok=True)
sections = json.loads((package / "sections.json").read_text(encoding="utf-8"))
video = next(p for p in package.glob("*.mp4"))
marks = []  # (time, name, text, spoken)
for step in sections:
    end = step["start"] + step["duration"]
    lines = step["lines"]
    for k, line in enumerate(lines):
        following = lines[k + 1]["start"] if k + 1 < len(lines) else end
        marks.append((max(line["start"], following - 0.07), f"{step['index']:02d}-{k + 1:02d}", line["text"], line["spoken"]))
    marks.append((end - 0.07, f"{step['index']:02d}-end", f"[end of step {step['index']}: {step['title']}]", ""))
marks.sort()
with av.open(str(video)) as container:
    stream = container.streams.video[0]
    pending = list(marks)
    last = None
    for frame in container.decode(stream):
        t = float(frame.pts * stream.time_base)
        while pending and t > pending[0][0]:
            (last or frame).to_image().save(out / f"{pending[0][1]}.png")
            pending.pop(0)
        last = frame
    for mark in pending:
        last.to_image().save(out / f"{mark[1]}.png")
with open(out / "lines.txt", "w", encoding="utf-8") as f:
    for t, name, text, spoken in marks:
        f.write(f"{name}.png  t={t:.2f}s\n  caption: {text}\n")
        if spoken and spoken != text:
            f.write(f"  spoken:  {spoken}\n")
print(f"{len(marks)} frames in {out}")
