"""Sizes a reader can hold (issue 25): no Python module over 600 lines, no function over 60 lines
(our scripts: tests/unit/test_js_sizes.py). That is app.py, gunicorn.conf.py, models/, views/,
bench/ and the tests themselves; the migrations are history (never edited once shipped)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PYTHON = [ROOT / "app.py", ROOT / "gunicorn.conf.py"] + [
    path for folder in ("models", "views", "bench", "tests") for path in sorted((ROOT / folder).rglob("*.py"))
]
MAX_MODULE, MAX_FUNCTION = 600, 60


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_the_app_has_modules_to_check():
    # a test that would pass on an empty list checks nothing
    assert len(PYTHON) > 150
    assert {"scoring.py", "test_sizes.py"} <= {path.name for path in PYTHON}


def test_no_python_module_over_600_lines():
    long = {str(path.relative_to(ROOT)): lines(path) for path in PYTHON if lines(path) > MAX_MODULE}
    assert long == {}


def test_no_function_over_60_lines():
    long = {}
    for path in PYTHON:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                size = node.end_lineno - node.lineno + 1  # its decorators aside, its docstring in
                if size > MAX_FUNCTION:
                    long[f"{path.relative_to(ROOT)}:{node.name}"] = size
    assert long == {}
