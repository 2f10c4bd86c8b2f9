"""Every ❓ ruling of the owner's смута text is quoted by a test docstring."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

RULES = Path(__file__).resolve().parents[2].parent / "shared" / "rules" / "smuty.ru.txt"


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def docstrings() -> str:
    found: list[str] = []
    for path in Path(__file__).parent.glob("test_*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found.append(ast.get_docstring(node) or "")
    return normalise(" ".join(found))


@pytest.mark.skipif(not RULES.exists(), reason="shared/rules is not beside this checkout")
def test_every_ruling_question_is_quoted_by_a_test() -> None:
    questions = {
        normalise(line.removeprefix("❓"))
        for line in RULES.read_text(encoding="utf-8").splitlines()
        if line.startswith("❓")
    }
    quoted = docstrings()
    missing = sorted(q for q in questions if q not in quoted)
    assert len(questions) >= 50
    assert not missing, missing
