"""Persistent components: they carry the campaign id in their custom_id and survive restarts."""

from __future__ import annotations

import logging
import re
import secrets
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import discord

from bot.discord.answers import tell_quietly
from bot.discord.caller import caller_of
from bot.service import confirmations, news, orders, play
from bot.service.errors import ServiceError
from bot.service.play import phase_tag
from engine.core import Action, RulesError

if TYPE_CHECKING:
    from bot.discord.client import HeraldBot

log = logging.getLogger(__name__)
MAX_ROWS = 5
MAX_OPTIONS = 25
# a campaign id fits PostgreSQL's BIGINT; a forged longer one is a stale button, not a query
CID = r"(?P<cid>[1-9]\d{0,17})"
STALE = "This button is no longer valid: use the command instead (e.g. `/act`, `/orders submit`)."


def _bot(interaction: discord.Interaction) -> HeraldBot:
    return interaction.client  # type: ignore[return-value]


async def _guarded(interaction: discord.Interaction, coro: Any) -> None:
    """Run a component's work; whatever happens, the presser gets one answer. A press is a command too: a player
    back after days who presses "Take your turn" is shown "since you last looked" after its answer, once."""
    from bot.discord.cogs.catchup import shown_once

    news.begin()
    try:
        await coro
        await shown_once(interaction)
    except (ServiceError, RulesError) as exc:
        await tell_quietly(interaction, str(exc))
    except Exception:
        error_id = secrets.token_hex(4)
        log.exception("error %s in component %s", error_id, dict(interaction.data or {}).get("custom_id"))
        await tell_quietly(interaction, f"Something went wrong on Herald's side (error `{error_id}`); "
                                        f"quote that id to whoever runs Herald.")


class StaleComponent(discord.ui.DynamicItem[discord.ui.Button[Any]],
                     template=r"(?!herald:turn:[1-9]\d{0,17}$|herald:orders:[1-9]\d{0,17}$"
                              r"|herald:act:[1-9]\d{0,17}:[0-9a-f]{8}:[0-4]$"
                              r"|herald:confirm:[0-9a-f]{24}:(?:yes|no)$).*"):
    """Any component id Herald does not make (forged, or from an older Herald): a clear private answer."""

    def __init__(self, custom_id: str = "herald:stale") -> None:
        super().__init__(discord.ui.Button(label="…", custom_id=custom_id[:100] or "herald:stale"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> StaleComponent:
        return cls()

    async def callback(self, interaction: discord.Interaction) -> None:
        await tell_quietly(interaction, STALE)


class TurnButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"herald:turn:" + CID):
    """'Take your turn': shows the presser their legal actions, privately."""

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id
        super().__init__(discord.ui.Button(label="Take your turn", style=discord.ButtonStyle.primary,
                                           custom_id=f"herald:turn:{campaign_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> TurnButton:
        return cls(int(match["cid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord.replies import defer, send

        async def run() -> None:
            await defer(interaction)
            bot = _bot(interaction)
            reply = await play.legal_actions(bot.services, caller_of(interaction, bot.gm_role), f"#{self.campaign_id}")
            await send(interaction, reply)

        await _guarded(interaction, run())


class OrdersButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"herald:orders:" + CID):
    """'Write orders': opens the orders form, pre-filled with what the seat sent so far."""

    def __init__(self, campaign_id: int) -> None:
        self.campaign_id = campaign_id
        super().__init__(discord.ui.Button(label="Write orders", style=discord.ButtonStyle.primary,
                                           custom_id=f"herald:orders:{campaign_id}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> OrdersButton:
        return cls(int(match["cid"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        async def run() -> None:
            bot = _bot(interaction)
            cid, text = await orders.current_text(bot.services, caller_of(interaction, bot.gm_role),
                                                  f"#{self.campaign_id}")
            await interaction.response.send_modal(OrdersModal(cid, text))

        await _guarded(interaction, run())


class ConfirmButton(discord.ui.DynamicItem[discord.ui.Button[Any]],
                    template=r"herald:confirm:(?P<token>[0-9a-f]{24}):(?P<choice>yes|no)"):
    """Yes or no to a question Herald asked before something that cannot be undone. The custom_id holds only the
    question's random token: who may answer, about what, and until when are kept in the database."""

    def __init__(self, token: str, choice: str, label: str = "Confirm") -> None:
        self.token, self.choice = token, choice
        style = discord.ButtonStyle.danger if choice == "yes" else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(label=label[:80], style=style,
                                           custom_id=f"herald:confirm:{token}:{choice}"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ConfirmButton:
        return cls(match["token"], match["choice"])

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord.replies import defer, earlier_answer, send

        async def run() -> None:
            if await earlier_answer(interaction):  # a gateway replay of this very press
                return
            await defer(interaction)
            bot = _bot(interaction)
            reply = await confirmations.answer(bot.services, caller_of(interaction, bot.gm_role), self.token,
                                               confirmed=self.choice == "yes")
            await send(interaction, reply)

        await _guarded(interaction, run())


def confirm_view(token: str, label: str) -> discord.ui.View:
    """The two buttons of a question: do it (labelled with what it does), or cancel."""
    view = discord.ui.View(timeout=None)
    view.add_item(ConfirmButton(token, "yes", label))
    view.add_item(ConfirmButton(token, "no", "Cancel"))
    return view


FORM_ID = re.compile(r"herald:orders-form:" + CID + r":(?P<mode>check|submit)")


class OrdersModal(discord.ui.Modal):
    """The orders form: one long field (Discord allows 4000 characters; attach a file for more). What it sends
    back is handled by `orders_form_sent`, from its custom_id alone, so two players' open forms never share
    state and a form sent after a restart is still answered."""

    def __init__(self, campaign_id: int, current: str = "", *, dry_run: bool = False) -> None:
        mode = "check" if dry_run else "submit"
        super().__init__(title="Check orders" if dry_run else "Your orders",
                         custom_id=f"herald:orders-form:{campaign_id}:{mode}", timeout=1)
        self.text: discord.ui.TextInput[OrdersModal] = discord.ui.TextInput(
            label="Orders, one per line", style=discord.TextStyle.paragraph, max_length=orders.FORM_LIMIT,
            default=current or None, custom_id="orders", required=True)
        self.add_item(self.text)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        """Nothing: `orders_form_sent` answers every submission, whether or not this object still exists."""


def _form_value(data: Any, field: str) -> str:
    """A text input's value from a modal submission (in an action row, or in a label)."""
    stack = list(dict(data or {}).get("components") or [])
    while stack:
        item = stack.pop(0)
        if not isinstance(item, dict):
            continue
        if item.get("custom_id") == field and isinstance(item.get("value"), str):
            return str(item["value"])
        stack += list(item.get("components") or []) + ([item["component"]] if "component" in item else [])
    return ""


async def orders_form_sent(interaction: discord.Interaction) -> None:
    """Listener for every interaction: answers submissions of the orders form."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    custom_id = str(dict(interaction.data or {}).get("custom_id", ""))
    if not custom_id.startswith("herald:orders-form:"):
        return
    from bot.discord.replies import defer, earlier_answer, send

    match = FORM_ID.fullmatch(custom_id)

    async def run() -> None:
        if match is None:
            await tell_quietly(interaction, "This form is from an older Herald: open it again with `/orders "
                                            "submit` (your orders were not sent).")
            return
        dry_run = match["mode"] == "check"
        command = None if dry_run else "orders submit"
        if await earlier_answer(interaction, command):
            return
        bot = _bot(interaction)
        await defer(interaction)
        call = orders.check if dry_run else orders.submit
        reply = await call(bot.services, caller_of(interaction, bot.gm_role), _form_value(interaction.data, "orders"),
                           f"#{match['cid']}")
        await send(interaction, reply, command=command)

    await _guarded(interaction, run())


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]],
                   template=r"herald:act:" + CID + r":(?P<tag>[0-9a-f]{8}):(?P<row>[0-4])"):
    """A menu of legal actions of one kind; choosing one takes it."""

    def __init__(self, campaign_id: int, tag: str, row: int, placeholder: str = "Choose an action",
                 options: Sequence[discord.SelectOption] = ()) -> None:
        self.campaign_id, self.tag = campaign_id, tag
        select: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=f"herald:act:{campaign_id}:{tag}:{row}", placeholder=placeholder[:150],
            options=list(options) or [discord.SelectOption(label="…", value="…")], row=row)
        super().__init__(select)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> ActionSelect:
        return cls(int(match["cid"]), match["tag"], int(match["row"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.discord.replies import defer, earlier_answer, send

        async def run() -> None:
            if await earlier_answer(interaction, "act"):
                return
            bot = _bot(interaction)
            await defer(interaction)
            values: Any = dict(interaction.data or {}).get("values") or []
            if not values or not isinstance(values[0], str):
                await tell_quietly(interaction, STALE)
                return
            reply = await play.act(bot.services, caller_of(interaction, bot.gm_role), values[0][:100],
                                   f"#{self.campaign_id}", expected_tag=self.tag)
            await send(interaction, reply, command="act")

        await _guarded(interaction, run())


def plan_menus(actions: Sequence[Action]) -> tuple[list[tuple[str, list[Action]]], int]:
    """Menus for the legal actions within Discord's five rows of 25: a big kind fills whole menus of 25,
    and what is left of it joins the small kinds, packed together when rows run short. Returns the menus
    and how many actions did not fit (those are typed with /act)."""
    groups: dict[str, list[Action]] = {}
    for action in actions:
        if len(action.text) <= 100:  # longer ones are typed with /act
            groups.setdefault(action.group, []).append(action)
    full: list[tuple[str, list[Action]]] = []
    pieces: list[tuple[list[str], list[Action]]] = []
    for group, items in groups.items():
        whole = len(items) // MAX_OPTIONS if len(items) > MAX_OPTIONS else 0
        for n in range(whole):
            full.append((f"{group} ({n + 1})", items[n * MAX_OPTIONS:(n + 1) * MAX_OPTIONS]))
        if items[whole * MAX_OPTIONS:]:
            pieces.append(([group], items[whole * MAX_OPTIONS:]))
    while len(pieces) > 1 and len(pieces) + len(full) > MAX_ROWS:
        pieces.sort(key=lambda m: len(m[1]))
        (names_a, a), (names_b, b) = pieces[0], pieces[1]
        if len(a) + len(b) > MAX_OPTIONS:
            break
        pieces = [(names_a + names_b, a + b), *pieces[2:]]
    order = list(groups)
    pieces.sort(key=lambda m: min(order.index(g) for g in m[0]))
    menus = [(" / ".join(names), items) for names, items in pieces] + full
    if len(menus) > MAX_ROWS:  # tidy menus do not fit: run every action in order through menus of 25
        flat = [a for items in groups.values() for a in items]
        menus = []
        for start in range(0, len(flat), MAX_OPTIONS):
            part = flat[start:start + MAX_OPTIONS]
            menus.append((" / ".join(dict.fromkeys(a.group for a in part)), part))
    shown = menus[:MAX_ROWS]
    return shown, len(actions) - sum(len(items) for _, items in shown)


def action_view(campaign_id: int, phase_key: str, actions: Sequence[Action]) -> tuple[discord.ui.View, int]:
    """A view of menus of the legal actions; returns it and how many actions did not fit."""
    tag = phase_tag(phase_key)
    menus, hidden = plan_menus(actions)
    view = discord.ui.View(timeout=None)
    for row, (group, items) in enumerate(menus):
        options = [discord.SelectOption(label=_clip(a.label, 100), value=a.text) for a in items]
        view.add_item(ActionSelect(campaign_id, tag, row, f"{group}…", options))
    return view, hidden


def _clip(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def buttons_view(buttons: Sequence[dict[str, str]]) -> discord.ui.View:
    """The persistent buttons an outbox post asked for."""
    view = discord.ui.View(timeout=None)
    for spec in buttons:
        kind, cid = spec["id"].split(":")[1:3]
        view.add_item(TurnButton(int(cid)) if kind == "turn" else OrdersButton(int(cid)))
    return view
