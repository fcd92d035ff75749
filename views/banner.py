"""The run command's banner: the address the phones at the table open, and its QR code.

``flask run`` loads the app inside its click command, so the host and port it will bind to are
read from that command's parameters (``--host/-h``, ``--port/-p``, ``FLASK_RUN_HOST``,
``FLASK_RUN_PORT``: click has already resolved them). Outside ``flask run`` nothing is printed.
"""

from __future__ import annotations

import ipaddress
import sys
from dataclasses import dataclass

import click
from werkzeug.serving import is_running_from_reloader

from . import links

ANY_ADDRESS = {"0.0.0.0", "::", ""}


@dataclass(frozen=True)
class RunSettings:
    host: str
    port: int
    https: bool


def run_settings() -> RunSettings | None:
    """Host, port and scheme of the ``flask run`` command being started, or None elsewhere."""
    ctx = click.get_current_context(silent=True)
    if ctx is None or ctx.command.name != "run" or "port" not in ctx.params:
        return None
    return RunSettings(
        str(ctx.params.get("host") or "127.0.0.1"), int(ctx.params["port"]), bool(ctx.params.get("cert"))
    )


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def table_url(app, settings: RunSettings) -> tuple[str, str | None]:
    """(the URL for the phones, a warning when they cannot reach it)."""
    if app.config.get("PUBLIC_URL"):
        return app.config["PUBLIC_URL"].rstrip("/"), None
    scheme = "https" if settings.https else "http"
    host = settings.host
    if host in ANY_ADDRESS:
        addresses = app.config.get("LAN_ADDRESSES")
        if addresses is None:
            addresses = links.lan_addresses()
        if addresses:
            return f"{scheme}://{addresses[0]}:{settings.port}", None
        return f"{scheme}://127.0.0.1:{settings.port}", "no network address found: only this machine can open it"
    if is_loopback(host):
        warning = f"the phones cannot reach {host}: start with  flask run --host 0.0.0.0"
        return f"{scheme}://{host}:{settings.port}", warning
    shown = f"[{host}]" if ":" in host else host
    return f"{scheme}://{shown}:{settings.port}", None


# What a phone gets offline at a plain-HTTP address: no service worker (not a secure context).
PLAIN_HTTP = (
    "  Offline on this plain-HTTP address: the page open on a phone keeps working (its rounds wait\n"
    "  on the phone and are sent when the network is back); opening another page needs the network.\n"
    "  The full offline app needs HTTPS (docs/hosting.md: HTTPS in front) or this machine's own browser.\n"
)


def print_banner(app, settings: RunSettings | None = None, stream=None) -> str | None:
    """Print "Carte ! — open <url> on the phones at the table" and a QR code of the URL to
    stderr when the app is started by ``flask run`` (once: not again in the reloader's child)."""
    settings = settings or run_settings()
    if settings is None or is_running_from_reloader():
        return None
    url, warning = table_url(app, settings)
    text = f"\nCarte ! — open {url} on the phones at the table\n"
    if warning:
        text += f"  ({warning})\n"
    if links.plain_http(url):
        text += PLAIN_HTTP
    text += links.qr_terminal(url)
    print(text, file=stream or sys.stderr, flush=True)
    return text
