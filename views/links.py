"""Addresses other phones can reach, and QR codes of them.

A QR code must point where the other phones at the table can go: ``PUBLIC_URL`` when set;
otherwise the address the request came to, except when that is localhost, where the machine's
LAN address is used instead (with a warning when none is known).
"""

from __future__ import annotations

import fcntl
import io
import ipaddress
import socket
import struct
import time
from functools import lru_cache
from urllib.parse import urlsplit

import qrcode
import qrcode.image.svg
from flask import current_app, request

SIOCGIFADDR = 0x8915
LOCAL_NAMES = {"localhost", "127.0.0.1", "::1", "[::1]"}


LAN_SECONDS = 10.0  # how long the interfaces' addresses are kept (a laptop joining a Wi-Fi is seen after this)
_lan: tuple[float, list[str]] = (float("-inf"), [])


def lan_addresses() -> list[str]:
    """This machine's LAN addresses, asked of the system at most every ``LAN_SECONDS`` (a game
    page opened on the host itself would otherwise ask on every request)."""
    global _lan
    asked_at, addresses = _lan
    now = time.monotonic()
    if now - asked_at > LAN_SECONDS:
        addresses = interface_addresses()
        _lan = (now, addresses)
    return addresses


def interface_addresses() -> list[str]:
    """IPv4 addresses of this machine's network interfaces, loopback excluded (Linux ioctl;
    nothing is sent on the network)."""
    found = []
    try:
        interfaces = socket.if_nameindex()
    except OSError:
        interfaces = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _index, name in interfaces:
            try:
                packed = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name[:15].encode()))
            except OSError:
                continue
            address = socket.inet_ntoa(packed[20:24])
            if not ipaddress.ip_address(address).is_loopback:
                found.append(address)
    private = [a for a in found if ipaddress.ip_address(a).is_private]
    return private + [a for a in found if a not in private]


def public_base() -> tuple[str, bool]:
    """(base URL other phones can use, whether it is only reachable from this machine)."""
    config = current_app.config
    configured = config.get("PUBLIC_URL")
    if configured:
        return configured.rstrip("/"), False
    here = f"{request.scheme}://{request.host}"  # what request.host_url says, without its IRI decoding
    scheme, port, local = where(here)
    if local:
        addresses = config.get("LAN_ADDRESSES")
        if addresses is None:
            addresses = lan_addresses()
        if addresses:
            return f"{scheme}://{addresses[0]}{port}", False
        return here, True
    return here, False


@lru_cache(maxsize=64)
def where(here: str) -> tuple[str, str, bool]:
    """(scheme, ":port" or "", whether the host is this machine) of a base URL, split once per
    distinct address (every game page's cache key holds the public base)."""
    parts = urlsplit(here)
    host = parts.hostname or ""
    return parts.scheme, f":{parts.port}" if parts.port else "", host in LOCAL_NAMES or host.startswith("127.")


def plain_http(base: str) -> bool:
    """Whether the phones open ``base`` over plain HTTP from another machine: not a secure context,
    so no service worker (offline works on the page open, not for new pages)."""
    scheme, _port, local = where(base.rstrip("/"))
    return scheme == "http" and not local


def absolute(path: str) -> str:
    return public_base()[0] + path


def qr_svg(text: str) -> bytes:
    """A QR code as SVG: dark modules on a white background (scannable in dark mode too)."""
    image = qrcode.make(text, image_factory=qrcode.image.svg.SvgPathFillImage, box_size=10, border=4)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def qr_png(text: str) -> bytes:
    from qrcode.image.pure import PyPNGImage

    image = qrcode.make(text, image_factory=PyPNGImage, box_size=10, border=4)
    out = io.BytesIO()
    image.save(out)
    return out.getvalue()


def qr_terminal(text: str) -> str:
    """The QR code drawn with text blocks, for the terminal."""
    code = qrcode.QRCode(border=2)
    code.add_data(text)
    out = io.StringIO()
    code.print_ascii(out=out, invert=True)
    return out.getvalue()
