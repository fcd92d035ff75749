"""Forms posted from another site are refused (cross-site request forgery), by what the browser
says of where the form came from — not by a token in each form.

Why no token: a per-session token written into every form made every page with a form a page
of its own per phone, rendered and compressed on every visit (62 KB of HTML for the owner's
game page), where a game page is otherwise the same for every phone with the same rights. The
core flows must work without JavaScript, so the token could not be read from a cookie by a
script either. Instead, as Go's ``net/http.CrossOriginProtection`` (Go 1.25) and ASP.NET Core's
token-free ``ICsrfProtection`` do, and as OWASP's cheat sheet describes (Fetch Metadata, then
the Origin header):

1. GET, HEAD and OPTIONS change nothing (every write of the app is a POST, PUT or DELETE) and
   pass;
2. ``Sec-Fetch-Site`` (every browser since 2023; sent on HTTPS and localhost): ``same-origin``
   or ``none`` (typed or bookmarked by the person) pass, anything else — another site, or
   another origin of the same site — is refused;
3. else ``Origin`` (sent with every POST by browsers since 2020, on plain HTTP too — the LAN
   address a family's phones use): its scheme, host and port must be this server's (the
   request's, or ``PUBLIC_URL``'s); ``null``, another host, another port or another scheme (an
   ``https://`` page posting to a plain-HTTP server is another origin) is refused;
4. neither header: not a browser form (a script, ``curl``, the tests) — passes. A browser too
   old for both still sends no session cookie across sites: the cookie is ``SameSite=Lax``,
   and the rights to a game live in that cookie only.

The JSON API keeps its own rule: it writes with a bearer token sent by the program, never with
a cookie, so a page elsewhere has nothing to forge with (the API is not checked here).
"""

from __future__ import annotations

from urllib.parse import urlsplit

from flask import current_app, request

from models.core.errors import N_, Forbidden

from .kit import is_api

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
SAME_ORIGIN_SITES = frozenset({"same-origin", "none"})
DEFAULT_PORTS = {"http": ":80", "https": ":443"}


def origin(scheme: str, netloc: str) -> str:
    """An origin as compared here: scheme, host and port, in lower case, without the scheme's
    default port (``http://table.lan:80`` is ``http://table.lan``, ``https://table.lan:80`` is not)."""
    scheme, netloc = scheme.lower(), netloc.lower()
    if scheme in DEFAULT_PORTS:
        netloc = netloc.removesuffix(DEFAULT_PORTS[scheme])
    return f"{scheme}://{netloc}"


def own_origins() -> set[str]:
    """The origins this server answers as: the request's own (its scheme — ``X-Forwarded-Proto``'s
    behind ``TRUSTED_PROXIES`` — and its host), and ``PUBLIC_URL``'s when set (a reverse proxy may
    forward another Host)."""
    origins = {origin(request.scheme, request.host)}
    public = current_app.config.get("PUBLIC_URL")
    if public:
        parts = urlsplit(public)
        origins.add(origin(parts.scheme, parts.netloc))
    return origins


def from_elsewhere() -> bool:
    """Whether this request is a write a browser sent from a page of another origin."""
    if request.method in SAFE_METHODS or is_api():
        return False
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in SAME_ORIGIN_SITES
    sent = request.headers.get("Origin")
    if sent is None:
        return False
    parts = urlsplit(sent)
    return sent == "null" or origin(parts.scheme, parts.netloc) not in own_origins()


def refuse_cross_origin() -> None:
    """``before_request``: 403, nothing done, for a write sent from another site."""
    if from_elsewhere():
        raise Forbidden(
            N_(
                "This form was sent from another site: nothing was changed. Open Carte ! and send it from its own pages."
            )
        )


def init_app(app) -> None:
    app.before_request(refuse_cross_origin)
