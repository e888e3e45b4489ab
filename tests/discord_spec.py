"""Discord's published API spec (discord/discord-api-spec, copied in tests/data) as a request validator for the
test fakes: the route's requestBody schema, plus the documented limits the schema does not express."""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped,unused-ignore]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped,unused-ignore]
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC_PATH = Path(__file__).parent / "data" / "discord-openapi.json"
SPEC_URI = "urn:discord-openapi"
BOT_CONTENT_LIMIT = 2000  # the schema allows 4000 (Nitro users); bots get 2000
EMBED_TOTAL = 6000
MAX_FILES = 10


@functools.cache
def _spec() -> dict[str, Any]:
    spec = dict(json.loads(SPEC_PATH.read_text()))
    # Discord takes a snowflake as a JSON integer too (its own docs send attachment ids as 0, 1…, and
    # discord.py relies on it); the spec only writes down the string form.
    snowflake = spec["components"]["schemas"]["SnowflakeType"]
    spec["components"]["schemas"]["SnowflakeType"] = {"anyOf": [snowflake, {"type": "integer", "minimum": 0}]}
    return spec


@functools.cache
def _registry() -> Registry[Any]:
    resource: Resource[Any] = Resource.from_contents(_spec(), default_specification=DRAFT202012)
    registry: Registry[Any] = Registry().with_resource(SPEC_URI, resource)
    return registry


def _shape(path: str) -> str:
    """A route template with its parameter names erased: discord.py and the spec name them differently."""
    return re.sub(r"\{[^}]*\}", "{}", path.split("?", 1)[0])


@functools.cache
def _operations() -> dict[tuple[str, str], str]:
    """(METHOD, shape) → the spec's path template."""
    return {(method.upper(), _shape(path)): path for path, item in _spec()["paths"].items()
            for method in item if method in ("get", "post", "put", "patch", "delete")}


def _pointer(*parts: str) -> str:
    return "/".join(p.replace("~", "~0").replace("/", "~1") for p in parts)


@functools.cache
def _validator(method: str, shape: str) -> Draft202012Validator | None:
    path = _operations().get((method, shape))
    if path is None:
        raise LookupError(f"{method} {shape} is not in Discord's API spec")
    body = _spec()["paths"][path][method.lower()].get("requestBody")
    if body is None or "application/json" not in body["content"]:
        return None
    where = _pointer("paths", path, method.lower(), "requestBody", "content", "application/json", "schema")
    ref = f"{SPEC_URI}#/{where}"
    return Draft202012Validator({"$ref": ref}, registry=_registry())


def validate_request(method: str, path_template: str, body: Any) -> list[str]:
    """Why Discord would refuse this request (empty when it would accept it). `body` is the JSON body, or the
    payload_json part of a multipart one."""
    method = method.upper()
    shape = _shape(path_template)
    try:
        validator = _validator(method, shape)
    except LookupError as exc:
        return [str(exc)]
    errors: list[str] = []
    if validator is not None and body is not None:
        for error in sorted(validator.iter_errors(body), key=lambda e: list(e.absolute_path)):
            where = ".".join(str(p) for p in error.absolute_path) or "body"
            errors.append(f"{where}: {_short(error)}")
    message, creates = _message_of(method, shape, body)
    if message is not None:
        errors += message_limits(message, creates=creates)
    return errors


def _short(error: Any) -> str:
    if error.validator in ("anyOf", "oneOf") and error.context:
        best = best_match(error.context)
        return f"{best.message[:300]} (at {'.'.join(str(p) for p in best.absolute_path) or 'it'})"
    return str(error.message)[:300]


def _message_of(method: str, shape: str, body: Any) -> tuple[dict[str, Any] | None, bool]:
    """The message a request creates or edits, and whether it creates one."""
    if not isinstance(body, dict):
        return None, False
    if shape == "/interactions/{}/{}/callback":
        if body.get("type") in (4, 7):
            return (body.get("data") or {}), body.get("type") == 4
        return None, False
    if method == "POST" and shape in ("/channels/{}/messages", "/webhooks/{}/{}"):
        return body, True
    if method == "PATCH" and shape.startswith("/webhooks/{}/{}/messages/"):
        return body, False
    return None, False


def message_limits(message: dict[str, Any], *, creates: bool) -> list[str]:
    """Discord's documented message limits the schema leaves out, and the house rule on mentions."""
    errors: list[str] = []
    content = message.get("content")
    if isinstance(content, str) and len(content) > BOT_CONTENT_LIMIT:
        errors.append(f"content: {len(content)} characters, over the {BOT_CONTENT_LIMIT} a bot may send "
                      f"(50035 BASE_TYPE_MAX_LENGTH)")
    embeds = message.get("embeds") or []
    total = sum(_embed_size(e) for e in embeds if isinstance(e, dict))
    if total > EMBED_TOTAL:
        errors.append(f"embeds: {total} characters in all, over {EMBED_TOTAL}")
    attachments = message.get("attachments") or []
    if len(attachments) > MAX_FILES:
        errors.append(f"attachments: {len(attachments)} files, over {MAX_FILES}")
    blank = not (isinstance(content, str) and content.strip()) and not embeds and not attachments \
        and not message.get("components") and not message.get("sticker_ids") and not message.get("poll")
    if creates or "content" in message:  # an edit setting the text may be the answer replacing "thinking…"
        if blank:
            errors.append("Cannot send an empty message (50006)")
        errors += _mentions(message.get("allowed_mentions"))
    return errors


def _embed_size(embed: dict[str, Any]) -> int:
    size = len(embed.get("title") or "") + len(embed.get("description") or "")
    size += len((embed.get("footer") or {}).get("text") or "") + len((embed.get("author") or {}).get("name") or "")
    for f in embed.get("fields") or []:
        size += len(f.get("name") or "") + len(f.get("value") or "")
    return size


def _mentions(allowed: Any) -> list[str]:
    """House rule: every message Herald creates says whom it may ping, and that is never everyone or a role."""
    if not isinstance(allowed, dict):
        return ["allowed_mentions: missing, so the message could ping @everyone (house rule)"]
    parse = set(allowed.get("parse") or [])
    wide = sorted(parse & {"everyone", "roles", "users"})
    if wide:
        return [f"allowed_mentions.parse: {wide} could ping people Herald does not mean to (house rule)"]
    return []

