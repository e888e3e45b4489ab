"""/history reads one turn from the (campaign_id, turn) index and still strikes through what a rollback undid."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select

from bot.console.runner import Console
from bot.service import record
from bot.service.play import entry_lines, turn_entries
from bot.store.models import Campaign, LogEntry
from engine.core import Viewer

SCRIPT = """
gm @gaius
@gaius #forum /campaign create name:"Punic Wars" ruleset:freeform
@hanno /campaign join seat:Carthage
@livia /campaign join seat:Rome
@gaius /campaign start
@hanno /orders submit text:"raise a levy in Iberia"
@gaius /gm act action:"result all: Hannibal crosses the Alps."
@gaius /gm advance
@gaius press "Advance anyway"
expect "**Turn 2 — orders**: orders are open"
@livia /orders submit text:"hold Sicily"
@gaius /gm act action:"result Rome: Your scouts lose sight of the army."
@gaius /gm advance
@gaius press "Advance anyway"
expect "**Turn 3 — orders**: orders are open"
@gaius /gm rollback reason:"first"
expect "rolled **Punic Wars** back"
@gaius /gm rollback reason:"further"
expect "rolled **Punic Wars** back"
@hanno /orders submit text:"march on Rome"
"""

VIEWERS = [Viewer.gm(), Viewer.of_seat("Carthage"), Viewer.of_seat("Rome"), Viewer.spectator()]


def _lines(entries: list[Any], turn: int, viewer: Viewer) -> list[str]:
    undone = record.undone_seqs(entries)
    return [line for e in entries if e.turn == turn for line in entry_lines(e, viewer, undone=e.seq in undone)]


async def test_a_turn_paged_from_the_index_reads_as_the_whole_log_did(console: Console) -> None:
    await console.run_script(SCRIPT)
    async with console.services.db.read() as session:
        campaign = (await session.scalars(select(Campaign))).one()
        everything = list(await session.scalars(select(LogEntry).where(LogEntry.campaign_id == campaign.id)
                                                .order_by(LogEntry.seq)))
        # the later rollbacks come from their own (campaign_id, kind, seq) index however late the turn is
        paged = {turn: await turn_entries(session, campaign.id, turn, current=10**6) for turn in range(5)}
        late = {turn: await turn_entries(session, campaign.id, turn, current=0) for turn in range(5)}
    # the second rollback is logged in turn 1 and takes back turn 2's actions: a rollback later than the turn
    rollbacks = [e for e in everything if e.kind == "rollback"]
    assert any(r.turn < 2 for r in rollbacks)
    assert any("undone by a rollback" in line for line in _lines(paged[2], 2, Viewer.gm()))
    for turn in range(5):
        assert paged[turn] == late[turn]
        assert {e.turn for e in paged[turn] if e.kind != "rollback"} <= {turn}
        for viewer in VIEWERS:
            assert _lines(paged[turn], turn, viewer) == _lines(everything, turn, viewer), (turn, viewer)


async def test_history_shows_the_struck_through_turn_and_refuses_no_turn(console: Console) -> None:
    await console.run_script(SCRIPT)
    text = "\n".join(await console.run_line("@gaius #forum /history turn:2"))
    assert "~~" in text and "(undone by a rollback)" in text
    assert "Your scouts lose sight of the army." in text
    for turn in ("2147483648", "-1", "99"):
        said = "\n".join(await console.run_line(f"@gaius #forum /history turn:{turn}"))
        assert "Nothing on record for turn" in said


async def test_a_long_page_written_in_a_thread_reads_the_same(console: Console, monkeypatch: Any) -> None:
    from bot.service import play

    await console.run_script(SCRIPT)
    said = {}
    for limit in (10**6, 0):  # on the event loop; in a thread
        monkeypatch.setattr(play, "OFF_LOOP_ENTRIES", limit)
        said[limit] = [await console.run_line(f"@gaius #forum /history turn:{t}") for t in range(4)]
    assert said[0] == said[10**6]
    assert any("(undone by a rollback)" in line for page in said[0] for line in page)
