"""Ids in URLs: made random, and checked before any query (anything that cannot be one is not found)."""

from __future__ import annotations

import re
import secrets

from ..core.errors import N_, NotFound

ID_PATTERN = re.compile(r"[A-Za-z0-9_-]{1,64}")
HOUSE_ID_PATTERN = re.compile(r"h[0-9a-z]{16}")


def new_id() -> str:
    """A random id: 128 bits, URL-safe (games, share links, invites)."""
    return secrets.token_urlsafe(16)


def new_house_id() -> str:
    """A random id that is also a valid variant id (lower-case letters and digits)."""
    return "h" + secrets.token_hex(8)


def checked_id(value) -> str:
    """A game, share or invite id as given in a URL; anything that cannot be one is not found."""
    if not isinstance(value, str) or not ID_PATTERN.fullmatch(value):
        raise NotFound(N_("No game with this id."), field="id")
    return value


def checked_house_id(value) -> str:
    """The id of saved house rules as given in a URL."""
    if not isinstance(value, str) or not HOUSE_ID_PATTERN.fullmatch(value):
        raise NotFound(N_("No house rules with this id."), field="id")
    return value
