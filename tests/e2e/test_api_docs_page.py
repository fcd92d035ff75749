"""/api/v1/docs over HTTP: an HTML page under the app's own Content-Security-Policy, whose scripts
and styles are this server's files (the vendored Swagger UI, never a CDN), and which points to the
OpenAPI document itself for a browser without JavaScript."""

from __future__ import annotations

import re

from app import CONTENT_SECURITY_POLICY


def test_the_docs_page_is_the_app_s_own(client):
    resp = client.get("/api/v1/docs", headers={"Accept-Language": "fr"})
    assert resp.status_code == 200 and resp.mimetype == "text/html"
    assert resp.headers["Content-Security-Policy"] == CONTENT_SECURITY_POLICY
    page = resp.get_data(as_text=True)
    sources = re.findall(r'(?:src|href)="([^"]+)"', page)
    assert "/static/js/swagger-ui/swagger-ui-bundle.min.js" in {s.split("?")[0] for s in sources}
    assert all(s.startswith("/") for s in sources), sources  # nothing from another origin
    assert "<script>" not in page and "style=" not in page  # nothing inline for the policy to refuse
    assert "La description elle-même" in page and 'href="/api/v1/openapi.json"' in page
    for source in sources:
        assert client.get(source).status_code == 200, source
