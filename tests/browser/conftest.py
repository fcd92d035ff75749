"""Browser tests: Playwright (Python) driving Debian's Chromium against the app served by a
werkzeug server in a thread, on a phone-sized viewport. See ../shared/TESTING.md.

Debian's ``chromium-headless-shell`` is preferred: the same engine built without the browser's
own window and user interface, it renders the same pages for about half the CPU of ``chromium
--headless``, and the browser tests are most of the suite's time."""

from __future__ import annotations

import os
import shutil
import threading
from pathlib import Path

import pytest
from werkzeug.serving import make_server

from app import create_app

CHROMIUM = (
    os.environ.get("CHROMIUM_PATH")
    or shutil.which("chromium-headless-shell")
    or shutil.which("chromium")
    or "/usr/bin/chromium"
)
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-dev-shm-usage",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-quic",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "tests/browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROMIUM_ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args, playwright):
    phone = playwright.devices["Pixel 7"]
    return {**browser_context_args, **phone, "locale": "fr-FR"}


def served(app_config, host: str | None = None):
    """The app served on 127.0.0.1 (a random port) for one test, saying its address as
    ``http://HOST:PORT`` when a ``host`` is given (the LAN name a phone opens)."""
    server = make_server("127.0.0.1", 0, lambda environ, start: [], threaded=True)
    server.url = f"http://{host or '127.0.0.1'}:{server.server_port}"
    server.app = create_app(app_config if host is None else {**app_config, "PUBLIC_URL": server.url})
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield server
    server.app.extensions["feed"].close()  # the open event streams end
    server.shutdown()
    server.app.extensions["database"].dispose()


@pytest.fixture
def live_server(app_config):
    """The app served on 127.0.0.1 (a random port) for one test (forms from other sites refused,
    as always)."""
    yield from served(app_config)


@pytest.fixture
def shot(page, request):
    """Save a full-page screenshot under test-artifacts/ (look at them)."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(name: str, target=None):
        path = ARTIFACTS / f"{request.node.name}-{name}.png"
        (target or page).screenshot(path=str(path), full_page=True)
        return path

    return take


@pytest.fixture
def phone(browser, live_server):
    """A new browser context of the given size (French UI, touch), JavaScript on or off."""
    contexts = []

    def open_phone(width: int, height: int, *, js: bool = True, scheme: str = "light"):
        context = browser.new_context(
            viewport={"width": width, "height": height},
            device_scale_factor=2,
            is_mobile=True,
            has_touch=True,
            locale="fr-FR",
            java_script_enabled=js,
            color_scheme=scheme,
        )
        contexts.append(context)
        return context.new_page()

    yield open_phone
    for context in contexts:
        context.close()


# htmx's SSE extension says when a page's event stream is open (EventSource's open: the server
# answered, so it listens to the game from then on). Waiting for the element and htmx alone left
# a write made at once to land before the server listened: the page then caught up from its
# revision, its parts but not the sentence said of a change it never heard (issue 29).
SAYS_WHEN_LISTENING = "document.addEventListener('htmx:sseOpen', () => { window.listening = true; })"


def open_listening(page, url: str) -> None:
    """``page`` opened at ``url`` and waited for until its event stream is open."""
    page.add_init_script(SAYS_WHEN_LISTENING)
    page.goto(url)
    page.wait_for_function("() => window.listening === true")
