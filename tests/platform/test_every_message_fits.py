"""Every message Herald builds fits Discord's limits, held to Discord's own spec (tests/discord_spec.py).

Two halves. Each builder of a message or of a part of one (text, cards, menus, buttons) gets the longest and
oddest content hypothesis finds, and what it builds is serialised by discord.py exactly as it goes out on the
three routes Herald sends on (a channel post, an interaction's answer, a follow-up). Then every slash command,
button, menu, form and timer runs in campaigns of the longest names, most seats and longest texts Herald
accepts, and every request is checked. A guard fails when a new builder or command appears that neither half
exercises."""

from __future__ import annotations

import ast
import asyncio
import json
import re
from pathlib import Path
from typing import Any

import discord
import pytest
from discord.http import handle_message_parameters
from discord.webhook.async_ import interaction_message_response_params
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.console.runner import Console
from bot.console.script import parse
from bot.discord import outgoing, views
from bot.service import cards
from bot.store.models import Campaign
from engine.core import Action, Phase, Window
from tests.discord_spec import validate_request
from tests.platform.test_embeds import built, limits

ROOT = Path(__file__).parents[2]
ROUTES = ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}",
          "/interactions/{interaction_id}/{interaction_token}/callback")


# -- what goes out, as discord.py sends it ---------------------------------------------------------------------

def requests_for(message: outgoing.Outgoing) -> list[tuple[str, dict[str, Any]]]:
    """The JSON bodies discord.py sends for one message on each route (files as their attachment entries)."""
    kw = message.kwargs()
    args: dict[str, Any] = {"allowed_mentions": kw["allowed_mentions"]}
    for key in ("embeds", "view", "files"):
        if key in kw:
            args[key] = kw[key]
    if message.content is not None:
        args["content"] = message.content
    post = body_of(handle_message_parameters(**args))
    answer = body_of(interaction_message_response_params(type=4, **args))
    return [(ROUTES[0], post), (ROUTES[1], post), (ROUTES[2], answer)]


def body_of(params: Any) -> dict[str, Any]:
    """The JSON of a request: the body itself, or with files the multipart's `payload_json` part."""
    if params.payload is not None:
        return dict(params.payload)
    part = next(p for p in params.multipart if p["name"] == "payload_json")
    return dict(json.loads(part["value"]))


def refusals(messages: list[outgoing.Outgoing]) -> list[str]:
    """Why Discord would refuse any of `messages` on any route Herald sends it on (nothing when it accepts)."""
    out: list[str] = []
    for message in messages:
        for route, body in requests_for(message):
            out += [f"{route}: {e}" for e in validate_request("POST", route, body)]
            shown = body.get("data", body)
            out += [f"{route}: {e}" for e in limits(shown, [a.get("filename") for a in shown.get("attachments", [])])]
    return out


def run(coro: Any) -> Any:
    """discord.py builds views inside an event loop."""
    return asyncio.run(coro)


PIECES = st.sampled_from(["a", "word ", "\n", "\r\n", "```", "```text\n", "`", "**Gold** 40", "**Armies**",
                          "- 300 at Gergovia", "## Heading", "é", "🎲", "x" * 120, "y" * 1100, " · ", "@everyone",
                          "<@123>", "||", "\u202e", "> quote", "  indented", "|", "~~"])
TEXT = st.lists(PIECES, max_size=200).map("".join)
LONG_TEXT = st.lists(PIECES, max_size=20).map(lambda parts: "".join(parts) * 12)


@st.composite
def embeds(draw: st.DrawFn) -> dict[str, Any]:
    card = cards.Card(title=draw(st.text(max_size=400)), description=draw(TEXT), colour=cards.HERALD,
                      footer=draw(st.text(max_size=2100)), image=draw(st.sampled_from([None, "map.png"])),
                      timestamp=draw(st.sampled_from([None, "2026-01-09T17:00:00+00:00"])))
    for _ in range(draw(st.integers(0, 30))):
        card.add(draw(st.text(max_size=300)), draw(TEXT), inline=draw(st.booleans()))
    return card.dump()


@st.composite
def actions(draw: st.DrawFn) -> list[Action]:
    groups = draw(st.lists(st.text(min_size=1, max_size=30), min_size=1, max_size=8))
    return [Action(f"{draw(st.sampled_from(groups))} {i} {draw(st.text(max_size=60))}".strip()[:100],
                   draw(st.text(max_size=200))) for i in range(draw(st.integers(1, 140)))]


# -- each builder, with anything ------------------------------------------------------------------------------

@settings(max_examples=60, deadline=None)
@given(text=LONG_TEXT, notes=st.lists(st.text(max_size=1500), max_size=3), cards_=st.lists(embeds(), max_size=12),
       files=st.integers(0, 12), mentions=st.lists(st.integers(1, 2**63), max_size=3),
       parts=st.sampled_from([1, outgoing.MAX_CARD_PARTS, outgoing.MAX_PARTS]))
def test_build_fits_on_every_route(text: str, notes: list[str], cards_: list[dict[str, Any]], files: int,
                                   mentions: list[int], parts: int) -> None:
    attached = [("map.png", b"png")] + [(f"f{i}.txt", b"x") for i in range(files)]

    async def go() -> list[str]:
        view = views.confirm_view("0" * 24, "Advance anyway") if files % 2 else None
        return refusals(outgoing.build(text, notes=notes, files=attached, embeds=cards_, view=view,
                                       mentions=mentions, file_limit=8 * 1024 * 1024, max_parts=parts))

    assert run(go()) == []


@settings(max_examples=100, deadline=None)
@given(text=st.one_of(TEXT, LONG_TEXT, st.text(max_size=5000)))
def test_a_note_fits_on_every_route(text: str) -> None:
    assert refusals([outgoing.note(text)]) == []


@settings(max_examples=60, deadline=None)
@given(text=st.one_of(TEXT, LONG_TEXT), kind=st.sampled_from(["sheet", "status", "roll", "news", "catchup"]),
       head=st.sampled_from(["**Gaul** — Arverni", "**Gaul** — gm", "🎲 **vercingetorix** rolls 2d6: (3, 4) = 7"]))
def test_cards_of_sheets_status_and_rolls_fit(text: str, kind: str, head: str) -> None:
    content, made = cards.present(kind, f"{head}\n{text}")
    assert refusals(outgoing.build(content, embeds=made, max_parts=outgoing.MAX_CARD_PARTS)) == []


@settings(max_examples=60, deadline=None)
@given(text=st.one_of(TEXT, LONG_TEXT), title=st.text(max_size=400), footer=st.text(max_size=2100))
def test_cards_from_any_markdown_fit(text: str, title: str, footer: str) -> None:
    card = cards.from_markdown(text, title=title, footer=footer).add(title or "x", text[:5000])
    assert refusals(outgoing.build(None, embeds=[card.dump()], max_parts=1)) == []


@settings(max_examples=40, deadline=None)
@given(events=st.lists(st.one_of(TEXT, st.text(max_size=300)), max_size=200),
       dice=st.lists(st.text(max_size=200), max_size=200), label=st.text(min_size=1, max_size=300),
       name=st.text(min_size=1, max_size=60))
def test_a_phase_card_fits(events: list[str], dice: list[str], label: str, name: str) -> None:
    from bot.service import steps

    campaign = Campaign(name=name)
    phase = Phase(3, "p", label, Window.ORDERS)
    card = steps.phase_card(campaign, label, events, dice, phase, image="map.png")
    card.add("Now", "\n".join(events[:3]))
    parts = outgoing.build(None, embeds=[card.dump(), *steps.chart_cards({"caption": label, "name": "c.png"})],
                           files=[("map.png", b"png"), ("c.png", b"png")], max_parts=1)
    assert refusals(parts) == []


@settings(max_examples=60, deadline=None)
@given(given_=actions())
def test_menus_of_any_actions_fit(given_: list[Action]) -> None:
    async def go() -> list[str]:
        view, _hidden = views.action_view(10**17, "phase", given_)
        buttons = views.buttons_view([{"id": f"herald:orders:{10**17}"}, {"id": f"herald:turn:{10**17}"}])
        return refusals(outgoing.build("Your turn", view=view) + outgoing.build("Now", view=buttons))

    assert run(go()) == []


# -- the guard: a new builder is held to the spec, or this fails ------------------------------------------------

HELD = {  # every function in bot/ that builds a message or a part of one, and where it is held to the spec
    "bot/discord/outgoing.py:build": "test_build_fits_on_every_route",
    "bot/discord/outgoing.py:note": "test_a_note_fits_on_every_route",
    "bot/discord/views.py:confirm_view": "test_build_fits_on_every_route",
    "bot/discord/views.py:action_view": "test_menus_of_any_actions_fit",
    "bot/discord/views.py:buttons_view": "test_menus_of_any_actions_fit",
    "bot/discord/replies.py:messages_for": "test_every_command_of_the_longest_campaigns_fits (every answer)",
    "bot/service/cards.py:from_markdown": "test_cards_from_any_markdown_fit",
    "bot/service/cards.py:add": "test_cards_from_any_markdown_fit",
    "bot/service/cards.py:present": "test_cards_of_sheets_status_and_rolls_fit",
    "bot/service/cards.py:normalise": "test_cards_from_any_markdown_fit (through build)",
    "bot/service/cards.py:fit": "test_build_fits_on_every_route (through build)",
    "bot/service/steps.py:phase_card": "test_a_phase_card_fits",
    "bot/service/steps.py:chart_cards": "test_a_phase_card_fits",
    "bot/service/cards.py:dump": "test_cards_from_any_markdown_fit",
    "bot/discord/outgoing.py:kwargs": "requests_for, in every test of this module",
}
NOT_MESSAGES = {"bot/service/steps.py:_dump_step"}  # a log entry's body
BUILDS = re.compile(r"\b(Outgoing|Embed|View|Card)\b|dict\[str, Any\]")


def builders() -> set[str]:
    """Functions in bot/ whose result is a message, an embed, a view or a card."""
    found = set()
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and node.returns is not None:
                returns = ast.unparse(node.returns)
                found_in = BUILDS.search(returns)
                if found_in and (found_in[1] or path.name in ("cards.py", "steps.py", "outgoing.py")):
                    found.add(f"{path.relative_to(ROOT)}:{node.name}")
    return found - NOT_MESSAGES


def test_every_message_builder_is_held_to_the_spec() -> None:
    missing = sorted(builders() - set(HELD))
    assert not missing, f"builders no test holds to Discord's limits (add them to HELD, with a test): {missing}"
    gone = sorted(set(HELD) - builders())
    assert not gone, f"HELD names builders that no longer exist: {gone}"


# -- every command, button and timer, in the longest campaigns Herald accepts --------------------------------

NAME = "Ω Ægean & Ionian leagues — a very long war of the isles, Ⅱ"  # 60 characters: the longest name
SEATS = [f"Σ{i:02d} Thessalian cavalry league ét" for i in range(25)]  # 32 characters each, 25 of them
RESULT = ("**Gold** 4,000 talents · **Ships** 300 triremes\n**Armies**\n" + "- 600 hoplites at Delos ✦\n" * 100)[:4000]
TYPED = RESULT.replace("\n", "\\n")  # as a script line writes it
ORDER_LINE = "march the 600 hoplites of Delos along the coast road to the isthmus, with the ships alongside"


def maximal_files(folder: Path) -> None:
    regions = "".join(f'[[region]]\nname = "{s} land"\nx = {i * 4}\ny = {i * 3}\nowner = "{s}"\n'
                      f'links = ["{SEATS[i - 1]} land"]\n' for i, s in enumerate(SEATS))
    (folder / "regions.toml").write_text(regions, encoding="utf-8")
    lines = (ORDER_LINE + "\n") * (20_000 // (len(ORDER_LINE) + 1))
    (folder / "orders.txt").write_text(lines, encoding="utf-8")
    tables = "".join(f'[t{i}]\ndice = "1d6"\ntitle = "{"The omens of the oracle at Delphi " * 5}{i}"\n'
                     f'"1-3" = "{"ill " * 200}"\n"4+" = "{"fair " * 150}"\n' for i in range(30))
    (folder / "tables.toml").write_text(tables, encoding="utf-8")


def longest_freeform() -> str:
    joins = "\n".join(f'@p{i} /campaign join seat:"{s}"' for i, s in enumerate(SEATS))
    submits = "\n".join(f"@p{i} /orders submit file:@orders.txt" for i in range(len(SEATS) - 1))
    results = "\n".join(f'@gm /gm act action:"result {s}: {TYPED}"' for s in SEATS[:6])
    return f"""
gm @gm
@gm #forum /campaign create name:"{NAME}" ruleset:freeform options:"max_seats=50"
@gm /gm upload kind:regions file:@regions.toml
{joins}
@gm /gm table upload file:@tables.toml
@gm /gm table list
@gm /gm settings
@gm /gm settings key:reminders value:24h,12h,6h,2h,1h
@gm /campaign status
@gm /campaign start
@p0 /campaign notify how:dm
@p1 /campaign notify how:ping
@p2 /campaign follow
@p2 /campaign unfollow
@gm /gm deadline set when:"friday 18:00"
@gm /gm deadline extend by:1d
@gm /gm deadline clear
@gm /gm deadline set when:3d
{submits}
@p0 /orders check file:@orders.txt
@p0 /odds order:"{ORDER_LINE}"
@p0 /orders list
@gm /orders list
@p1 /orders withdraw
@p1 /undo
@p24 press "Write orders"
@p24 form orders:"{ORDER_LINE}\\n{ORDER_LINE}"
@p2 /orders withdraw
{results}
@gm /gm act action:"result all: {TYPED}"
@gm /gm act action:"sheet {SEATS[0]}: {TYPED}"
@gm /gm note text:"{TYPED}" seat:"{SEATS[0]}"
@gm /gm note text:"{TYPED}"
@gm /gm table roll name:t29
@gm /gm table roll name:t1 private:yes modifier:1000
@p0 /roll notation:"100d1000000 to strike the Persian line with every spear of the Ægean league"
@p0 /roll notation:"1d20+5 adv to hit" private:yes
@p0 /campaign mine
@gm /campaign list
@gm /gm advance
@gm press "Advance anyway"
clock +6h
clock +2d
@p0 /sheet
@p0 /catchup
@gm /catchup
@p9 /catchup auto:off
@gm /sheet seat:"{SEATS[0]}"
@p0 /history
@gm /history all:yes
@gm /history turn:1
@p0 /map
@p0 /map turn:1
@p0 /chart
@gm /chart what:score
@gm /gm pause reason:"{"the Olympic truce " * 20}"
@gm /gm resume
@gm complete /gm rollback to:""
@gm /gm rollback reason:"{"a ruling reconsidered " * 20}"
@gm /gm seat kick seat:"{SEATS[3]}"
@gm press "Remove them"
@gm /gm seat assign seat:"{SEATS[3]}" user:@p3
@gm /gm seat replace seat:"{SEATS[4]}" user:@newcomer
@gm press "Replace them"
@p5 /campaign leave
@gm /gm settings key:digest value:daily
@gm /gm advance
@gm press "Advance anyway"
clock +1d
@gm /gm settings key:digest value:off
@gm /campaign export
@p0 /help
@p0 /help topic:orders
@p0 /help topic:gm
@p0 /help topic:tables
@p0 /help topic:dice
@p0 /help topic:start
@p0 /help topic:rulesets
@p0 /help topic:"lords of the earth"
@p0 /help topic:"terra nova"
@gm /campaign end
@gm press "End the campaign"
@p0 /campaign export
"""


TURNS = """
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@ana /gm settings key:turn_timer value:1m
@ana /campaign start
@bo press "Take your turn"
@bo /odds order:"explore 1"
@ana /odds order:"move 3"
@bo /act action:"move 3"
@bo /undo
@bo /act
@ana /gm seat auto seat:Bo
@ana press "Hand it to Herald"
clock +2m
"""


def commands_in(script: str, con: Console) -> set[str]:
    """The slash commands a script runs, by their full names (`gm deadline set`)."""
    ran = set()
    for raw in script.splitlines():
        line = parse(raw)
        if line is None or line.verb != "slash":
            continue
        command: Any = con.bot.tree.get_command(line.words[0])
        name = [line.words[0]]
        for word in line.words[1:]:
            if not isinstance(command, discord.app_commands.Group) or command.get_command(word) is None:
                break
            command = command.get_command(word)
            name.append(word)
        ran.add(" ".join(name))
    return ran


async def test_every_command_of_the_longest_campaigns_fits(lite: Console, tmp_path: Path) -> None:
    maximal_files(tmp_path)
    lite.base_dir = tmp_path
    scripts = [longest_freeform(), TURNS]
    for script in scripts:
        await lite.run_script(script)
    every = {c.qualified_name for c in lite.bot.tree.walk_commands()
             if not isinstance(c, discord.app_commands.Group)}
    ran = set().union(*(commands_in(s, lite) for s in scripts))
    assert every - ran == set(), f"commands this test never runs: {sorted(every - ran)}"
    messages = built(lite.fake.sent)
    assert len(messages) > 200
    assert any(len(m.get("embeds") or []) > 1 for m, _ in messages), "a card long enough to be split"
    assert any(f.endswith(".md") for _, files in messages for f in files), "a text long enough to be attached"
    for message, files in messages:
        assert limits(message, files) == [], message
    assert lite.fake.rejected == []
    assert not [line for line in lite.transcript if "never answered" in line  # type: ignore[attr-defined]
                or "Something went wrong" in line]


@pytest.mark.parametrize("topic", ["lote-modern", "terra-nova", "terra-prime", "freeform"])
async def test_each_rulesets_help_fits(lite: Console, topic: str) -> None:
    await lite.run_line(f"@you /help topic:{topic}")
    assert lite.fake.rejected == []
    assert all(limits(m, f) == [] for m, f in built(lite.fake.sent))
