"""Redraw docs/maps/: each sample map, scaled to Discord's ~550 px preview, and the full-size file beside it.

    PYTHONPATH=$PWD python docs/maps/make.py
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image

from bench.render_samples import charts, crops, maps
from engine.render.canvas import PREVIEW_WIDTH
from engine.rulesets import get
from engine.rulesets.progress import chart_png

HERE = Path(__file__).resolve().parent


def main(only: list[str]) -> None:
    pictures = {name: (lambda r=r, m=m, v=v: get(r).render(m(), v)) for name, (r, m, v) in maps().items()}
    pictures |= {name: (lambda r=r, m=m, v=v: get(r).render_focus(m(), v)) for name, (r, m, v) in crops().items()}
    pictures |= {name: (lambda r=r, m=m, v=v: chart_png(r, m(), v)) for name, (r, m, v) in charts().items()}
    for name, draw in pictures.items():
        if only and name not in only:
            continue
        png = draw()
        assert png is not None, name
        image = Image.open(io.BytesIO(png))
        preview = image.resize((PREVIEW_WIDTH, round(image.height * PREVIEW_WIDTH / image.width)), Image.LANCZOS)
        preview.save(HERE / f"{name}-preview.png", optimize=True)
        print(name, image.size, "->", preview.size)


if __name__ == "__main__":
    main(sys.argv[1:])
