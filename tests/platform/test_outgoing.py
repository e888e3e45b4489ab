"""Every message Herald sends fits Discord's limits and pings no one by accident; the spec validator the test
fakes use refuses what Discord refuses."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.console.fake import Sent
from bot.console.runner import Console
from bot.discord import outgoing
from bot.service import cards
from bot.service.text import split_message
from tests.discord_spec import validate_request

EXAMPLES = Path(__file__).parents[2] / "examples"
SETUP = """
gm @gaius
@gaius #forum /campaign create name:Gaul ruleset:freeform
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
"""
MESSAGE = "/channels/{channel_id}/messages"


@pytest.fixture
async def gaul(lite: Console) -> Console:
    await lite.run_script(SETUP)
    return lite


def messages(sent: list[Sent]) -> list[dict[str, Any]]:
    """Every message the bot created or edited in `sent`: channel posts, replies, followups."""
    out = []
    for item in sent:
        payload = item.payload or {}
        if item.kind == "interaction_response" and payload.get("type") == 4:
            out.append(payload.get("data") or {})
        elif item.kind in ("followup", "channel_message", "edit_original"):
            out.append(payload)
    return out


# -- the validator can fail ----------------------------------------------------------------------------

def test_the_validator_refuses_what_discord_refuses() -> None:
    none = {"parse": []}
    assert validate_request("POST", MESSAGE, {"content": "x" * 2000, "allowed_mentions": none}) == []
    assert any("2001 characters" in e for e in
               validate_request("POST", MESSAGE, {"content": "x" * 2001, "allowed_mentions": none}))
    assert any("50006" in e for e in validate_request("POST", MESSAGE, {"content": " \n", "allowed_mentions": none}))
    assert any("ping @everyone" in e for e in validate_request("POST", MESSAGE, {"content": "hi"}))
    assert any("everyone" in e for e in validate_request(
        "POST", MESSAGE, {"content": "hi", "allowed_mentions": {"parse": ["everyone"]}}))

    def menu(options: int, label: str = "a") -> dict[str, Any]:
        select = {"type": 3, "custom_id": "herald:act:1:deadbeef:0",
                  "options": [{"label": label, "value": str(i)} for i in range(options)]}
        return {"content": "menus", "allowed_mentions": none, "components": [{"type": 1, "components": [select]}]}

    assert validate_request("POST", MESSAGE, menu(25)) == []
    assert validate_request("POST", MESSAGE, menu(26)) != []
    assert validate_request("POST", MESSAGE, menu(1, "x" * 100)) == []
    assert validate_request("POST", MESSAGE, menu(1, "x" * 101)) != []
    callback = "/interactions/{interaction_id}/{interaction_token}/callback"
    reply = {"type": 4, "data": {"content": "x" * 2001, "flags": 64, "allowed_mentions": none}}
    assert validate_request("POST", callback, reply) != []
    original = "/webhooks/{webhook_id}/{webhook_token}/messages/@original"
    assert validate_request("PATCH", original, {"content": "x", "allowed_mentions": none}) == []
    assert validate_request("PATCH", original, {"content": "\n", "allowed_mentions": none}) != []
    assert validate_request("PATCH", original, {"content": "x" * 2001, "allowed_mentions": none}) != []
    followup = "/webhooks/{webhook_id}/{webhook_token}"
    assert validate_request("POST", followup, {"content": "", "allowed_mentions": none}) != []
    assert validate_request("GET", "/no/such/route", None) != []


@pytest.mark.discord_refuses
async def test_a_refused_request_raises_what_discord_py_raises(lite: Console) -> None:
    channel = lite.fake.channel("table")
    with pytest.raises(discord.HTTPException) as caught:
        await lite.bot.get_partial_messageable(channel).send("x" * 2001)
    assert caught.value.status == 400 and caught.value.code == 50035
    with pytest.raises(discord.HTTPException) as caught:
        await lite.bot.get_partial_messageable(channel).send(
            "hi", allowed_mentions=discord.AllowedMentions(everyone=True))  # could ping everyone
    assert caught.value.code == 50035
    assert len(lite.fake.rejected) == 2


# -- fitting by construction ----------------------------------------------------------------------------

def test_notes_are_budgeted_before_the_text_is_split() -> None:
    full = "word " * 399 + "word"  # 1999 characters: one full message
    parts, too_long = outgoing.fit_text(full, ["3 more action(s) than fit in menus: type them with `/act`."])
    assert not too_long and all(len(p) <= 2000 for p in parts) and parts[-1].endswith("with `/act`.")
    long = "\n".join(f"line {i} " + "x" * 60 for i in range(400))
    parts, too_long = outgoing.fit_text(long, ["(`map.png` is 30000 KiB, over this server's 25600 KiB limit.)"])
    assert too_long and len(parts) == 1 and len(parts[0]) <= 2000
    assert "is attached" in parts[0] and "over this server's" in parts[0]
    built = outgoing.build(long, files=[("map.png", b"x" * 40_000)], file_limit=30_000)
    assert len(built) == 1 and [n for n, _ in built[0].files] == ["herald.md"]
    assert len(built[0].content or "") <= 2000 and "over this server's 29 KiB limit" in (built[0].content or "")
    built = outgoing.build(long, file_limit=1024)  # the whole text cannot be attached either: it says so
    assert not built[0].files and "too long to send here" in (built[0].content or "")


def test_blank_crlf_text_never_becomes_an_empty_message() -> None:
    assert outgoing.fit_text("\r\n\r\n  \r\n")[0] == [outgoing.BLANK]
    assert outgoing.build("\r\n \r\n", files=[("a.txt", b"a")])[0].content is None  # the file carries it
    assert outgoing.fit_text("a\r\nb")[0] == ["a\nb"]
    assert all(p.strip() for p in split_message("x\n" + "\r\n" * 3000 + "y"))


def test_mentions_are_none_unless_herald_names_the_users() -> None:
    assert outgoing.mentions_of().to_dict() == {"parse": []}
    pinged = outgoing.mentions_of([42, 42, 7]).to_dict()
    assert pinged["parse"] == [] and pinged["users"] == [42, 7]


def test_embeds_are_fitted_to_their_limits() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name=f"f{i}", value="v" * 2000)
    messages = outgoing.build(None, embeds=[embed, discord.Embed(description="more")], max_parts=20)
    assert len(messages) > 1 and all(sum(len(e) for e in m.embeds) <= 6000 for m in messages)
    assert "more" in messages[-1].embeds[-1].description
    small = outgoing.build(None, embeds=[discord.Embed(title="t" * 300, description="d" * 100)])
    assert len(small[0].embeds[0].title or "") == 256


# -- through the console, as a user would ----------------------------------------------------------------

async def test_lote_publish_answers_within_discords_limits(lite: Console) -> None:
    script = (EXAMPLES / "lote-modern" / "two-turns.txt").read_text()
    head = script[: script.index('@gm /gm act action:"publish"')]
    lite.base_dir = EXAMPLES / "lote-modern"
    await lite.run_script(head)
    mark = len(lite.fake.sent)
    await lite.run_line('@gm /gm act action:"publish"')
    sent = messages(lite.fake.sent[mark:])
    assert sent and all(len(m.get("content") or "") <= 2000 for m in sent)
    assert any("more action" in (m.get("content") or "") or "attached" in (m.get("content") or "")
               or m.get("components") for m in sent)
    assert lite.fake.rejected == []


async def test_a_huge_deadline_is_refused_in_an_answer_that_fits(gaul: Console) -> None:
    mark = len(gaul.fake.sent)
    await gaul.run_line("@gaius /gm deadline set when:" + "9" * 2500)
    answers = messages(gaul.fake.sent[mark:])
    assert answers and all(0 < len(a.get("content") or "") <= 2000 for a in answers)
    assert gaul.fake.rejected == []
    said = outgoing.note("`" + "9" * 2500 + "` is not a duration: write 2d, 36h or a UTC time").content or ""
    assert len(said) < 200 and said.endswith("is not a duration: write 2d, 36h or a UTC time")


async def test_a_note_of_blank_crlf_lines_sends_no_empty_message(gaul: Console) -> None:
    mark = len(gaul.fake.sent)
    await gaul.run_line('@gaius /gm note text:"' + "\r\n" * 1990 + '"')
    await gaul.run_line('@gaius /gm note text:"' + "\r\n" * 10 + '" seat:Arverni')
    sent = messages(gaul.fake.sent[mark:])
    assert sent and all((m.get("content") or "").strip() or m.get("attachments") for m in sent)
    assert gaul.fake.rejected == []


async def test_a_member_nicknamed_everyone_rolls_publicly_and_pings_no_one(gaul: Console) -> None:
    uid = gaul.fake.user("mallory")
    gaul.fake.users[uid] = "@everyone"
    mark = len(gaul.fake.sent)
    await gaul.run_line("@mallory /roll notation:2d6")
    public = [m for m in messages(gaul.fake.sent[mark:]) if "@everyone" in (m.get("content") or "")
              + cards.as_text(m.get("embeds") or [])]
    assert public, "the roll names its roller"
    for m in messages(gaul.fake.sent[mark:]):
        allowed = m.get("allowed_mentions")
        assert allowed is not None and not allowed.get("parse") and not allowed.get("roles")
        assert not allowed.get("users")


async def test_the_orders_form_never_drops_lines_it_cannot_hold(gaul: Console, tmp_path: Path) -> None:
    (tmp_path / "orders.txt").write_text("".join(f"march legion {i} to the river\n" for i in range(200)))
    gaul.base_dir = tmp_path
    assert "200" in "\n".join(await gaul.run_line("@ambiorix /orders submit file:@orders.txt"))
    for line in ('@ambiorix press "Write orders"', "@ambiorix /orders submit"):
        out = "\n".join(await gaul.run_line(line))
        assert "more than the form holds (4,000)" in out and "file:" in out and "form for" not in out


@settings(max_examples=300, deadline=None)
@given(text=st.lists(st.sampled_from(["a", " ", "\n", "\r\n", "\r", "`", "```", "é", "x" * 50, "\t"]),
                     max_size=600).map(lambda parts: "".join(parts) * 7),
       notes=st.lists(st.text(max_size=1500), max_size=3), extras=st.booleans())
def test_any_text_and_notes_fit_discords_limits(text: str, notes: list[str], extras: bool) -> None:
    files = [("map.png", b"png")] if extras else []
    built = outgoing.build(text, notes=notes, files=files, file_limit=8 * 1024 * 1024)
    assert 1 <= len(built) <= outgoing.MAX_PARTS + 1
    for message in built:
        content = message.content
        assert content is None or (0 < len(content) <= 2000 and content.strip() and "\r" not in content)
        assert content is not None or message.files
        assert len(message.files) <= 10


async def test_the_slash_commands_herald_syncs_are_what_discord_accepts(lite: Console) -> None:
    tree = lite.bot.tree
    payload = [command.to_dict(tree) for command in tree.get_commands()]
    route = "/applications/{application_id}/commands"
    assert payload and validate_request("PUT", route, payload) == []
    payload[0]["description"] = "x" * 101
    assert validate_request("PUT", route, payload) != []


def test_long_cards_are_split_over_messages_then_attached_whole() -> None:
    embeds = [discord.Embed(title=f"Phase {i}", description=f"{i}" * 4000) for i in range(6)]
    embeds[0].set_image(url="attachment://map.png")
    built = outgoing.build("", embeds=embeds, files=[("map.png", b"png")], max_parts=2)
    assert len(built) == 2
    for message in built:
        payload = {"content": message.content, "embeds": [e.to_dict() for e in message.embeds],
                   "allowed_mentions": {"parse": []}}
        assert validate_request("POST", MESSAGE, payload) == []
        assert sum(len(e) for e in message.embeds) <= 6000 and len(message.embeds) <= 10
    assert "map.png" in [name for name, _ in built[0].files]  # the map rides with the card that shows it
    whole = dict(f for m in built for f in m.files)["herald-full.md"].decode()
    assert all(f"## Phase {i}" in whole and f"{i}" * 4000 in whole for i in range(6))
    assert "attached" in (built[0].content or "") + (built[-1].content or "")
