"""What Discord refuses in a request body, checked by hand: the fallback the loopback server uses until
`tests/discord_spec.py` (validation against Discord's OpenAPI spec) is on the tree.

Only the limits Herald can trip are here: content, embeds, components, files, thread names, modals."""

from __future__ import annotations

from typing import Any

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
MESSAGE_ROUTES = ("/channels/{channel_id}/messages", "/webhooks/{webhook_id}/{webhook_token}",
                  "/webhooks/{webhook_id}/{webhook_token}/messages/@original")


def validate_request(method: str, path: str, body: Any) -> list[str]:
    """The reasons Discord would answer 400 to this request (empty when it would accept it)."""
    if not isinstance(body, dict):
        return [] if body is None else ["body is not a JSON object"]
    if path == "/interactions/{interaction_id}/{interaction_token}/callback":
        return _callback(body)
    if path in MESSAGE_ROUTES:
        return _message(body, files=len(body.get("attachments") or []), edit=method == "PATCH")
    if path == "/channels/{channel_id}/threads":
        errors = []
        if not 1 <= len(str(body.get("name", ""))) <= 100:
            errors.append("name: must be 1-100 characters")
        if body.get("auto_archive_duration", 10080) not in ARCHIVE_DURATIONS:
            errors.append(f"auto_archive_duration: must be one of {ARCHIVE_DURATIONS}")
        return errors
    return []


def _callback(body: dict[str, Any]) -> list[str]:
    kind, data = body.get("type"), body.get("data") or {}
    if kind in (4, 7):
        return _message(data, files=len(data.get("attachments") or []), edit=kind == 7)
    if kind == 8:
        choices = data.get("choices") or []
        errors = ["choices: at most 25"] if len(choices) > 25 else []
        errors += [f"choices[{i}]: name must be 1-100 characters, value at most 100"
                   for i, c in enumerate(choices)
                   if not 1 <= len(str(c.get("name", ""))) <= 100 or len(str(c.get("value", ""))) > 100]
        return errors
    if kind == 9:
        errors = []
        if not 1 <= len(str(data.get("title", ""))) <= 45:
            errors.append("title: must be 1-45 characters")
        rows = data.get("components") or []
        if not 1 <= len(rows) <= 5:
            errors.append("components: a modal has 1-5 rows")
        errors += _components(rows, modal=True)
        return errors
    return [] if kind in (1, 5, 6) else [f"type: unknown callback type {kind}"]


def _message(body: dict[str, Any], *, files: int, edit: bool) -> list[str]:
    errors = []
    content = body.get("content")
    if content is not None and len(content) > 2000:
        errors.append(f"content: must be 2000 or fewer in length (got {len(content)})")
    embeds = body.get("embeds") or []
    if len(embeds) > 10:
        errors.append("embeds: at most 10")
    errors += _embeds(embeds)
    components = body.get("components") or []
    if len(components) > 5:
        errors.append("components: at most 5 action rows")
    errors += _components(components, modal=False)
    if files > 10:
        errors.append("files: at most 10")
    empty = not (content or "").strip() and not embeds and not components and not files \
        and not body.get("attachments") and not body.get("sticker_ids") and not body.get("poll")
    if empty and not edit:
        errors.append("Cannot send an empty message (50006)")
    return errors


def _embeds(embeds: list[dict[str, Any]]) -> list[str]:
    errors, total = [], 0
    for i, embed in enumerate(embeds):
        for key, cap in (("title", 256), ("description", 4096)):
            text = embed.get(key) or ""
            total += len(text)
            if len(text) > cap:
                errors.append(f"embeds[{i}].{key}: at most {cap}")
        fields = embed.get("fields") or []
        if len(fields) > 25:
            errors.append(f"embeds[{i}].fields: at most 25")
        for j, field in enumerate(fields):
            name, value = field.get("name") or "", field.get("value") or ""
            total += len(name) + len(value)
            if not name or len(name) > 256 or not value or len(value) > 1024:
                errors.append(f"embeds[{i}].fields[{j}]: name 1-256, value 1-1024")
        footer = (embed.get("footer") or {}).get("text") or ""
        author = (embed.get("author") or {}).get("name") or ""
        total += len(footer) + len(author)
        if len(footer) > 2048 or len(author) > 256:
            errors.append(f"embeds[{i}]: footer at most 2048, author at most 256")
    if total > 6000:
        errors.append(f"embeds: at most 6000 characters in all (got {total})")
    return errors


def _components(rows: list[dict[str, Any]], *, modal: bool) -> list[str]:
    errors = []
    for i, row in enumerate(rows):
        inner = row.get("components") or []
        if row.get("type") != 1 or not 1 <= len(inner) <= 5:
            errors.append(f"components[{i}]: an action row holds 1-5 components")
        for item in inner:
            custom_id = item.get("custom_id")
            if custom_id is not None and not 1 <= len(custom_id) <= 100:
                errors.append(f"components[{i}]: custom_id must be 1-100 characters")
            if len(str(item.get("label") or "")) > (45 if modal else 80):
                errors.append(f"components[{i}]: label too long")
            options = item.get("options") or []
            if len(options) > 25:
                errors.append(f"components[{i}]: at most 25 select options")
            for option in options:
                if not 1 <= len(option.get("label", "")) <= 100 or not 1 <= len(option.get("value", "")) <= 100:
                    errors.append(f"components[{i}]: option label and value must be 1-100 characters")
            if item.get("type") == 4 and len(str(item.get("value") or "")) > 4000:
                errors.append(f"components[{i}]: a text input value is at most 4000 characters")
    return errors
