"""Embeds: every message Herald builds in every example campaign fits Discord's limits; a resolved phase is one
public post with its map in the same message; sheets stay private; an embed post is delivered exactly once."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sqlalchemy import func, select

from bot.console.fake import Sent
from bot.console.runner import Console, seeded_secrets
from bot.service import cards, outbox, record
from bot.store.models import Campaign, OutboxPost, Snapshot
from tests.discord_spec import validate_request
from tests.platform.test_canary import Watch

EXAMPLES = Path(__file__).parents[2] / "examples"
SCRIPTS = {"freeform": "campaign.txt", "terra-prime": "autoplay.txt", "terra-nova": "three-turns.txt",
           "lote-modern": "two-turns.txt"}
MESSAGE = "/channels/{channel_id}/messages"


def built(sent: list[Sent]) -> list[tuple[dict[str, Any], list[str]]]:
    """Every message the bot created or edited, with the names of the files sent with it."""
    out = []
    for item in sent:
        payload = item.payload or {}
        names = [name for name, _ in item.files]
        if item.kind == "interaction_response" and payload.get("type") in (4, 7):
            out.append((payload.get("data") or {}, names))
        elif item.kind in ("followup", "channel_message", "edit_original", "edit_followup"):
            out.append((payload, names))
    return out


def limits(message: dict[str, Any], files: list[str]) -> list[str]:
    """Discord's embed limits, said again here so this test fails on its own if the validator ever drifts."""
    errors = []
    embeds = message.get("embeds") or []
    if len(embeds) > 10:
        errors.append("more than 10 embeds")
    if sum(cards.size(e) for e in embeds) > 6000:
        errors.append("embeds over 6000 characters in all")
    for e in embeds:
        if len(e.get("title") or "") > 256 or len(e.get("description") or "") > 4096:
            errors.append("title or description too long")
        if len(e.get("fields") or []) > 25:
            errors.append("more than 25 fields")
        for f in e.get("fields") or []:
            if not f.get("name") or not f.get("value") or len(f["name"]) > 256 or len(f["value"]) > 1024:
                errors.append(f"field out of limits: {f.get('name')!r}")
        if len((e.get("footer") or {}).get("text") or "") > 2048:
            errors.append("footer too long")
        image = str((e.get("image") or {}).get("url") or "")
        if image.startswith("attachment://") and image.removeprefix("attachment://") not in files:
            errors.append(f"the image {image} is not attached to the same message")
    return errors


@pytest.mark.parametrize("ruleset", sorted(SCRIPTS))
async def test_every_message_of_every_example_fits_discords_limits(lite: Console, ruleset: str) -> None:
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = EXAMPLES / ruleset
    await lite.run_script((EXAMPLES / ruleset / SCRIPTS[ruleset]).read_text(encoding="utf-8"))
    messages = built(lite.fake.sent)
    assert messages and any(m.get("embeds") for m, _ in messages), "the campaign shows cards"
    for message, files in messages:
        assert limits(message, files) == [], message
        assert validate_request("POST", MESSAGE, {**message, "allowed_mentions": {"parse": []}}) == []
    assert lite.fake.rejected == []


async def test_sheets_status_and_rolls_are_cards(lite: Console) -> None:
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@gaius /campaign start
@gaius /gm act action:"sheet Arverni: **Gold** 40 talents\\n**Warriors**\\n- 300 at Gergovia\\n- 200 at Alesia"
""")
    for line, title in (("@vercingetorix /sheet", "Gaul — Arverni"), ("@gaius /campaign status", "Gaul — freeform"),
                        ("@vercingetorix /roll notation:2d6+1", "🎲 vercingetorix rolls")):
        mark = len(lite.fake.sent)
        await lite.run_line(line)
        shown = [m for m, _ in built(lite.fake.sent[mark:]) if m.get("embeds")]
        assert shown, line
        assert str(shown[0]["embeds"][0].get("title", "")).startswith(title), shown[0]["embeds"][0]
    sheet = [m for m, _ in built(lite.fake.sent) if "Gold" in cards.as_text(m.get("embeds") or [])]
    fields = {f["name"]: f["value"] for m in sheet for e in m["embeds"] for f in e.get("fields") or []}
    assert fields.get("Gold") == "40 talents" and "300 at Gergovia" in fields.get("Warriors", "")


async def test_terra_nova_posts_one_public_message_per_resolved_phase(lite: Console) -> None:
    """Three turns of Terra Nova posted 78 public messages before the phase post (news, map and what is open
    now as one message); now each step posts at most one per phase it resolved."""
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = EXAMPLES / "terra-nova"
    thread_messages = 0
    phases_resolved = 0
    for raw in (EXAMPLES / "terra-nova" / "three-turns.txt").read_text(encoding="utf-8").splitlines():
        mark = len(lite.fake.sent)
        before = await phase_starts(lite)
        await lite.run_line(raw)
        crossed = await phase_starts(lite) - before
        public = [s for s in lite.fake.sent[mark:] if s.kind == "channel_message"
                  and lite.fake.channels[int(s.params["channel_id"])]["type"] != 12]
        starts_campaign = "/campaign start" in raw  # "… begins" with the dice commitment, then the first phase
        assert len(public) <= max(1, crossed) + starts_campaign, (raw, [p.payload for p in public])
        for post in public:
            message, files = built([post])[0]
            maps = [f for f in files if f.endswith(".png")]
            images = [str((e.get("image") or {}).get("url")) for e in message.get("embeds") or []]
            assert [f"attachment://{f}" for f in maps] == [i for i in images if i != "None"], message
        thread_messages += len(public)
        phases_resolved += max(0, crossed)
    assert phases_resolved >= 30
    fixed = 5  # the campaign's creation, three seats joining, the start with its dice commitment
    assert thread_messages <= phases_resolved + fixed
    assert thread_messages <= 78 // 2


async def phase_starts(con: Console) -> int:
    async with con.services.db.read() as session:
        return int(await session.scalar(select(func.count()).select_from(Snapshot).where(
            Snapshot.kind == "start")) or 0)


async def test_sheets_and_orders_reach_only_their_seat_and_the_gm(lite: Console) -> None:
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = EXAMPLES / "terra-nova"
    watch = Watch(lite)
    await watch.run((EXAMPLES / "terra-nova" / "three-turns.txt").read_text(encoding="utf-8"))
    players = {"Spain": "isabel", "Portugal": "manuel", "England": "henry"}
    sheets = orders = 0
    for seen in watch.seen:
        for seat, player in players.items():
            if f"Tordesillas · {seat}" in seen.text or f"Tordesillas — {seat}" in seen.text:  # a seat's sheet card
                sheets += 1
                assert seen.readers is not None and seen.readers <= {player, "gm"}, seen.where
            if f"{seat}'s orders:" in seen.text:
                orders += 1
                assert seen.readers is not None and seen.readers <= {player, "gm"}, seen.where
    assert sheets >= 3 and orders >= 3


# -- the outbox: an embed post, exactly once ------------------------------------------------------------------

@pytest.fixture
async def skies(console: Console) -> Console:
    await console.run_line("@gm #t /campaign create name:Skies ruleset:freeform")
    console.fake.nonce_window = timedelta(0)
    return console


async def queue_card(con: Console, title: str) -> None:
    async with con.services.db.write() as session:
        campaign = await session.scalar(select(Campaign).where(Campaign.name == "Skies"))
        assert campaign is not None
        card = cards.Card(title=title, description="The sky darkens.", colour=cards.HERALD).add("Now", "watch")
        record.post(session, campaign, con.services, "thread", "", embeds=[card.dump()])


def shown_with(con: Console, title: str) -> list[dict[str, Any]]:
    return [m for m in con.fake.messages.values() if any(e.get("title") == title for e in m.get("embeds") or [])]


@pytest.mark.parametrize("fault", ["lost", "500"])
async def test_an_embed_post_whose_send_failed_appears_once(skies: Console, fault: str) -> None:
    await queue_card(skies, "The comet")  # one like it already sent, so reconciling must tell them apart
    await skies.pump()
    skies.fake.fail("channel_message", fault)
    await queue_card(skies, "The eclipse")
    await skies.pump()
    skies.clock.advance(timedelta(hours=2))
    await skies.pump()
    assert len(shown_with(skies, "The comet")) == 1 and len(shown_with(skies, "The eclipse")) == 1
    async with skies.services.db.read() as session:
        rows = (await session.scalars(select(OutboxPost).where(OutboxPost.content == ""))).all()
    eclipse = [r for r in rows if r.components.get("embeds", [{}])[0].get("title") == "The eclipse"]
    assert eclipse and eclipse[0].sent_at is not None
    assert eclipse[0].message_id == int(shown_with(skies, "The eclipse")[0]["id"])
    assert await outbox.pending_count(skies.services) == 0


# -- cards: split, never cut ----------------------------------------------------------------------------------

LINES = st.sampled_from(["**Gold** 40 talents", "**Armies**", "- 300 at Gergovia", "plain words here",
                         "## A heading", "```", "col1   col2", "", "**A** 1 · **B** 2", "x" * 900, "word " * 300])


@settings(max_examples=200, deadline=None)
@given(lines=st.lists(LINES, max_size=120), title=st.text(max_size=400), footer=st.text(max_size=2100))
def test_any_markdown_becomes_cards_within_limits_and_loses_no_word(lines: list[str], title: str,
                                                                     footer: str) -> None:
    text = "\n".join(lines)
    card = cards.from_markdown(text, title=title.strip(), footer=footer.strip())
    groups = cards.fit([card.dump()])
    for group in groups:
        assert limits({"embeds": group}, []) == []
    said = cards.as_text([e for g in groups for e in g])
    for word in text.replace("**", " ").split():
        if word not in ("##", "·", "-", "```"):
            assert word.strip("`") in said, word


async def test_the_order_grammar_keeps_its_columns_in_a_code_block(lite: Console) -> None:
    await lite.run_script("""
gm @gm
@gm #colonies /campaign create name:Tordesillas ruleset:terra-nova
""")
    mark = len(lite.fake.sent)
    await lite.run_line("@gm #colonies /help topic:orders")
    said = [m.get("content") or "" for m, _ in built(lite.fake.sent[mark:])]
    column = "  intercept <power>                       C.1, F.1: from a command-of-the-seas box"
    holding = [text for text in said if column in text]
    assert holding, said
    before = holding[0][: holding[0].index(column)]
    assert before.count("```") % 2 == 1, "the grammar is inside an open code block"


async def test_the_daily_digest_gathers_a_days_phases_into_one_post(lite: Console, tmp_path: Path) -> None:
    (tmp_path / "regions.toml").write_text('[[region]]\nname = "Latium"\nowner = "Rome"\n'
                                           '[[region]]\nname = "Africa"\nowner = "Carthage"\n')
    lite.base_dir = tmp_path
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@scipio /campaign join seat:Rome
@hanno /campaign join seat:Carthage
@gaius /gm settings key:digest value:daily
@gaius /gm upload kind:regions file:@regions.toml
@gaius /campaign start
@scipio /orders submit text:"sail for Africa"
@gaius /gm advance
@gaius press "Advance anyway"
@gaius /gm advance
@gaius press "Advance anyway"
""")
    thread = next(cid for cid, c in lite.fake.channels.items() if c["name"] == "Gaul")

    def cards_in_thread() -> list[dict[str, Any]]:
        return [m for m in lite.fake.messages.values() if int(m["channel_id"]) == thread and m.get("embeds")]

    assert cards_in_thread() == [], "nothing of the phases is posted during the day"
    assert await phase_starts(lite) == 3
    await lite.run_line("clock +1d")
    posted = cards_in_thread()
    assert len(posted) == 1, posted
    said = cards.as_text(posted[0]["embeds"])
    assert "the day's news" in said and "3 phase(s) resolved" in said
    assert "Gaul begins" in said and said.count("Turn 1") >= 1 and "Turn 2" in said
    images = [e["image"]["url"] for e in posted[0]["embeds"] if e.get("image")]
    assert len(images) == 1 and [a["filename"] for a in posted[0]["attachments"]] == [images[0][13:]]
    await lite.run_line("clock +1d")
    assert len(cards_in_thread()) == 1, "a day with nothing resolved posts nothing"


def test_a_heading_further_down_opens_a_section_and_an_indented_line_stays_in_its_field() -> None:
    text = ("**The Narrow Seas** — turn 1\n- England: 370 GP\n**Rulings**\n• #1 a route\n  rolls: d100 6\n"
            "• #2 an agent\n## England — Open Nation\nIndustrial One\n**Treasury** 369.87 GP")
    card = cards.from_markdown(text)
    assert card.title == "" and card.description.startswith("**The Narrow Seas** — turn 1")
    fields = {name: value for name, value, _ in card.fields}
    assert fields["Rulings"] == "• #1 a route\n  rolls: d100 6\n• #2 an agent"
    assert fields["England — Open Nation"] == "Industrial One" and fields["Treasury"] == "369.87 GP"
    _, shown = cards.present("sheet", "**The Narrow Seas** — gm\n" + text)
    assert shown[0]["title"] == "The Narrow Seas — GM"  # the GM's sheet, not the first nation on it
    assert "**Treasury** 369.87 GP" in cards.as_text(shown)  # the attached whole reads like the sheet


async def test_a_gm_table_roll_is_a_card_in_the_thread(lite: Console, tmp_path: Path) -> None:
    (tmp_path / "tables.toml").write_text('[weather]\ndice = "2d6"\ntitle = "Weather at sea"\n"2-4" = "Storm"\n'
                                          '"5-9" = "Clear"\n"10+" = "Fog"\n', encoding="utf-8")
    lite.base_dir = tmp_path
    await lite.run_script("""
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@gaius /campaign start
@gaius /gm table upload file:@tables.toml
""")
    mark = len(lite.fake.sent)
    await lite.run_line("@gaius /gm table roll name:weather")
    posted = [m for m, _ in built(lite.fake.sent[mark:]) if m.get("embeds") and not m.get("flags")]
    assert len(posted) == 1 and posted[0]["embeds"][0]["title"] == "🎲 The GM rolls on Weather at sea"
    assert "2d6 [" in posted[0]["embeds"][0]["description"]


async def test_terra_nova_shows_the_map_after_orders_are_carried_out_and_says_what_is_open_once(lite: Console) -> None:
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = EXAMPLES / "terra-nova"
    script = (EXAMPLES / "terra-nova" / "three-turns.txt").read_text(encoding="utf-8")
    await lite.run_script(script[: script.index("# C.2: Portugal tries for a factory")])
    posts = [(m, files) for m, files in built([s for s in lite.fake.sent if s.kind == "channel_message"])
             if m.get("embeds")]
    cards_ = {m["embeds"][0].get("title"): (m, files) for m, files in posts}
    sailed, files = cards_["C.1 First Trans-Oceanic Movement"]  # ships sailed: the map after it, in the post
    assert [f for f in files if f.endswith(".png")] and sailed["embeds"][0]["image"]["url"].startswith("attachment://")
    for message, _ in posts:
        said = cards.as_text(message["embeds"])
        assert "— orders are open (turn" not in said, "the Now field says what is open; the news does not repeat it"


async def test_the_gm_is_told_where_a_turns_long_private_results_went(lite: Console) -> None:
    script = (EXAMPLES / "lote-modern" / "two-turns.txt").read_text(encoding="utf-8")
    lite.base_dir = EXAMPLES / "lote-modern"
    await lite.run_script(script[: script.index('@gm /gm act action:"publish"')])
    out = "\n".join(await lite.run_line('@gm /gm act action:"publish"'))
    answer = out[: out.index("#The Narrow Seas")]
    assert "📬 Sent privately to **England**, **France**, **Hansa**, **Spain**" in answer
    assert "attached" not in answer and len(answer) < 2000  # one short answer, not the four sheets again
    assert "turn 1 results for England" in out  # which are in England's thread
