"""The map: a PNG of the New World (and the Indies when played), readable at Discord preview size."""

import io

from PIL import Image

from engine.core import Viewer

from .conftest import new_game


def picture(tn, state):
    png = tn.render(state, Viewer.spectator())
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return Image.open(io.BytesIO(png))


def test_the_map_is_a_png_of_a_discord_friendly_size(tn):
    image = picture(tn, new_game())
    assert 1000 <= image.width <= 1600 and 800 <= image.height <= 1400
    assert len(tn.render(new_game(), Viewer.spectator())) < 2_000_000


def test_holdings_and_forces_change_the_picture_and_the_indies_appear_with_the_expansion(tn):
    plain = new_game()
    before = tn.render(plain, Viewer.spectator())
    plain.holding("Cuba", "Spain").settlements = 1
    plain.force("Cuba", "Spain").ships["carrack"] = 2
    assert tn.render(plain, Viewer.spectator()) != before
    indies = new_game(east_indies=True)
    assert tn.render(indies, Viewer.spectator()) != tn.render(new_game(), Viewer.spectator())
