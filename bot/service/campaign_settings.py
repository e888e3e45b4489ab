"""Per-campaign settings the GM changes with /gm settings: deadlines, reminders, auto-advance, turn timers, and
when the "since you last looked" digest shows itself (`catchup`: a duration away, or off)."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from datetime import timedelta
from typing import Any
from zoneinfo import ZoneInfo

from bot.service.clock import format_span, parse_span, zone
from bot.service.errors import ServiceError
from engine.core.names import Names, UnknownName

AUTO_ADVANCE = ("off", "deadline", "all-in", "both")
DIGEST = ("off", "daily")
CATCHUP = "12h"  # the "since you last looked" digest shows itself to a player away at least this long
# Checked when the GM sets them: a 30s deadline_every or a 0d turn timer would break every later turn
SHORTEST, LONGEST = timedelta(minutes=1), timedelta(days=366)
MAX_REMINDERS = 5


@dataclass(frozen=True)
class CampaignSettings:
    reminders: str = "24h,1h"       # before a deadline, to seats that have not submitted
    auto_advance: str = "off"       # advance at the deadline, when every seat is in, or both
    deadline_every: str = ""        # each order window opens with this deadline (e.g. 3d)
    ping: bool = True               # mention the seat whose turn it is
    turn_timer: str = ""            # a seat that takes longer gets its ruleset's timeout action
    digest: str = "off"             # daily: the thread gets one post a day gathering the phases resolved
    time_zone: str = "UTC"          # deadlines typed as "friday 18:00" are read in this zone
    catchup: str = CATCHUP          # a player back after this long to news is shown "since you last looked"

    @classmethod
    def load(cls, raw: dict[str, Any] | None) -> CampaignSettings:
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in (raw or {}).items() if k in known})

    def dump(self) -> dict[str, Any]:
        return asdict(self)

    def zone(self) -> ZoneInfo:
        """The campaign's time zone (UTC if the stored name is no longer known)."""
        try:
            return zone(self.time_zone)
        except ValueError:
            return ZoneInfo("UTC")

    def reminder_spans(self) -> list[timedelta]:
        spans = [_stored_span(p) for p in self.reminders.split(",") if p.strip()]
        return [s for s in spans if s is not None]

    def span(self, name: str) -> timedelta | None:
        value = getattr(self, name)
        return _stored_span(value) if value else None

    def with_value(self, key: str, raw: str) -> CampaignSettings:
        key = setting_named(key)
        value = raw.strip()
        if key == "time_zone":
            try:
                return replace(self, time_zone=zone(value).key)
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
        if key in ("auto_advance", "digest"):
            choices = AUTO_ADVANCE if key == "auto_advance" else DIGEST
            try:
                chosen = Names(choices).resolve(value, what=f"{key} value")
            except UnknownName as exc:
                raise ServiceError(f"{exc} ({key} is one of {', '.join(choices)})") from None
            return replace(self, auto_advance=chosen) if key == "auto_advance" else replace(self, digest=chosen)
        if key == "ping":
            if value.lower() not in ("yes", "no", "on", "off", "true", "false"):
                raise ServiceError("ping is yes or no")
            return replace(self, ping=value.lower() in ("yes", "on", "true"))
        if key == "catchup" and value.lower() in ("on", "yes", "true"):
            return replace(self, catchup=CATCHUP)
        if key in ("reminders", "deadline_every", "turn_timer", "catchup"):
            if value.lower() in ("", "off", "none", "no", "false"):
                return replace(self, **{key: ""})  # type: ignore[arg-type]  # key is a str field here
            try:
                spans = [parse_span(p) for p in value.split(",")]
            except ValueError as exc:
                raise ServiceError(str(exc)) from None
            if key != "reminders" and len(spans) != 1:
                raise ServiceError(f"{key} is one duration, like 3d")
            if len(spans) > MAX_REMINDERS:
                raise ServiceError(f"at most {MAX_REMINDERS} reminders, like 24h,1h")
            if not all(SHORTEST <= s <= LONGEST for s in spans):
                raise ServiceError(f"{key} takes durations from 1m to 366d, like 3d or 36h")
            return replace(self, **{key: ",".join(format_span(s).replace(" ", "") for s in spans)})  # type: ignore[arg-type]
        raise AssertionError(key)  # setting_named knows no other

    def describe(self) -> str:
        return "\n".join(f"`{k}` = {v if v not in ('', None) else 'off'}" for k, v in self.dump().items())


SETTINGS = tuple(f.name for f in fields(CampaignSettings))


def setting_named(typed: str) -> str:
    """A setting by its name as typed: any case, `-` or a space for `_`, a unique start (`tim` is time_zone)."""
    try:
        return Names(SETTINGS, aliases={"timezone": "time_zone", "tz": "time_zone", "zone": "time_zone"}).resolve(
            typed.replace("-", "_"), what="setting")
    except UnknownName as exc:
        raise ServiceError(f"{exc} (settings: {', '.join(SETTINGS)})") from None


def _stored_span(text: str) -> timedelta | None:
    """A stored duration; one saved before ranges were checked (30s, 0d) counts as off, never as an error."""
    try:
        span = parse_span(text)
    except ValueError:
        return None
    return span if SHORTEST <= span <= LONGEST else None
