"""Exports (the GM's full record; the public record once a campaign ends) and verifying every roll."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from bot.service import record
from bot.service.context import Caller, Services
from bot.service.errors import NotAllowed
from bot.service.lookup import is_gm
from bot.service.replies import Reply
from bot.service.unit import campaign_tx
from bot.store import log as log_rows
from bot.store import orders as order_rows
from bot.store.models import Campaign, CampaignStatus, LogEntry, OrderSet, Seat, Snapshot
from engine.core import Roll, Visibility, rederive

FORMAT = 1


def _iso(value: Any) -> Any:
    return value.isoformat() if hasattr(value, "isoformat") else value


def build(campaign: Campaign, seats: list[Seat], entries: list[LogEntry], snapshots: list[Snapshot],
          orders: list[OrderSet], *, full: bool) -> dict[str, Any]:
    """The record as JSON. Public: only what everyone may see, and the seed once the campaign ended."""
    info = {"name": campaign.name, "ruleset": campaign.ruleset, "ruleset_version": campaign.ruleset_version,
            "options": campaign.options, "status": campaign.status, "commitment": campaign.commitment,
            "created_at": _iso(campaign.created_at), "started_at": _iso(campaign.started_at),
            "ended_at": _iso(campaign.ended_at), "turn": campaign.turn, "phase": campaign.phase_label}
    if campaign.status == CampaignStatus.ENDED:
        info["seed"] = campaign.seed  # never before the end: it would let anyone foresee every roll
    out: dict[str, Any] = {"herald_export": FORMAT, "kind": "full" if full else "public", "campaign": info}
    if full:
        info.update({"settings": campaign.settings, "files": campaign.files, "tables": campaign.tables,
                     "gm_user_id": campaign.gm_user_id, "state": campaign.state})
        out["seats"] = [{"name": s.name, "user_id": s.user_id, "automatic": s.automatic, "position": s.position}
                        for s in seats]
        out["log"] = [{"seq": e.seq, "at": _iso(e.at), "kind": e.kind, "actor": e.actor,
                       "actor_user_id": e.actor_user_id, "turn": e.turn, "phase_key": e.phase_key,
                       "visibility": e.visibility, "body": e.body} for e in entries]
        out["snapshots"] = [{"seq": s.seq, "turn": s.turn, "phase_key": s.phase_key, "label": s.phase_label,
                             "undone": s.undone, "state": s.state} for s in snapshots]
        out["orders"] = [{"seat": o.seat, "phase_key": o.phase_key, "status": o.status, "text": o.text,
                          "checks": o.checks, "updated_at": _iso(o.updated_at)} for o in orders]
        return out
    out["seats"] = [{"name": s.name, "automatic": s.automatic, "position": s.position} for s in seats]
    out["log"] = [item for e in entries if (item := _public_entry(e)) is not None]
    return out


def _public_entry(entry: LogEntry) -> dict[str, Any] | None:
    events = [e for e in entry.body.get("events", []) if e["visibility"].get("public")]
    rolls = [r for r in entry.body.get("rolls", []) if r["visibility"].get("public")]
    item: dict[str, Any] = {"seq": entry.seq, "at": _iso(entry.at), "kind": entry.kind, "turn": entry.turn,
                            "phase_key": entry.phase_key}
    if Visibility.load(entry.visibility).public:
        item["actor"] = entry.actor
        item["body"] = {k: v for k, v in entry.body.items() if k not in ("events", "rolls")}
    elif not events and not rolls:
        return None
    item["body"] = {**item.get("body", {}), "events": events, "rolls": rolls}
    return item


async def export(services: Services, caller: Caller, campaign_name: str | None) -> Reply:
    async with campaign_tx(services, caller, campaign_name, write=False) as tx:
        session, campaign = tx.session, tx.campaign
        full = is_gm(campaign, caller)
        if not full and campaign.status != CampaignStatus.ENDED:
            raise NotAllowed(f"the public record of **{campaign.name}** is published when it ends; "
                             f"until then only the GM can export")
        cid = campaign.id
        seats = await record.seats_of(session, cid)
        entries = await log_rows.since(session, cid)
        snaps = await log_rows.snapshots(session, cid, undone=True) if full else []
        orders = await order_rows.of_campaign(session, cid) if full else []
        data = build(campaign, seats, entries, snaps, orders, full=full)
    kind = "full" if full else "public"
    body = json.dumps(data, indent=1, ensure_ascii=False).encode()
    note = (" The seed stays secret until the campaign ends, so rolls can be verified then."
            if campaign.status != CampaignStatus.ENDED else " Check every roll with `herald verify` on this file.")
    return Reply(f"The {kind} record of **{campaign.name}**.{note}",
                 file=(f"{record.slug(campaign.name)}-{kind}.json", body), campaign_id=cid)


def verify(data: dict[str, Any]) -> tuple[bool, list[str]]:
    """Re-derive every roll in an export from its revealed seed; say whether each matches."""
    info = data.get("campaign", {})
    seed_hex = info.get("seed")
    if not seed_hex:
        return False, ["This export has no seed: the campaign has not ended, so its rolls cannot be checked yet."]
    seed = bytes.fromhex(seed_hex)
    lines = []
    ok = hashlib.sha256(seed).hexdigest() == info.get("commitment")
    lines.append("✔ the seed matches the commitment posted at the start" if ok
                 else "✘ the seed does NOT match the commitment posted at the start")
    checked = bad = 0
    for entry in data.get("log", []):
        for raw in entry.get("body", {}).get("rolls", []):
            roll = Roll.load(raw)
            again = rederive(seed, roll)
            checked += 1
            if again.faces == roll.faces and again.total == roll.total:
                lines.append(f"✔ #{entry['seq']} {roll.key}: {roll.text()}")
            else:
                bad += 1
                lines.append(f"✘ #{entry['seq']} {roll.key}: logged {list(roll.faces)}, the seed gives "
                             f"{list(again.faces)}")
    lines.append(f"{checked} rolls checked: " + ("all match." if not bad else f"{bad} do not match."))
    return ok and not bad, lines
