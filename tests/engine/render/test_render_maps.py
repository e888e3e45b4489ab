"""Every map at Discord's preview size: text a player reads is >= 11 px, labels stay inside and apart, the
pictures match their golden hashes, and no map shows its viewer what that viewer may not see.

Golden hashes are of the decoded pixels (not the PNG bytes, which vary with zlib). After a deliberate change
to a renderer, look at the new pictures and update the hashes:

    HERALD_UPDATE_GOLDEN=1 PYTHONPATH=$PWD python -m pytest tests/engine/render -q
    PYTHONPATH=$PWD python docs/maps/make.py        # and commit the new docs/maps/*.png
"""

from __future__ import annotations

import hashlib
import io
import json
import os
from pathlib import Path

import pytest
from PIL import Image

from bench.render_samples import charts, crops, lote_modern, maps
from engine.core import Viewer
from engine.render.canvas import MIN_TEXT, PREVIEW_WIDTH, Canvas
from engine.render.chart import draw_chart
from engine.rulesets import get
from engine.rulesets.freeform.regions import draw_regions, in_sight
from engine.rulesets.lote_modern.render import draw_map as draw_lote
from engine.rulesets.progress import chart_png, measures
from engine.rulesets.terra_nova.render import draw_map as draw_terra_nova
from engine.rulesets.terra_prime.render import draw_board, draw_played, just_played

GOLDEN = Path(__file__).with_name("golden.json")
SAMPLES = maps()
CROPS = crops()


def canvas_of(name: str) -> Canvas:
    if name in CROPS:
        _, make, viewer = CROPS[name]
        played = draw_played(make(), viewer)
        assert played is not None
        return played
    ruleset_id, make, viewer = SAMPLES[name]
    state = make()
    if ruleset_id == "freeform":
        visible = in_sight(state.regions, viewer.seat) if state.fog and viewer.seat else None
        return draw_regions(state.regions, state.seats, title="t", visible=visible)
    if ruleset_id == "terra-prime":
        return draw_board(state, viewer)
    if ruleset_id == "terra-nova":
        return draw_terra_nova(state, viewer)
    return draw_lote(state, viewer)


def pixels(png: bytes) -> str:
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return hashlib.sha256(f"{image.size}".encode() + image.tobytes()).hexdigest()


@pytest.mark.parametrize("name", sorted(SAMPLES) + sorted(CROPS))
def test_every_label_is_at_least_11_px_tall_at_preview_size_and_inside_the_picture(name):
    c = canvas_of(name)
    assert c.labels, "a map with no text"
    scale = PREVIEW_WIDTH / c.width
    for label in c.labels:
        assert label.size * scale >= MIN_TEXT, (label.text, label.size * scale)
        x0, y0, x1, y1 = label.box
        assert x0 >= 0 and x1 <= c.width and y0 >= 0 and y1 <= c.height, (label.text, label.box)


@pytest.mark.parametrize(("name", "most"), [("freeform", 0.0), ("freeform-ring", 0.0), ("freeform-fog-rome", 0.0),
                                           ("terra-prime", 0.35), ("terra-nova", 0.35), ("lote-modern-gm", 0.35),
                                           ("lote-modern-england", 0.35), ("terra-prime-played", 0.0)])
def test_labels_do_not_hide_one_another(name, most):
    """No label covers another; on the crowded maps (Caribbean, the Channel) at most a sliver of one."""
    c = canvas_of(name)
    boxes = [(lab.text, lab.box) for lab in c.labels]
    clashes = []
    for i, (a, box_a) in enumerate(boxes):
        for b, box_b in boxes[i + 1:]:
            w = min(box_a[2], box_b[2]) - max(box_a[0], box_b[0])
            h = min(box_a[3], box_b[3]) - max(box_a[1], box_b[1])
            smaller = min((box_a[2] - box_a[0]) * (box_a[3] - box_a[1]), (box_b[2] - box_b[0]) * (box_b[3] - box_b[1]))
            if w > 2 and h > 2 and w * h / smaller > most:
                clashes.append((a, b, round(w * h / smaller, 2)))
    assert clashes == []


def test_golden_images():
    got = {}
    for name, (ruleset_id, make, viewer) in sorted(SAMPLES.items()):
        png = get(ruleset_id).render(make(), viewer)
        assert png is not None and png[:8] == b"\x89PNG\r\n\x1a\n"
        got[name] = pixels(png)
    for name, (ruleset_id, make, viewer) in sorted(CROPS.items()):
        png = get(ruleset_id).render_focus(make(), viewer)
        assert png is not None
        got[name] = pixels(png)
    for name, (ruleset_id, states, viewer) in sorted(charts().items()):
        png = chart_png(ruleset_id, states(), viewer)
        assert png is not None
        got[name] = pixels(png)
    if os.environ.get("HERALD_UPDATE_GOLDEN"):
        GOLDEN.write_text(json.dumps(got, indent=2, sort_keys=True) + "\n")
    assert got == json.loads(GOLDEN.read_text())


def test_lote_has_a_map_once_the_gm_uploads_one_and_none_before():
    lm = get("lote-modern")
    state = lote_modern()
    png = lm.render(state, Viewer.spectator())
    assert png is not None and Image.open(io.BytesIO(png)).width == 1100
    state.world.regions.clear()
    assert lm.render(state, Viewer.spectator()) is None


def test_a_nation_sees_its_own_armies_and_routes_never_another_nations():
    lm = get("lote-modern")
    state = lote_modern()
    england, gm = Viewer.of_seat("England"), Viewer.gm()
    texts = {lab.text for lab in draw_lote(state, england).labels}
    assert any("Home Army" in t for t in texts)
    assert not any("Armee du Nord" in t for t in texts)
    assert any("Armee du Nord" in t for t in (lab.text for lab in draw_lote(state, gm).labels))
    before_england, before_gm = lm.render(state, england), lm.render(state, gm)
    france = state.nation("France")
    france.armies[0].location = "Kent"
    france.routes.clear()
    assert lm.render(state, england) == before_england
    assert lm.render(state, gm) != before_gm
    spectator = {lab.text for lab in draw_lote(state, Viewer.spectator()).labels}
    assert not any("Army" in t or "Fleet" in t for t in spectator)


def test_freeform_fog_draws_only_a_seats_regions_and_their_neighbours():
    ff = get("freeform")
    _, make, _ = SAMPLES["freeform-fog-rome"]
    state = make()
    rome = Viewer.of_seat("Rome")
    names = {lab.text for lab in draw_regions(state.regions, state.seats, title="t",
                                              visible=in_sight(state.regions, "Rome")).labels}
    assert {"Gaul", "Italia", "Iberia", "Sicilia", "Illyria"} <= names
    assert not names & {"Aegyptus", "Asia", "Graecia", "Macedonia", "Numidia"}
    before, gm_before = ff.render(state, rome), ff.render(state, Viewer.gm())
    far = next(r for r in state.regions if r.name == "Aegyptus")
    state.regions[state.regions.index(far)] = type(far)(far.name, far.x, far.y, "Carthage", far.links)
    assert ff.render(state, rome) == before           # a fogged region's holder never reaches Rome's map
    assert ff.render(state, Viewer.gm()) != gm_before
    assert ff.render(state, Viewer.spectator()) == ff.render(make(), Viewer.spectator())   # no owners shown
    assert "who holds what" in ff.view(state, Viewer.spectator()).sheet


def test_terra_prime_face_down_tiles_do_not_show_in_a_players_map():
    tp = get("terra-prime")
    _, make, _ = SAMPLES["terra-prime"]
    state = make()
    hidden = next(pos for pos in range(1, 40) if not state.tile(pos).revealed
                  and pos not in state.ships["Ana"].peeks)
    before = tp.render(state, Viewer.of_seat("Ana"))
    others = [p for p in range(1, 40) if not state.tile(p).revealed and p != hidden
              and state.tile(p).design != state.tile(hidden).design]
    state.tile(hidden).design, state.tile(others[0]).design = state.tile(others[0]).design, state.tile(hidden).design
    assert tp.render(state, Viewer.of_seat("Ana")) == before or others[0] in state.ships["Ana"].peeks


def test_terra_prime_the_sector_just_played_is_the_last_seats_and_shows_no_face_down_tile():
    tp = get("terra-prime")
    state = SAMPLES["terra-prime"][1]()
    seat = just_played(state)
    assert seat == state.seats[(state.current - 1) % len(state.seats)] != state.seat
    caption = f"{seat} just played: sector {state.ships[seat].sector}"
    played = draw_played(state, Viewer.spectator())
    assert played is not None and caption in {lab.text for lab in played.labels}
    spectator, gm = tp.render_focus(state, Viewer.spectator()), tp.render_focus(state, Viewer.gm())
    down = [p for p in range(1, len(state.tiles) + 1) if not state.tile(p).revealed]
    designs = [state.tile(p).design for p in down]
    for p, design in zip(down, designs[1:] + designs[:1], strict=True):   # every face-down tile is another now
        state.tile(p).design = design
    assert tp.render_focus(state, Viewer.spectator()) == spectator
    assert tp.render_focus(state, Viewer.gm()) != gm          # the GM's crop hints at the tiles beneath
    fresh = SAMPLES["terra-prime"][1]()
    fresh.turn, fresh.ended = 1, False
    assert tp.render_focus(fresh, Viewer.spectator()) is None   # nothing played yet


def test_the_chart_reads_at_preview_size_and_follows_the_scores():
    states = charts()["chart-terra-prime"][1]()
    lines = {seat: [(turn, float(state.ships[seat].score)) for turn, state in states] for seat in states[-1][1].seats}
    c = draw_chart(lines, title="t", unit="LP", seats=states[-1][1].seats)
    for label in c.labels:
        assert label.size * PREVIEW_WIDTH / c.width >= MIN_TEXT
    final = {f"{seat} {int(line[-1][1])}" for seat, line in lines.items()}
    assert final <= {label.text for label in c.labels}     # each line ends with its seat and latest score


def test_a_nation_charts_only_its_own_treasury_and_a_spectator_none():
    state = lote_modern()
    assert set(measures("lote-modern", state, Viewer.of_seat("France"))["treasury"].values) == {"France"}
    assert set(measures("lote-modern", state, Viewer.gm())["income"].values) == set(state.nations)
    assert measures("lote-modern", state, Viewer.spectator()) == {}
    assert chart_png("lote-modern", [(1, state)], Viewer.spectator()) is None


def test_a_seats_pending_orders_are_drawn_on_its_own_map_only():
    from engine.rulesets.freeform.regions import mentioned
    from engine.rulesets.terra_nova.render import planned

    tn = get("terra-nova")
    state = SAMPLES["terra-nova"][1]()
    lines = ["sail 2 carrack from Europe to Cuba carrying 3 soldier", "settle Puerto Rico",
             "move 3 conquistador from Hispaniola to Puerto Rico", "attack natives in Yucatan tactic charge",
             "pay 3 to Portugal"]
    places = {"Europe", "Cuba", "Puerto Rico", "Hispaniola", "Yucatan"}
    assert planned(lines, places) == [("move", "Europe", "Cuba"), ("build", "Puerto Rico", ""),
                                      ("move", "Hispaniola", "Puerto Rico"), ("attack", "Yucatan", "")]
    spain = Viewer.of_seat("Spain")
    assert tn.render_orders(state, spain, lines) != tn.render(state, spain)
    assert tn.render_orders(state, Viewer.spectator(), lines) == tn.render(state, Viewer.spectator())
    ff = get("freeform")
    ff_state = SAMPLES["freeform"][1]()
    assert mentioned(["march from Gaul to Italia", "fortify gaul", "pray"], ["Gaul", "Italia"]) == [
        ("Gaul", "Italia"), ("Gaul",)]
    rome = Viewer.of_seat("Rome")
    assert ff.render_orders(ff_state, rome, ["march from Gaul to Italia"]) != ff.render(ff_state, rome)
    fogged = SAMPLES["freeform-fog-rome"][1]()   # an order naming a fogged region draws nothing there
    assert ff.render_orders(fogged, rome, ["spy on Aegyptus"]) == ff.render(fogged, rome)


def test_a_map_files_layout_is_the_same_every_time_and_big_maps_stay_cheap():
    from engine.rulesets.lote_modern.layout import layout

    names = tuple(f"r{i}" for i in range(40))
    edges = tuple((i, (i + 1) % 40) for i in range(40))
    first = layout(names, edges)
    layout.cache_clear()
    assert layout(names, edges) == first
    assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in first)
    big = tuple(f"r{i}" for i in range(2000))
    spots = layout(big, tuple((i, i + 1) for i in range(1999)))      # a grid, not 2000² forces a round
    assert len(set(spots)) == 2000


def test_a_nations_pending_orders_are_drawn_on_its_own_lote_map_only():
    from engine.rulesets.lote_modern.render import planned

    lm = get("lote-modern")
    state = lote_modern()
    lines = ["build 4 i at London", "research steam_cruiser 20gp 1nfp", "conduit Portsmouth to Gibraltar",
             "route Holland open from London to Amsterdam 5msp", 'action Franklin EX "Atlantic Ocean" 4ap',
             "bank rates 30% 45%", "not an order at all"]
    assert planned(lines, state.world) == [("build", "Sussex", ""), ("move", "Wessex", "Granada"),
                                           ("move", "Sussex", "Holland"), ("build", "Atlantic Ocean", "")]
    england = Viewer.of_seat("England")
    drawn = lm.render_orders(state, england, lines)
    assert drawn != lm.render(state, england)
    assert "England's pending orders shown" in {lab.text for lab in draw_lote(state, england, lines).labels}
    assert lm.render_orders(state, Viewer.gm(), lines) == lm.render(state, Viewer.gm())
    assert lm.render_orders(state, Viewer.spectator(), lines) == lm.render(state, Viewer.spectator())
