""""Since you last looked" (issue 15): one private digest of what a player may see since their mark, shown once by
itself after their next command when they come back to news, and by /catchup; never another seat's secrets."""

from __future__ import annotations

import asyncio
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from sqlalchemy import select

from bot.console.runner import Console, seeded_secrets
from bot.service import campaigns, catchup, gm, news, orders
from bot.service.clock import ManualClock
from bot.service.context import Caller, Services
from bot.store.db import Database
from bot.store.models import Campaign, Seat
from tests.platform.test_canary import Watch
from tests.platform.test_embeds import built, limits
from tests.platform.test_unit import statements

EXAMPLES = Path(__file__).parents[2] / "examples"
DIGEST = "Since you last looked"


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


@pytest.mark.parametrize("ruleset", ["freeform", "terra-nova", "terra-prime", "lote-modern"])
async def test_the_catchup_examples_run(lite: Console, ruleset: str) -> None:
    """examples/<ruleset>/catchup.txt, every `expect` held, every message within Discord's limits."""
    folder = EXAMPLES / ruleset
    lite.services.secret = seeded_secrets("demo")
    lite.base_dir = folder
    await lite.run_script((folder / "catchup.txt").read_text(encoding="utf-8"))
    assert lite.fake.rejected == []
    assert all(limits(m, f) == [] for m, f in built(lite.fake.sent))


PUNIC = """
gm @gm
@gm #forum /campaign create name:Punic ruleset:freeform options:"reveal_orders=no"
@hanno /campaign join seat:Carthage
@livia /campaign join seat:Rome
@gm /campaign start
"""


async def test_another_seats_private_news_never_reaches_the_digest(lite: Console) -> None:
    """Canaries in Carthage's private places (its orders, a private result, a private note, a private roll) while
    Rome is away; Rome's digest (shown by itself and asked for), a spectator's and the GM's are all read with who
    could see them: the canaries reach Carthage's holder and the GM only, and the digests did show up."""
    watch = Watch(lite)
    secrets = {"orders": "canaryordersczq", "result": "canaryresultczq", "note": "canarynoteczq"}
    await watch.run(PUNIC + f"""
@hanno /orders submit text:"{secrets['orders']}"
clock +1d
@gm /gm act action:"result Carthage: {secrets['result']}"
@gm /gm act action:"result Rome: the scouts are back"
@gm /gm act action:"result all: winter comes"
@gm /gm advance
@gm press "Advance anyway"
@gm /gm note seat:Carthage text:"{secrets['note']}"
@hanno /roll notation:1d6 private:yes
clock +2d
@livia /campaign status
@livia /catchup
@eve /catchup campaign:Punic
@gm /catchup
@hanno /catchup
""")
    digests = [s for s in watch.seen if DIGEST in s.text]
    by = {next(iter(s.readers)) for s in digests if s.readers}
    assert {"livia", "eve", "gm", "hanno"} <= by, by
    assert all(s.readers is not None and len(s.readers) == 1 for s in digests), "a digest went out in public"
    rome = [s.text for s in digests if s.readers == frozenset({"livia"})]
    assert any("the scouts are back" in t and "winter comes" in t for t in rome), "Rome's own news is in it"
    for secret in secrets.values():
        leaks = [s.where for s in watch.seen if secret in s.text and (s.readers is None
                                                                       or not s.readers <= {"hanno", "gm"})]
        assert not leaks, f"{secret} leaked in {leaks}"
    assert any(secrets["result"] in s.text for s in digests if s.readers == frozenset({"hanno"}))
    assert any(secrets["result"] in s.text for s in digests if s.readers == frozenset({"gm"}))
    spectator = " ".join(s.text for s in digests if s.readers == frozenset({"eve"}))
    assert "winter comes" in spectator and "the scouts are back" not in spectator
    assert lite.fake.rejected == []


async def _digests(con: Console, line: str) -> int:
    return (await said(con, line)).count(DIGEST)


async def test_shown_once_only_after_news_and_a_long_enough_absence(lite: Console) -> None:
    await lite.run_script(PUNIC)
    assert await _digests(lite, "@livia /orders submit text:hold") == 0  # the start was hours ago, no absence
    await lite.run_script("@gm /gm deadline set when:3d")
    assert await _digests(lite, "@livia /campaign status") == 0  # news, but she was here minutes ago
    await lite.run_script("clock +1h\n@gm /gm advance\n@gm press \"Advance anyway\"")
    assert await _digests(lite, "@livia /map") == 0  # a turn resolved, but her mark moved with that last look
    await lite.run_script("clock +13h\n@gm /gm deadline set when:2d")
    assert await _digests(lite, "@livia /map") == 1  # 13 hours away, to news: shown after the answer
    assert await _digests(lite, "@livia /map") == 0  # once
    await lite.run_script("clock +2d\n@hanno /orders submit text:march")  # only another seat's orders: no news
    assert await _digests(lite, "@livia /map") == 0
    assert lite.fake.rejected == []


async def test_the_gm_or_the_player_turns_it_off(lite: Console) -> None:
    await lite.run_script(PUNIC)
    assert "no longer shown by itself" in await said(lite, "@livia /catchup auto:off")
    await lite.run_script("clock +1d\n@gm /gm deadline set when:3d\nclock +1d")
    assert await _digests(lite, "@livia /map") == 0
    assert await _digests(lite, "@hanno /map") == 1  # Carthage still has it on
    assert "`catchup` = off" in await said(lite, "@gm /gm settings key:catchup value:off")
    await lite.run_script("clock +1d\n@gm /gm deadline set when:2d\nclock +1d")
    assert await _digests(lite, "@hanno /map") == 0
    assert DIGEST in await said(lite, "@hanno /catchup")  # asking still works
    assert "`catchup` = 12h" in await said(lite, "@gm /gm settings key:catchup value:on")
    assert "`catchup` = 2d" in await said(lite, "@gm /gm settings key:catchup value:2d")


async def test_a_seats_new_holder_is_not_told_the_old_holders_backlog(lite: Console) -> None:
    """Decided: a seat's mark is reset when it changes hands. The newcomer is not shown the turns before they
    came as news (the seat's past stays readable with /history); from then on, they are told like anyone."""
    await lite.run_script(PUNIC + """
@livia /orders submit text:hold
clock +1d
@gm /gm act action:"result Rome: the old holder's harvest failed"
@gm /gm advance
@gm press "Advance anyway"
clock +1d
@gm /gm seat replace seat:Rome user:@newcomer
@gm press "Replace them"
clock +2d
""")
    assert await _digests(lite, "@newcomer /map") == 0  # nothing new since the seat became theirs
    asked = await said(lite, "@newcomer /catchup")
    assert DIGEST in asked and "no phase resolved" in asked and "harvest" not in asked
    assert "📜 **Your orders are due**" in asked  # what waits on them now
    assert "harvest" in await said(lite, "@newcomer /history turn:1")  # the seat's past, as the seat may see it
    await lite.run_script("@gm /gm act action:\"result Rome: the newcomer's news\"\n@gm /gm advance\n"
                          "@gm press \"Advance anyway\"\nclock +1d")
    out = await said(lite, "@newcomer /map")
    assert out.count(DIGEST) == 1 and "the newcomer's news" in out and "harvest" not in out


async def test_a_very_long_absence_is_summarised_within_discords_limits(lite: Console) -> None:
    turns = "\n".join(f'@gm /gm act action:"result all: turn {n} — {"the armies march and the fleets sail " * 4}"\n'
                      f'@gm /gm act action:"result Carthage: Carthage alone reads {n}"\n'
                      f'@gm /gm note text:"a word from the GM on turn {n}"\n'
                      f'@gm /gm deadline set when:2d\n'
                      f'@gm /gm advance\n@gm press "Advance anyway"' for n in range(1, 41))
    await lite.run_script(PUNIC + "clock +1d\n" + turns + "\nclock +3d")
    out = await said(lite, "@livia /campaign status")
    assert out.count(DIGEST) == 1
    assert "40 phases resolved" in out
    assert "32 earlier phase(s): `/history` tells them" in out  # the latest 8 are named, the rest counted
    assert "**Turn 40 — orders**: turn 40 —" in out and "**Turn 32 — orders**" not in out
    assert "(the deadline changed 40 times)" in out
    assert "Carthage alone" not in out
    assert lite.fake.rejected == []
    assert all(limits(m, f) == [] for m, f in built(lite.fake.sent))


# -- the service underneath: no statement when nothing is new, one digest of two racing commands ------------------

TABLE = 777
GM = Caller(user_id=1, name="gm", guild_id=1, channel_id=TABLE)
ROME = Caller(user_id=11, name="cato", guild_id=1, channel_id=TABLE)
CARTHAGE = Caller(user_id=12, name="hanno", guild_id=1, channel_id=TABLE)


async def _running(db: Database) -> tuple[Services, ManualClock]:
    clock = ManualClock()
    services = Services(db=db, clock=clock)
    await campaigns.create(services, GM, "Punic Wars", "freeform", None)
    await campaigns.join(services, ROME, "Rome", None)
    await campaigns.join(services, CARTHAGE, "Carthage", None)
    await campaigns.start(services, GM, None)
    return services, clock


async def test_a_command_with_nothing_new_runs_no_statement_for_it(db: Database) -> None:
    services, _clock = await _running(db)
    news.begin()
    await orders.submit(services, ROME, "hold Sicilia", None)
    [start] = news.taken()  # the start is news since Rome joined: the follow-up moves the mark (silently: no
    assert await catchup.automatic(services, ROME, start) is None  # absence)
    news.begin()
    with statements(db) as caught_up:
        await orders.submit(services, ROME, "hold Sicilia | build a fleet", None)
    assert news.taken() == []  # their own orders are not news to them
    await gm.deadline(services, GM, "3d", None)
    news.begin()
    with statements(db) as with_news:
        await orders.submit(services, ROME, "hold Sicilia", None)
    dues = news.taken()
    assert len(dues) == 1  # found by comparing the columns the lookup read…
    assert len(with_news) == len(caught_up)  # …in the same statements as before: none of its own


async def test_two_commands_racing_show_the_digest_once(db: Database) -> None:
    services, clock = await _running(db)
    await gm.deadline(services, GM, "3d", None)
    clock.advance(timedelta(days=2))
    async with services.db.read() as session:
        seat = await session.scalar(select(Seat).where(Seat.name == "Rome"))
        assert seat is not None
    due = news.Due(seat.campaign_id, seat.id)
    shown = await asyncio.gather(*(catchup.automatic(services, ROME, due) for _ in range(3)))
    assert sum(r is not None for r in shown) == 1
    reply = next(r for r in shown if r is not None)
    assert reply.card == "catchup" and "⏰ Deadline set to" in reply.text
    assert await catchup.automatic(services, ROME, due) is None  # and not again afterwards


def test_the_digest_is_a_card_that_fits() -> None:
    from bot.service import cards

    since = catchup.Since(phases=[(f"Turn {n} — {'x' * 200}", ["y" * 400] * 30) for n in range(300)],
                          mine=["z" * 300] * 100, deadlines=["⏰ Deadline set"] * 50, entries=2000, cut=True)
    text = catchup.compose("Ω" * 60, "Σ" * 40, since, catchup.Now(["**Turn 300**", "📜 **Your orders are due**"]),
                           looked_at=None)
    content, embeds = cards.present("catchup", text)
    assert content == "" and len(embeds) == 1
    assert len(json.dumps(embeds)) < 12000
    assert "…292 earlier phase(s)" in text and "…and 92 earlier" in text and "the latest 2,000 entries" in text
    assert re.search(r"\(\+29 more\)", text)


async def test_a_rollback_is_told_and_what_it_took_back_is_not(lite: Console) -> None:
    await lite.run_script(PUNIC + """
@livia /orders submit text:hold
clock +1d
@gm /gm act action:"result all: the bridge at Cannae falls"
@gm /gm advance
@gm press "Advance anyway"
@gm /gm rollback reason:"a ruling reconsidered"
clock +2d
""")
    out = await said(lite, "@livia /map")
    assert out.count(DIGEST) == 1
    assert "⏪ The GM rolled back to **Turn 1 — orders (before it resolved)** (a ruling reconsidered)" in out
    assert "no phase resolved" in out
    assert "Cannae" not in out  # taken back: not told as news
    assert "✅ Your orders are in" in out


async def test_a_form_or_a_refusal_takes_no_digest_and_the_next_command_shows_it(lite: Console) -> None:
    await lite.run_script(PUNIC + "clock +1d\n@gm /gm deadline set when:3d\nclock +1d")
    out = await said(lite, "@livia /orders submit")  # answered with a form: no follow-up can follow it
    assert "form for @livia" in out and DIGEST not in out
    out = await said(lite, "@livia /sheet seat:Carthage")  # refused: the refusal alone, the mark stays
    assert "private to that seat" in out and DIGEST not in out
    assert await _digests(lite, "@livia /map") == 1
    assert lite.fake.rejected == []


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_seats_of_a_campaign_running_before_the_upgrade_have_no_backlog(backend: str, tmp_path: Path) -> None:
    """Migration 0007 puts every seat's mark at its campaign's log seq: nothing old is told as news."""
    from sqlalchemy import text

    from bot.store import migrate
    from tests.conftest import drop_schema, make_db

    db, schema = await make_db(backend, tmp_path)
    try:
        await migrate.upgrade(db, "0006")
        async with db.writer.begin() as conn:  # a running campaign as the schema before 0007 held it
            await conn.execute(text(
                "INSERT INTO campaign (id, guild_id, channel_id, name, ruleset, ruleset_version, options, settings, "
                "files, tables, gm_user_id, status, seed, commitment, turn, log_seq, roll_count, created_at, "
                "version_id) VALUES (1, 1, 777, 'Old War', 'freeform', '1', '{}', '{}', '{}', '{}', 1, 'running', "
                "'00', '00', 3, 42, 0, '2026-01-01 00:00:00', 1)"))
            await conn.execute(text("INSERT INTO seat (campaign_id, name, user_id, automatic, position, joined_at) "
                                    "VALUES (1, 'Rome', 11, false, 0, '2026-01-01 00:00:00')"))
        await migrate.upgrade(db)
        async with db.read() as session:
            rows = (await session.execute(select(Seat.looked_seq, Seat.catchup_auto, Campaign.news_seq)
                                          .join(Campaign, Campaign.id == Seat.campaign_id))).all()
        assert [tuple(r) for r in rows] == [(42, True, 0)]
    finally:
        await db.dispose()
        if schema:
            await drop_schema(schema)


@pytest.mark.postgres
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_downgrading_step_by_step_keeps_every_campaigns_seats_and_log(backend: str, tmp_path: Path) -> None:
    """Each downgrade down to the first revision keeps the rows: on SQLite a batch copy of `campaign` or `seat`
    drops the old table, and with foreign keys on that deleted every seat, log entry and order referring to it."""
    from sqlalchemy import func, text

    from bot.store import migrate
    from bot.store.models import LogEntry
    from tests.conftest import drop_schema, make_db

    db, schema = await make_db(backend, tmp_path)
    try:
        await migrate.upgrade(db)
        await _running(db)
        async with db.read() as session:
            entries = await session.scalar(select(func.count()).select_from(LogEntry))
        for revision in ("0006", "0005", "0004", "0003", "0002", "0001"):
            await migrate.downgrade(db, revision)
            async with db.writer.connect() as conn:
                counts = [(await conn.execute(text(f"SELECT count(*) FROM {t}"))).scalar_one()
                          for t in ("campaign", "seat", "log_entry")]
            assert counts == [1, 2, entries], f"after downgrading to {revision}"
    finally:
        await db.dispose()
        if schema:
            await drop_schema(schema)


async def test_a_player_back_after_days_who_presses_a_button_is_shown_the_digest_once(lite: Console) -> None:
    """Terra Prime is played by buttons and menus: a press is the player's next command as much as a slash one."""
    await lite.run_script("""
@ana #lounge /campaign create name:Duo ruleset:terra-prime
@ana /campaign join seat:Ana
@bo /campaign join seat:Bo
@ana /campaign start
""")
    opened = re.search(r"Round 1 — (Ana|Bo)", "\n".join(lite.transcript))  # type: ignore[attr-defined]
    assert opened
    player, other = ("@ana", "@bo") if opened[1] == "Bo" else ("@bo", "@ana")
    for _ in range(6):                                          # the other seat's turn passes: news
        if "not your turn" in "\n".join(await lite.run_line(f'{other} /act action:"pass"')):
            break
    await lite.run_line("clock +2d")
    out = "\n".join(await lite.run_line(f'{player} press "Take your turn"'))
    assert DIGEST in out and "(only they see this)" in out.split(DIGEST)[0].rsplit("\n", 1)[-1], out
    again = "\n".join(await lite.run_line(f'{player} press "Take your turn"'))
    assert DIGEST not in again
