"""The console: the bot's real CommandTree, driven by script lines, printing what Discord would show."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import re
import secrets
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from sqlalchemy import func, select

from bot.console.fake import GUILD_ID, FakeDiscord, Sent
from bot.console.script import Line, ScriptError, parse
from bot.discord.client import HeraldBot
from bot.service import deadlines, outbox
from bot.service.clock import ManualClock, format_span, parse_span
from bot.service.context import Services
from bot.store.db import Database
from bot.store.models import Campaign, Receipt, Seat

OPTION_TYPES = discord.AppCommandOptionType


DEFAULT_USER = "you"  # who acts when a line names nobody and nobody acted before


def _as_options(command: Any, line: Line, words: list[str]) -> None:
    """Bare words after a command are its first option not named on the line, as Discord's client fills the
    first option as one types: `/help orders`, `/roll 1d20+5 adv to hit`."""
    free = [p for p in command.parameters if p.display_name not in line.options]
    if not free:
        names = ", ".join(p.display_name for p in command.parameters) or "none"
        raise ScriptError(f"/{line.words[0]}: `{words[0]}` has no option left to fill (its options: {names})")
    line.options = {free[0].display_name: " ".join(words), **line.options}


class ScriptFailed(AssertionError):
    """An `expect` line did not hold."""


def seeded_secrets(seed: str) -> Callable[[], bytes]:
    """Campaign seeds derived from the console's --seed, so a script replays exactly."""
    counter = itertools.count(1)
    return lambda: hmac.new(seed.encode(), f"campaign-{next(counter)}".encode(), hashlib.sha256).digest()


class Console:
    def __init__(self, db: Database, *, seed: str | None = None, out_dir: Path | None = None,
                 gm_role: str = "GM", base_dir: Path | None = None, echo: Callable[[str], None] = print,
                 start: datetime | None = None) -> None:
        self.clock = ManualClock(start or datetime(2026, 1, 5, 12, 0, tzinfo=UTC))
        self.services = Services(db=db, clock=self.clock, secret=seeded_secrets(seed) if seed else None)
        self.bot = HeraldBot(self.services, gm_role=gm_role, background=False, guild_ready_timeout=0.01)
        ids_from = 1_400_000_000_000_000_000 if seed else int(datetime.now(UTC).timestamp() * 1000) << 22
        self.fake = FakeDiscord(self.bot, clock=self.clock, ids_from=ids_from, gm_role=gm_role)
        self.out_dir = out_dir
        self.base_dir = base_dir or Path.cwd()
        self.echo = echo
        self.user: str | None = None
        self.channel = "table"
        self.last_output: list[str] = []
        self.saved: list[Path] = []
        self._files = itertools.count(1)
        self._asked: dict[str, int] = {}
        self.owner = f"console-{secrets.token_hex(4)}"  # this console's outbox claims (a restart is another)
        self.repeat_lines = True  # print each line before its output (not at a terminal: the person just typed it)

    async def start(self) -> None:
        await self._ids_past_receipts()
        await self.fake.start()
        await self._remember_threads()

    async def _ids_past_receipts(self) -> None:
        """A seeded run numbers interactions from the same start: on a saved database, number them past the
        ones its receipts hold, or a new command would look like a replay of an old one."""
        async with self.services.db.read() as session:
            last = await session.scalar(select(func.max(Receipt.interaction_id)))
        if last is not None:
            self.fake._ids = itertools.count(max(int(last) + 1, next(self.fake._ids)))

    async def _remember_threads(self) -> None:
        """A saved database knows threads this run's Discord never made: name them, so posts read well."""
        async with self.services.db.read() as session:
            for campaign in await session.scalars(select(Campaign)):
                names = {campaign.thread_id: campaign.name, campaign.gm_thread_id: f"{campaign.name} — GM"}
                for seat in await session.scalars(select(Seat).where(Seat.campaign_id == campaign.id)):
                    names[seat.thread_id] = f"{campaign.name} — {seat.name}"
                for thread_id, name in names.items():
                    if thread_id and thread_id not in self.fake.channels:
                        self.fake.channels[thread_id] = self.fake._channel_payload(thread_id, name, kind=11)

    async def close(self) -> None:
        await self.bot.close()

    # -- running lines -------------------------------------------------------------------------------
    async def run_script(self, text: str) -> None:
        for number, raw in enumerate(text.splitlines(), start=1):
            try:
                await self.run_line(raw)
            except ScriptError as exc:
                raise ScriptError(f"line {number}: {exc}") from None
            except ScriptFailed as exc:
                raise ScriptFailed(f"line {number}: {exc}") from None

    async def run_line(self, raw: str) -> list[str]:
        line = parse(raw)
        if line is None:
            return []
        if line.user:
            self.user = line.user
        if line.channel:
            self.channel = line.channel
        if line.verb in ("expect", "expect-not"):
            self._expect(line)
            return []
        if line.verb == "echo":
            self.echo(line.text)
            return []
        if self.repeat_lines:
            self.echo(f"> {raw.strip()}")
        mark = len(self.fake.sent)
        if line.verb == "gm":
            self.fake.gm_users.add(self.fake.user(line.text))
        elif line.verb == "admin":
            self.fake.admins.add(self.fake.user(line.text))
        elif line.verb == "clock":
            try:
                span = parse_span(line.text)
            except ValueError as exc:
                raise ScriptError(str(exc)) from None
            now = self.clock.advance(span)
            self.echo(f"  ⏱ it is now {now:%Y-%m-%d %H:%M} UTC")
        else:
            await self._interact(line)
        await self.pump()
        self.last_output = self.show(self.fake.sent[mark:])
        return self.last_output

    async def pump(self) -> None:
        """What the background tasks do in the bot: fire due timers and deliver the outbox, until quiet."""
        for _ in range(10_000):
            fired = await deadlines.run_due(self.services)
            sent = await outbox.deliver_pending(self.services, self.bot.delivery, owner=self.owner, senders=1)
            await self.fake.settle()
            if not fired and not sent:
                return

    def _expect(self, line: Line) -> None:
        output = "\n".join(self.last_output)
        present = line.text in output
        if present != (line.verb == "expect"):
            what = "missing" if line.verb == "expect" else "present"
            raise ScriptFailed(f"`{line.text}` is {what} in:\n{output}")

    # -- interactions -------------------------------------------------------------------------------
    def _who(self) -> int:
        if not self.user:  # a newcomer's first line: someone acts, and they learn how to be someone else
            self.user = DEFAULT_USER
            self.echo(f"  (acting as @{DEFAULT_USER}: start a line with @name to act as someone else)")
        return self.fake.user(self.user)

    async def _interact(self, line: Line) -> None:
        user_id = self._who()
        channel_id = self._channel_id(self.channel)
        if line.verb in ("slash", "complete"):
            data = self._command_data(line, user_id, focused=line.verb == "complete")
            payload = self.fake.interaction(2 if line.verb == "slash" else 4, data, user_id=user_id,
                                            channel_id=channel_id)
        elif line.verb == "press":
            message, custom_id = self._find_component(user_id, line.text, kind=2)
            payload = self.fake.interaction(3, {"custom_id": custom_id, "component_type": 2}, user_id=user_id,
                                            channel_id=int(message["channel_id"]) or channel_id, message=message)
        elif line.verb == "select":
            message, custom_id, value = self._find_option(user_id, line.text)
            payload = self.fake.interaction(3, {"custom_id": custom_id, "component_type": 3, "values": [value]},
                                            user_id=user_id, channel_id=int(message["channel_id"]) or channel_id,
                                            message=message)
        elif line.verb == "form":
            custom_id = self._last_form(user_id)
            rows = [{"type": 1, "components": [{"type": 4, "custom_id": k, "value": v}]}
                    for k, v in line.options.items()]
            payload = self.fake.interaction(5, {"custom_id": custom_id, "components": rows}, user_id=user_id,
                                            channel_id=channel_id)
        else:
            raise ScriptError(f"cannot run `{line.verb}`")
        self._asked[payload["token"]] = user_id
        self.fake.dispatch("INTERACTION_CREATE", payload)
        await self.fake.settle()
        if not self.fake.answered.get(payload["token"]):
            self.echo("  ⚠ the bot never answered this interaction (Discord would show 'interaction failed')")

    def _channel_id(self, name: str) -> int:
        for cid, data in self.fake.channels.items():
            if data["name"].lower() == name.lower():
                return cid
        return self.fake.channel(name)

    def _command_data(self, line: Line, user_id: int, *, focused: bool) -> dict[str, Any]:
        root_name, *subs = line.words
        command: Any = self.bot.tree.get_command(root_name)
        if command is None:
            raise ScriptError(f"no command /{root_name}")
        chain = []
        for at, word in enumerate(subs):
            if not isinstance(command, app_commands.Group):
                _as_options(command, line, subs[at:])  # `/help orders`, `/roll 2d6+1`: words fill the options
                break
            nxt = command.get_command(word)
            if nxt is None:
                raise ScriptError(f"/{root_name} has no `{word}`")
            chain.append(nxt)
            command = nxt
        if isinstance(command, app_commands.Group):
            names = ", ".join(c.name for c in command.commands)
            raise ScriptError(f"/{' '.join(line.words)} needs a subcommand: {names}")
        params = {p.display_name: p for p in command.parameters}  # the names Discord shows (after any rename)
        params.update({p.name: p for p in command.parameters if p.name not in params})  # and the code's own
        resolved: dict[str, dict[str, Any]] = {}
        options = []
        keys = list(line.options)
        for key, raw in line.options.items():
            if key not in params:
                shown = ", ".join(p.display_name for p in command.parameters)
                raise ScriptError(f"/{' '.join(line.words)} has no option `{key}` (it has: {shown})")
            name = params[key].display_name
            if focused and key == keys[-1]:  # what is being typed is sent as typed, for autocomplete
                options.append({"name": name, "type": params[key].type.value, "value": raw, "focused": True})
                continue
            options.append({"name": name, "type": params[key].type.value,
                            "value": self._value(params[key].type, raw, resolved)})
        for sub in reversed(chain):
            kind = 2 if isinstance(sub, app_commands.Group) else 1
            options = [{"name": sub.name, "type": kind, "options": options}]
        data: dict[str, Any] = {"id": str(self.fake.snowflake()), "name": root_name, "type": 1, "options": options,
                                "guild_id": str(GUILD_ID)}
        if resolved:
            data["resolved"] = resolved
        return data

    def _value(self, kind: discord.AppCommandOptionType, raw: str, resolved: dict[str, dict[str, Any]]) -> Any:
        if kind is OPTION_TYPES.integer:
            try:
                return int(raw)
            except ValueError:
                raise ScriptError(f"`{raw}` is not a whole number") from None
        if kind is OPTION_TYPES.number:
            return float(raw)
        if kind is OPTION_TYPES.boolean:
            return raw.lower() in ("1", "yes", "true", "on")
        if kind is OPTION_TYPES.user:
            uid = self.fake.user(raw.lstrip("@"))
            member = self.fake.member_payload(uid)
            resolved.setdefault("users", {})[str(uid)] = member["user"]
            resolved.setdefault("members", {})[str(uid)] = {k: v for k, v in member.items() if k != "user"}
            return str(uid)
        if kind is OPTION_TYPES.attachment:
            path = (self.base_dir / raw.lstrip("@")).resolve()
            try:
                data = path.read_bytes()
            except OSError as exc:
                raise ScriptError(f"cannot attach `{raw}`: {exc.strerror}") from None
            att = self.fake.attachment(path.name, data)
            resolved.setdefault("attachments", {})[att["id"]] = att
            return att["id"]
        if kind is OPTION_TYPES.channel:
            return str(self._channel_id(raw.lstrip("#")))
        return raw

    def _visible_messages(self, user_id: int) -> list[dict[str, Any]]:
        """Messages this user could see: channel posts, and interaction replies to them."""
        mine = {tok for tok, uid in self._asked.items() if uid == user_id}
        out = []
        for sent in self.fake.sent:
            msg = sent.result if isinstance(sent.result, dict) else None
            if sent.kind == "interaction_response" and msg and "resource" in msg:
                msg = msg["resource"]["message"]
            if not msg or "components" not in msg:
                continue
            private = bool(msg.get("flags", 0) & 64) or sent.kind in ("followup", "interaction_response",
                                                                         "edit_original")
            if private and sent.params.get("token") not in mine:
                continue
            out.append(msg)
        return out

    def _find_component(self, user_id: int, label: str, *, kind: int) -> tuple[dict[str, Any], str]:
        for msg in reversed(self._visible_messages(user_id)):
            for row in msg.get("components", []):
                for comp in row.get("components", []):
                    if comp.get("type") == kind and label.lower() in (comp.get("label") or "").lower():
                        return msg, comp["custom_id"]
        raise ScriptError(f"no button `{label}` on any message {self.user} can see")

    def _find_option(self, user_id: int, text: str) -> tuple[dict[str, Any], str, str]:
        for msg in reversed(self._visible_messages(user_id)):
            for row in msg.get("components", []):
                for comp in row.get("components", []):
                    if comp.get("type") != 3:
                        continue
                    for opt in comp.get("options", []):
                        if text.lower() in (opt["label"].lower(), opt["value"].lower()):
                            return msg, comp["custom_id"], opt["value"]
        raise ScriptError(f"no menu offers `{text}` to {self.user}")

    def _last_form(self, user_id: int) -> str:
        mine = {tok for tok, uid in self._asked.items() if uid == user_id}
        for sent in reversed(self.fake.sent):
            if sent.kind == "interaction_response" and sent.payload["type"] == 9 and sent.params.get("token") in mine:
                return str(sent.payload["data"]["custom_id"])
        raise ScriptError(f"no form is open for {self.user}")

    # -- printing -------------------------------------------------------------------------------------------
    def show(self, sent: list[Sent]) -> list[str]:
        lines: list[str] = []
        for item in sent:
            lines += self._describe(item)
        for text in lines:
            self.echo(text)
        return lines

    def _describe(self, item: Sent) -> list[str]:
        kind, payload = item.kind, item.payload or {}
        token = item.params.get("token")
        asker = self.fake.users.get(self._asked.get(token or "", 0), "?")
        if kind == "interaction_response":
            t = payload["type"]
            data = payload.get("data") or {}
            if t in (4, 7):
                return self._message(f"to @{asker}", data, item.files)
            if t == 9:
                fields = [c for row in data.get("components", []) for c in row.get("components", [])]
                out = [f"  📝 form for @{asker}: {data.get('title')}"]
                for f in fields:
                    value = f.get("value") or ""
                    out.append(f"     {f['custom_id']}: {f.get('label')}" + (f" (filled: {len(value)} chars)"
                                                                           if value else ""))
                return out
            if t == 8:
                choices = data.get("choices", [])
                shown = [c["name"] if c["name"] == str(c["value"]) else f"{c['name']} [{c['value']}]" for c in choices]
                return [f"  ⌨ choices for @{asker}: " + (", ".join(shown) or "(none)")]
            return []
        if kind in ("followup", "edit_original"):
            if not (payload.get("content") or item.files or payload.get("components") or payload.get("embeds")):
                return []
            if kind == "edit_original":  # an edit keeps the flags (private or not) of the deferral it replaces
                payload = {**payload, "flags": (item.result or {}).get("flags", 0)}
            return self._message(f"to @{asker}", payload, item.files)
        if kind == "channel_message":
            where = "#" + self.fake.channel_name(int(item.params["channel_id"]))
            if payload.get("deduplicated"):
                return [f"  {where}: (Discord dropped a repeat of message nonce {payload.get('nonce')})"]
            return self._message(where, payload, item.files, public=True)
        if kind == "create_thread":
            private = "private" if payload.get("type") == 12 else "public"
            parent = self.fake.channel_name(int(item.params["channel_id"]))
            return [f"  🧵 new {private} thread #{payload['name']} in #{parent}"]
        if kind in ("thread_member_add", "thread_member_remove"):
            sign = "+" if kind.endswith("add") else "−"
            who = self.fake.users.get(item.params.get("user_id", 0), "someone")
            return [f"  🧵 #{self.fake.channel_name(int(item.params['channel_id']))}: {sign}@{who}"]
        if kind in ("delete_original", "get_original", "open_dm"):
            return []
        return [f"  · {kind}"]

    def _message(self, where: str, data: dict[str, Any], files: list[tuple[str, bytes]], *,
                 public: bool = False) -> list[str]:
        flags = data.get("flags", 0) or 0
        tag = where if public else (f"{where} (only they see this)" if flags & 64 else where)
        content = self.humanize(data.get("content") or "")
        out = []
        body = content.split("\n") if content else []
        out.append(f"  {tag}: {body[0] if body else ''}".rstrip())
        out += [f"      {line}" for line in body[1:]]
        for embed in data.get("embeds") or []:
            out += self._embed(embed)
        if not body and len(out) > 1:  # a message of cards only: its first line beside where it went
            out[:2] = [f"{out[0]} {out[1].strip()}"]
        for row in data.get("components", []) or []:
            for comp in row.get("components", []):
                if comp.get("type") == 2:
                    out.append(f"      [button: {comp.get('label')}]")
                elif comp.get("type") == 3:
                    labels = [o["label"] for o in comp.get("options", [])]
                    out.append(f"      [menu {comp.get('placeholder', '')}: " + " | ".join(labels) + "]")
        for name, blob in files:
            out.append(f"      [file: {self._save(name, blob)}]")
            if name.endswith((".md", ".txt")):  # Discord shows a text attachment's content on a click
                out += [f"      │ {line}" for line in self.humanize(blob.decode(errors="replace")).split("\n")]
        return out

    def _embed(self, embed: dict[str, Any]) -> list[str]:
        """An embed as a person sees it: a bar down its side, the title, the text, each field, the footer with
        its time, and which attached image it shows."""
        lines: list[str] = []
        if embed.get("title"):
            lines.append(f"**{embed['title']}**")
        lines += (embed.get("description") or "").split("\n") if embed.get("description") else []
        for f in embed.get("fields") or []:
            value = f.get("value") or ""
            if f.get("inline") and "\n" not in value:
                lines.append(f"{f['name']}: {value}")
                continue
            if f.get("name") and f["name"] != "\u200b":
                lines.append(f"{f['name']}:")
            lines += [f"  {v}" if f.get("name") != "\u200b" else v for v in value.split("\n")]
        footer = (embed.get("footer") or {}).get("text") or ""
        if embed.get("timestamp"):
            when = datetime.fromisoformat(embed["timestamp"])
            footer += f" · <t:{int(when.timestamp())}:F> (<t:{int(when.timestamp())}:R>)"
        if footer:
            lines.append(f"— {footer}")
        image = str((embed.get("image") or {}).get("url") or "")
        if image:
            lines.append(f"[image: {image.removeprefix('attachment://')}]")
        return [f"      ┃ {self.humanize(line)}".rstrip() for line in lines]

    def _save(self, name: str, blob: bytes) -> str:
        if self.out_dir is None:
            return f"{name}, {len(blob)} bytes"
        self.out_dir.mkdir(parents=True, exist_ok=True)
        path = self.out_dir / f"{next(self._files):03d}-{name}"
        path.write_bytes(blob)
        self.saved.append(path)
        return str(path)

    def humanize(self, text: str) -> str:
        def user(m: re.Match[str]) -> str:
            return "@" + self.fake.users.get(int(m[1]), m[1])

        def channel(m: re.Match[str]) -> str:
            return "#" + self.fake.channel_name(int(m[1]))

        def stamp(m: re.Match[str]) -> str:
            when = datetime.fromtimestamp(int(m[1]), UTC)
            if m[2] == "R":
                span = when - self.clock.now()
                if abs(span.total_seconds()) < 1:  # as Discord shows it: not "now ago"
                    return "just now"
                return f"in {format_span(span)}" if span.total_seconds() > 0 else f"{format_span(-span)} ago"
            return f"{when:%Y-%m-%d %H:%M} UTC"

        text = re.sub(r"<@!?(\d+)>", user, text)
        text = re.sub(r"<#(\d+)>", channel, text)
        return re.sub(r"<t:(\d+):([a-zA-Z])>", stamp, text)
