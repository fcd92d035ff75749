"""/api/v1/docs: the API's OpenAPI document (``/api/v1/openapi.json``) drawn by Swagger UI, vendored
from npm like htmx (``static/js/swagger-ui/``, ``static/js/VENDORED.txt``): no CDN, so it works on a
LAN without internet, and inside the app's Content-Security-Policy (its scripts and styles are files
of this server; ``static/js/api-docs.js`` starts it). "Try it out" sends the requests to this same
server, with the bearer token given under "Authorize"."""

from __future__ import annotations

from flask import Blueprint, render_template

bp = Blueprint("api_docs", __name__)


@bp.get("/api/v1/docs")
def docs():
    return render_template("api_docs/docs.html")
