"""What a newcomer types, through the fake Discord: forgiving names, Avrae-style dice, deadlines in words and in
the campaign's time zone, pause and resume, help about rulesets, a history without the bookkeeping, and a
console that needs no @name to start."""

from __future__ import annotations

import re

import pytest

from bot.console.runner import Console

SETUP = """
gm @gaius
@gaius #forum /campaign create name:"Côte Campaign" ruleset:"Free"
@vercingetorix /campaign join seat:Arverni
@ambiorix /campaign join seat:Eburones
@gaius /campaign start
"""


@pytest.fixture
async def gaul(lite: Console) -> Console:
    await lite.run_script(SETUP)
    return lite


async def said(con: Console, line: str) -> str:
    return "\n".join(await con.run_line(line))


# -- forgiving names -----------------------------------------------------------------------------------------
async def test_a_ruleset_title_a_campaign_prefix_without_accents_and_a_seat_prefix_are_understood(gaul: Console):
    status = await said(gaul, "@ambiorix #elsewhere /campaign status campaign:cote")
    assert "**Côte Campaign — freeform — running**" in status
    assert "Remove @vercingetorix from **Arverni**?" in await said(gaul, "@gaius /gm seat kick seat:arv campaign:CÔTE")
    assert "vacated the seat **Arverni**" in await said(gaul, '@gaius press "Remove them"')


async def test_a_misspelt_name_gets_did_you_mean_and_an_ambiguous_one_the_candidates(gaul: Console):
    assert "did you mean **Côte Campaign**?" in await said(gaul, "@ambiorix #elsewhere /campaign status "
                                                                  'campaign:"Cote Campain"')
    await gaul.run_line('@gaius #forum /campaign create name:"Cote Two" ruleset:freeform')
    out = await said(gaul, "@ambiorix #elsewhere /campaign status campaign:cote")
    assert "`cote` could be" in out and "**Côte Campaign**" in out and "**Cote Two**" in out
    assert "did you mean **Eburones**?" in await said(gaul, '@gaius #forum /gm seat kick seat:Eburonse '
                                                           'campaign:"Côte Campaign"')
    assert "did you mean **terra-nova**?" in await said(gaul, "@gaius /campaign create name:X ruleset:terranvoa")


# -- dice -------------------------------------------------------------------------------------------------------
async def test_advantage_with_a_label_strikes_the_lower_die_and_is_logged(gaul: Console):
    out = await said(gaul, '@ambiorix #forum /roll notation:"1d20+5 adv to hit"')
    found = re.search(r"1d20\+5 adv \(to hit\): \((\d+|~~\d+~~), (\d+|~~\d+~~)\) \+ 5 = \*\*(\d+)\*\*", out)
    assert found, out
    dice = [int(d.strip("~")) for d in found.groups()[:2]]
    kept = [int(d) for d in found.groups()[:2] if not d.startswith("~~")]
    assert len(kept) == 1 and kept[0] == max(dice) and int(found[3]) == max(dice) + 5
    assert "roll #1" in out  # from the campaign's seeded stream, logged


async def test_keep_drop_and_misused_words_are_answered_in_our_words(gaul: Console):
    assert out_has(await said(gaul, "@ambiorix #forum /roll notation:4d6kh3"), r"4d6kh3: \(.*~~\d~~.*\) = ")
    out = await said(gaul, "@ambiorix #forum /roll notation:4d6dh4")
    assert "`4d6dh4` drops every die" in out and "Expected" not in out
    out = await said(gaul, '@ambiorix #forum /roll notation:"2d6 adv"')
    assert "adv and dis roll a d20 twice" in out


def out_has(text: str, pattern: str) -> bool:
    return re.search(pattern, text) is not None


# -- deadlines, time zone, pause ----------------------------------------------------------------------------------
async def test_a_deadline_in_words_is_read_in_the_campaigns_time_zone_and_shown_as_a_discord_timestamp(gaul: Console):
    assert "Europe/Paris" in await said(gaul, "@gaius #forum /gm settings key:time_zone value:paris")
    # the console starts on Monday 2026-01-05 12:00 UTC; Friday 18:00 in Paris is 17:00 UTC
    out = await said(gaul, '@gaius /gm deadline set when:"friday 18:00"')
    assert "2026-01-09 17:00 UTC" in out
    posted = [s.payload.get("content") or "" for s in gaul.fake.sent if s.kind == "channel_message"]
    assert any(re.search(r"<t:1767978000:F> \(<t:1767978000:R>\)", p) for p in posted)
    assert "2026-01-10 17:00 UTC" in await said(gaul, "@gaius /gm deadline extend by:1d")
    assert "no time zone `Atlantis`" in await said(gaul, "@gaius /gm settings key:time_zone value:Atlantis")
    assert "is not a time I can read" in await said(gaul, '@gaius /gm deadline set when:"someday soon"')


async def test_a_deadline_moved_by_days_keeps_its_clock_time_when_summer_time_begins(gaul: Console):
    await gaul.run_line("@gaius #forum /gm settings key:time_zone value:paris")
    await gaul.run_line("clock +81d")  # Friday 2026-03-27 12:00 UTC; Paris moves its clocks on Sunday the 29th
    assert "2026-03-27 17:00 UTC" in await said(gaul, '@gaius /gm deadline set when:"friday 18:00"')
    assert "2026-03-29 16:00 UTC" in await said(gaul, "@gaius /gm deadline extend by:2d")  # still 18:00 in Paris
    assert "2026-03-29 18:00 UTC" in await said(gaul, "@gaius /gm deadline extend by:2h")  # hours are hours


async def test_a_reminder_that_comes_due_after_its_deadline_is_not_sent(gaul: Console):
    await gaul.run_line("@gaius #forum /gm settings key:reminders value:1h")
    await gaul.run_line("@gaius /gm deadline set when:2h")
    out = await said(gaul, "clock +3h")  # the bot was down across both: the deadline speaks for itself
    assert "has passed" in out and "are due" not in out
    await gaul.run_line("@gaius /gm deadline set when:2h")
    assert "are due in 59m" in await said(gaul, "clock +61m")


async def test_a_paused_campaign_keeps_its_time_left_and_the_thread_is_told(gaul: Console):
    await gaul.run_line("@gaius #forum /gm settings key:auto_advance value:deadline")
    await gaul.run_line('@gaius /gm deadline set when:"in 2 days"')
    out = await said(gaul, '@gaius /gm pause reason:"Saturnalia"')
    assert "paused **Côte Campaign** (Saturnalia)" in out and "2d to go" in out
    assert "already paused" in await said(gaul, "@gaius /gm pause")
    out = await said(gaul, "clock +10d")
    assert "has passed" not in out and "resolved" not in out  # ten days on, nothing fired
    out = await said(gaul, "@gaius /gm resume")
    assert "resumed **Côte Campaign**" in out and "in 2d" in out  # the two days are still to run
    assert "not paused" in await said(gaul, "@gaius /gm resume")
    out = await said(gaul, "clock +2d")
    assert "The deadline for **Turn 1 — orders** has passed" in out


async def test_a_deadline_set_while_paused_waits_for_the_resume(gaul: Console):
    await gaul.run_line("@gaius #forum /gm pause")
    await gaul.run_line("@gaius /gm deadline set when:1d")
    assert "has passed" not in await said(gaul, "clock +3d")
    assert "in 1d" in await said(gaul, "@gaius /gm resume")


async def test_only_the_gm_pauses(gaul: Console):
    assert "only the GM" in await said(gaul, "@ambiorix #forum /gm pause")


# -- help and history -------------------------------------------------------------------------------------------
async def test_help_lists_the_rulesets_and_a_ruleset_shows_its_options_and_grammar_in_a_code_block(lite: Console):
    out = await said(lite, "@ann /help topic:rulesets")
    assert "`terra-nova` — **Terra Nova**" in out and "`lote-modern`" in out
    out = await said(lite, '@ann /help topic:"terra nova"')
    assert "`late_ships_turn` = `13` (1-40)" in out
    assert "```text\nB.5 purchases" in out.replace("      ", "")  # the columns stay columns
    assert "did you mean **dice**?" in await said(lite, "@ann /help topic:dcie")


async def test_history_shows_the_last_resolved_turn_without_bookkeeping_unless_asked(gaul: Console):
    await gaul.run_line('@vercingetorix #forum /orders submit text:"raid the Aedui"')
    await gaul.run_line("@gaius /gm settings key:reminders value:12h")
    await gaul.run_line('@gaius /gm act action:"result all: The Aedui burn."')
    await gaul.run_line("@gaius /gm advance")
    await gaul.run_line('@gaius press "Advance anyway"')
    out = await said(gaul, "@ambiorix /history")
    assert "turn 1 (the last resolved)" in out and "The Aedui burn." in out
    assert "settings — GM" not in out and "`/history all:yes` shows them" in out
    assert "settings — GM" in await said(gaul, "@ambiorix /history turn:1 all:yes")


async def test_rollback_choices_name_the_phase_and_the_time_not_an_id(gaul: Console):
    await gaul.run_line("@gaius #forum /gm advance")
    await gaul.run_line('@gaius press "Advance anyway"')
    out = await said(gaul, '@gaius complete /gm rollback to:"Turn"')
    assert "start of Turn 1 — orders — Mon 05 Jan 12:00 UTC" in out
    assert "before resolving Turn 1 — orders — Mon 05 Jan 12:00 UTC" in out and "(before it resolved)" not in out


# -- the console for newcomers ----------------------------------------------------------------------------------
async def test_a_first_line_with_no_name_acts_as_you_and_words_fill_the_first_option(lite: Console):
    out = await said(lite, "/help orders")
    assert lite.user == "you" and "to @you" in out and "**Orders** are private" in out
    out = await said(lite, "/roll 1d20+5 dis to hit")
    assert "you rolls" in out and "1d20+5 dis (to hit)" in out


async def test_pause_and_resume_hold_on_both_databases_and_the_status_says_so(console: Console):
    await console.run_script(SETUP)
    await console.run_line("@gaius #forum /gm deadline set when:36h")
    await console.run_line("@gaius /gm pause")
    await console.run_line("clock +1d")
    status = await said(console, "@ambiorix /campaign status")
    assert "⏸️ Paused since" in status and "the deadline has 1d 12h left" in status and "Deadline:" not in status
    assert "in 1d 12h" in await said(console, "@gaius /gm resume")
    assert "Deadline: 2026-01-08 00:00 UTC (in 1d 12h)" in await said(console, "@ambiorix /campaign status")


async def test_in_the_lobby_a_shorter_name_is_a_new_seat_not_the_start_of_an_old_one(lite: Console):
    await lite.run_line("gm @gaius")
    await lite.run_line("@gaius #forum /campaign create name:Lobby ruleset:freeform")
    await lite.run_line('@gaius /gm seat assign seat:"Gaulish Tribes" user:@vercingetorix')
    assert "takes the seat **Gaul**" in await said(lite, "@gaius /gm seat assign seat:Gaul user:@ambiorix")
    await lite.run_line("@gaius /gm seat kick seat:gaulish")
    assert "removed the seat **Gaulish Tribes**" in await said(lite, '@gaius press "Remove them"')


async def test_in_a_lobby_of_fixed_seats_the_gm_and_players_name_them_forgivingly(lite: Console):
    """Terra Nova's seats are its powers: a prefix or another case is the power, a typo gets "did you mean",
    and a prefix of a power already seated is that seat, never a second one."""
    await lite.run_line("gm @gaius")
    await lite.run_line("@gaius #forum /campaign create name:Tordesillas ruleset:terra-nova")
    assert "takes the seat **England**" in await said(lite, "@gaius /gm seat assign seat:eng user:@vercingetorix")
    out = await said(lite, "@gaius /gm seat assign seat:Englnd user:@ambiorix")
    assert "did you mean **England**?" in out and "the seats are" in out
    assert "**England** is held by @vercingetorix" in await said(lite, "@gaius /gm seat assign seat:ENGL "
                                                                       "user:@ambiorix")
    assert "Seats (1/5, at least 1): England\n" in await said(lite, "@gaius /campaign status")
    assert "as **Spain**" in await said(lite, "@ambiorix /campaign join seat:spa")
    assert "did you mean **France**?" in await said(lite, "@scipio /campaign join seat:Frnace")
