"""The benchmark engine and the ``sweepbot bench`` command."""

from __future__ import annotations

import importlib.util
import json

import numpy as np
import pytest

import solver.bench as bench
from bot.cli import main
from solver.game import BoardSize
from solver.strategy import Decision

KEYS = {"size", "rule", "strategy", "games", "wins", "win_rate", "ci95", "games_per_s",
        "solve_ms_median", "solve_ms_p99"}


def test_small_run() -> None:
    result = bench.run_bench(BoardSize.parse("beginner"), "safe", "exact", games=8, seed=3)
    assert result.games == 8 and 0 <= result.wins <= 8
    lo, hi = result.ci95
    assert lo <= result.win_rate <= hi
    assert result.games_per_s > 0 and 0 < result.solve_ms_median <= result.solve_ms_p99
    assert KEYS <= set(result.as_dict())


def test_results_do_not_depend_on_workers() -> None:
    size = BoardSize.parse("8x8/12")
    one = bench.run_bench(size, "safe", "exact", games=30, seed=5, workers=1)
    two = bench.run_bench(size, "safe", "exact", games=30, seed=5, workers=2)
    assert one.wins == two.wins
    a = bench.play_game(size, "safe", "exact", seed=5, index=7)
    b = bench.play_game(size, "safe", "exact", seed=5, index=7)
    assert a.won == b.won and len(a.solve_seconds) == len(b.solve_seconds)


def test_wilson_interval() -> None:
    assert bench.wilson_interval(50, 100) == (0.4038, 0.5962)
    lo, hi = bench.wilson_interval(0, 20)
    assert lo == 0.0 and 0 < hi < 0.2
    lo, hi = bench.wilson_interval(20, 20)
    assert 0.8 < lo < 1 and hi == 1.0


class Idle:
    name = "idle"

    def __init__(self, rule: str) -> None:
        self.rule = rule

    def decide(self, board: np.ndarray, mines: int, rng: np.random.Generator) -> Decision:
        return Decision(())


def test_strategy_with_nothing_to_open_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bench, "get_strategy", lambda name, rule: Idle(rule))
    with pytest.raises(bench.StrategyError, match="nothing to open"):
        bench.play_game(BoardSize.parse("beginner"), "safe", "idle", seed=1)


def test_cli_json(capsys: pytest.CaptureFixture[str]) -> None:
    names = [n for n in ("exact", "single")
             if importlib.util.find_spec(f"solver.strategies.{n}") is not None]
    code = main(["bench", "--size", "9x9/10", "--games", "4", "--workers", "1",
                 "--strategy", ",".join(names), "--json", "--no-progress"])
    assert code == 0
    lines = capsys.readouterr().out.strip().splitlines()
    rows = [json.loads(line) for line in lines]
    assert [r["strategy"] for r in rows] == names
    for row in rows:
        assert KEYS <= set(row) and row["games"] == 4 and row["size"] == "beginner"


def test_cli_table_and_progress(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", "--size", "beginner", "--games", "3", "--workers", "1"]) == 0
    out, err = capsys.readouterr()
    head, row = out.strip().splitlines()
    assert head.split()[:3] == ["strategy", "size", "rule"]
    assert row.split()[:3] == ["exact", "beginner", "safe"]
    assert "3/3" in err


@pytest.mark.parametrize("args", [
    ["--size", "huge"], ["--size", "3x3/9"], ["--games", "0"], ["--games", "many"],
    ["--workers", "0"], ["--rule", "always"], ["--strategy", "magic"], ["--strategy", ","],
    ["--seed", "-1"],
])
def test_cli_bad_arguments(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["bench", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.startswith("sweepbot bench: ") and err.count("\n") == 1
