"""The rules our browser pages follow (``benchmarks/webgames/pagegame.py``), checked
against the won boards recorded from the pages themselves: every safe square opened
from the first click on, each page's own way of drawing a win."""

from __future__ import annotations

import doctest
import sys
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.webgames import pagegame  # noqa: E402
from benchmarks.webgames.pagegame import PageRules  # noqa: E402

FIXTURES = ROOT / "tests" / "vision"


def _won_board(rules: PageRules, seed: int, first: tuple[int, int]) -> str:
    mines = rules.mine_layout(seed, first)
    safe = sorted(set(np.ndindex(rules.rows, rules.cols)) - mines)
    return rules.expected(mines, [first, *safe], set(), "won")


def _body(path: Path) -> str:
    return "".join(line + "\n" for line in path.read_text().splitlines()
                   if not line.startswith("#"))


def test_doctests() -> None:
    assert doctest.testmod(pagegame).failed == 0


def test_win7_won_board_follows_its_rules() -> None:
    rules = PageRules(16, 16, 40, free_around_first=False, mark_end=True)
    assert _won_board(rules, 12, (8, 8)) == _body(FIXTURES / "web_win7" / "won.board")


def test_checkered_won_board_follows_its_rules() -> None:
    rules = PageRules(14, 18, 40, free_around_first=True)
    want = _body(FIXTURES / "web_checkered" / "plain_won.board")
    assert _won_board(rules, 12, (7, 9)) == want
    assert "F" not in want and "*" not in want  # a win leaves the mines covered
