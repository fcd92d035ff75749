"""The app's commands (``flask --app app …``), registered like flaskr's ``init_app``: translations,
backup, restore, migrate."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import click
from flask import current_app
from flask.cli import with_appcontext

from models.services import backup
from models.services.schema import downgrade, migrate

ROOT = Path(__file__).resolve().parent.parent
TRANSLATIONS = ROOT / "translations"
LANGUAGES = ("fr",)  # the catalogues kept besides the English of the source


@click.command("translations")
def translations_command():
    """Extract the messages, merge them into the catalogs, compile them (Babel)."""
    pot = TRANSLATIONS / "messages.pot"
    extract = ["pybabel", "extract", "-F", str(ROOT / "babel.cfg"), "-k", "N_", "-k", "Nn_:1,2", "-k", "lazy_gettext"]
    extract += ["-o", str(pot), "--no-location", "--sort-output", "--width", "100", "--project", "Carte !"]
    extract += ["--ignore-dirs", ".venv tests test-artifacts node_modules bench migrations", str(ROOT)]
    subprocess.run(extract, check=True)
    for code in LANGUAGES:
        po = TRANSLATIONS / code / "LC_MESSAGES" / "messages.po"
        action = ["update", "--no-fuzzy-matching", "--ignore-obsolete", "--width", "100"] if po.exists() else ["init"]
        subprocess.run(["pybabel", *action, "-i", str(pot), "-d", str(TRANSLATIONS), "-l", code], check=True)
    subprocess.run(["pybabel", "compile", "-d", str(TRANSLATIONS)], check=True)


@click.command("backup")
@with_appcontext
@click.argument("path", type=click.Path(dir_okay=False, writable=True))
def backup_command(path):
    """Write every game to a JSON file."""
    document = backup.backup(current_app.extensions["database"])
    Path(path).write_text(json.dumps(document, ensure_ascii=False, indent=1), encoding="utf-8")
    print(f"{len(document['games'])} games written to {path}")


@click.command("restore")
@with_appcontext
@click.argument("path", type=click.Path(exists=True, dir_okay=False))
def restore_command(path):
    """Read a backup back (games already present are left as they are)."""
    document = json.loads(Path(path).read_text(encoding="utf-8"))
    restored, skipped = backup.restore(current_app.extensions["database"], document)
    print(f"{restored} games restored, {skipped} already present")


@click.command("migrate")
@click.option("--down-to", "down_to", default=None, help="Take the schema back down to this revision (0015…).")
@with_appcontext
def migrate_command(down_to):
    """Bring the database schema up to date (Alembic upgrade head), or, with ``--down-to``, back
    down to the revision an older release knows, keeping every row it does not mean to drop."""
    if down_to:
        downgrade(current_app.extensions["database"], down_to)
        print(f"schema at {down_to}")
        return
    migrate(current_app.extensions["database"])
    print("schema up to date")


def init_app(app) -> None:
    for command in (translations_command, backup_command, restore_command, migrate_command):
        app.cli.add_command(command)
