"""The daily digest's day and the posts around a phase, through the fake Discord: the digest closes at midnight
in the campaign's time zone and is published at once when turned off; a phase opened during a pause says what
its deadline really is; a rollback and a start each make one post with the map."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.console.runner import Console
from bot.service import cards

GAUL = """
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@scipio /campaign join seat:Rome
@hanno /campaign join seat:Carthage
"""


def thread_of(con: Console, name: str) -> int:
    return next(cid for cid, c in con.fake.channels.items() if c["name"] == name)


def cards_in(con: Console, channel: int) -> list[dict[str, Any]]:
    return [m for m in con.fake.messages.values() if int(m["channel_id"]) == channel and m.get("embeds")]


def posts_in(con: Console, channel: int) -> list[dict[str, Any]]:
    return [m for m in con.fake.messages.values() if int(m["channel_id"]) == channel]


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


# -- the daily digest ------------------------------------------------------------------------------------------
async def test_the_digest_day_ends_at_midnight_in_the_campaigns_time_zone(lite: Console) -> None:
    """The console's clock starts at 12:00 UTC, 07:00 in New York: the day ends at 05:00 UTC, not at 00:00."""
    await lite.run_script(GAUL + """
@gaius /gm settings key:time_zone value:America/New_York
@gaius /gm settings key:digest value:daily
@gaius /campaign start
@gaius /gm advance
@gaius press "Advance anyway"
""")
    thread = thread_of(lite, "Gaul")
    assert cards_in(lite, thread) == []
    await lite.run_line("clock +16h")  # 04:00 UTC: past midnight in London, still 23:00 in New York
    assert cards_in(lite, thread) == [], "the day has not ended in New York"
    await lite.run_line("clock +1h")   # 05:00 UTC: midnight in New York
    posted = cards_in(lite, thread)
    assert len(posted) == 1
    said_ = cards.as_text(posted[0]["embeds"])
    assert "the day's news, 2026-01-05" in said_ and "2 phase(s) resolved" in said_


async def test_a_time_zone_changed_mid_day_moves_the_end_of_the_day(lite: Console) -> None:
    await lite.run_script(GAUL + """
@gaius /gm settings key:digest value:daily
@gaius /campaign start
@gaius /gm settings key:time_zone value:Asia/Tokyo
""")
    thread = thread_of(lite, "Gaul")
    await lite.run_line("clock +11h")  # 23:00 UTC is 08:00 tomorrow in Tokyo: its midnight (15:00 UTC) has passed
    posted = cards_in(lite, thread)
    assert len(posted) == 1 and "1 phase(s) resolved" in cards.as_text(posted[0]["embeds"])


async def test_turning_the_digest_off_publishes_what_was_gathered_at_once(lite: Console) -> None:
    await lite.run_script(GAUL + """
@gaius /gm settings key:digest value:daily
@gaius /campaign start
@gaius /gm advance
@gaius press "Advance anyway"
""")
    thread = thread_of(lite, "Gaul")
    assert cards_in(lite, thread) == []
    await lite.run_line("@gaius /gm settings key:digest value:off")
    posted = cards_in(lite, thread)
    assert len(posted) == 1 and "2 phase(s) resolved" in cards.as_text(posted[0]["embeds"])
    await lite.run_line("clock +2d")
    assert len(cards_in(lite, thread)) == 1, "nothing is left to publish at midnight"
    await lite.run_line("@gaius /gm advance")
    await lite.run_line('@gaius press "Advance anyway"')
    assert len(cards_in(lite, thread)) == 2, "with the digest off, the next phase posts at once"


# -- a phase opened during a pause ------------------------------------------------------------------------------
def thread_text(con: Console, channel: int, since: int = 0) -> str:
    """What the thread shows from its `since`th message on: text and cards, as a person reads them."""
    out = []
    for message in posts_in(con, channel)[since:]:
        out.append(message.get("content") or "")
        out.append(cards.as_text(message.get("embeds") or []))
    return "\n".join(out)


async def test_a_phase_opened_while_paused_announces_the_time_left_from_the_resume(console: Console) -> None:
    """On both databases: the parked timer, the status and the resume agree with what was announced."""
    await console.run_script(GAUL + """
@gaius /gm settings key:deadline_every value:2d
@gaius /campaign start
@gaius /gm pause reason:vacation
""")
    thread = thread_of(console, "Gaul")
    mark = len(posts_in(console, thread))
    await console.run_line("@gaius /gm advance")
    await console.run_line('@gaius press "Advance anyway"')
    opened = thread_text(console, thread, mark)
    assert "Deadline: paused — 2d left, counted from `/gm resume`" in opened, opened
    assert "<t:" not in opened, "no date is announced that the parked clock will not keep"
    await console.run_line("clock +5d")
    assert "the deadline has 2d left" in await said(console, "@hanno /campaign status")
    out = await said(console, "@gaius /gm deadline extend by:1d")
    assert "paused — 3d left, counted from `/gm resume`" in out
    assert "the deadline has 3d left" in await said(console, "@hanno /campaign status")
    mark = len(posts_in(console, thread))
    await console.run_line("@gaius /gm resume")
    resumed = thread_text(console, thread, mark)
    due = int(console.clock.now().timestamp()) + 3 * 86400
    assert f"The deadline is now <t:{due}:F>" in resumed, resumed
    assert "has passed" not in await said(console, "clock +2d")
    assert "has passed" in await said(console, "clock +1d")


# -- one post per phase: the start and a rollback ----------------------------------------------------------------
async def test_the_start_is_one_card_with_the_seats_the_commitment_and_what_is_open(lite: Console) -> None:
    await lite.run_script(GAUL)
    thread = thread_of(lite, "Gaul")
    mark = len(posts_in(lite, thread))
    await lite.run_line("@gaius /campaign start")
    posted = posts_in(lite, thread)[mark:]
    assert len(posted) == 1, posted
    said_ = thread_text(lite, thread, mark)
    assert "Gaul begins" in said_ and "Seats: **Rome**" in said_ and "Dice commitment" in said_
    assert "orders are open for Carthage, Rome" in said_


async def test_with_the_digest_the_commitment_is_still_posted_at_the_start(lite: Console) -> None:
    await lite.run_script(GAUL + "@gaius /gm settings key:digest value:daily\n@gaius /campaign start\n")
    thread = thread_of(lite, "Gaul")
    assert "Dice commitment" in thread_text(lite, thread) and cards_in(lite, thread) == []


async def test_a_rollback_is_one_post_with_the_notice_the_map_and_what_is_open(lite: Console, tmp_path: Path) -> None:
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Latium"\nowner = "Rome"\n')
    lite.base_dir = tmp_path
    await lite.run_script(GAUL + """
@gaius /gm upload kind:regions file:@regions.toml
@gaius /gm settings key:digest value:daily
@gaius /campaign start
@gaius /gm advance
@gaius press "Advance anyway"
""")
    thread = thread_of(lite, "Gaul")
    mark = len(posts_in(lite, thread))
    await lite.run_line('@gaius /gm rollback reason:"a misread order"')
    posted = posts_in(lite, thread)[mark:]
    assert len(posted) == 1, posted  # at once, though the digest gathers the phases: a rollback is not news to batch
    said_ = thread_text(lite, thread, mark)
    assert "rolled **Gaul** back from **Turn 2" in said_ and "(a misread order)" in said_
    assert "orders are open for" in said_, "what is open now is in the same post"
    images = [e["image"]["url"] for e in posted[0]["embeds"] if e.get("image")]
    assert len(images) == 1 and [a["filename"] for a in posted[0]["attachments"]] == [images[0][13:]]
