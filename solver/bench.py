"""The benchmark engine: play many simulated games with a strategy, measure it.

Game ``i`` of a run with seed ``s`` always uses the same layout and the same strategy
random numbers (both derived from ``(s, i)``), so results do not depend on how many
worker processes share the games.

Speed figures: ``games_per_s`` is games over wall-clock seconds of the whole run (all
workers); ``solve_ms_*`` is the wall-clock time of each ``decide`` call. Because other
programs on the machine inflate wall-clock times, the CPU-time figures are given too:
``cpu_ms_*`` per ``decide`` call (thread CPU time) and ``games_per_cpu_s``, games per
CPU second of one core (game simulation included).

>>> result = run_bench(BoardSize.parse("beginner"), "safe", "exact", games=4, seed=1)
>>> result.games, 0 <= result.wins <= 4, {"win_rate", "ci95"} <= set(result.as_dict())
(4, True, True)
>>> wilson_interval(50, 100)
(0.4038, 0.5962)
"""

from __future__ import annotations

import math
import multiprocessing
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from solver.game import BoardSize, Game
from solver.strategies import get_strategy

Progress = Callable[[int, int, int], None]
"""Called as ``progress(games_done, games_total, wins_so_far)``."""

CHUNK = 25
"""Games handed to a worker at a time."""


class StrategyError(RuntimeError):
    """A strategy broke the contract (nothing to open, or a game that never ends)."""


@dataclass(frozen=True)
class GameResult:
    """One finished game: won or not, the wall-clock and CPU seconds of each ``decide``
    call, and the CPU seconds of the whole game (simulation included)."""

    index: int
    won: bool
    solve_seconds: tuple[float, ...]
    solve_cpu_seconds: tuple[float, ...] = ()
    cpu_seconds: float = 0.0


@dataclass(frozen=True)
class BenchResult:
    """Figures for one strategy on one size and rule."""

    size: str
    rule: str
    strategy: str
    games: int
    wins: int
    ci95: tuple[float, float]
    games_per_s: float
    solve_ms_median: float
    solve_ms_p99: float
    cpu_ms_median: float = 0.0
    cpu_ms_p99: float = 0.0
    games_per_cpu_s: float = 0.0

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, object]:
        """The JSON form printed by ``sweepbot bench --json``."""
        return {
            "size": self.size, "rule": self.rule, "strategy": self.strategy,
            "games": self.games, "wins": self.wins, "win_rate": round(self.win_rate, 5),
            "ci95": [round(x, 5) for x in self.ci95],
            "games_per_s": round(self.games_per_s, 2),
            "solve_ms_median": round(self.solve_ms_median, 3),
            "solve_ms_p99": round(self.solve_ms_p99, 3),
            "cpu_ms_median": round(self.cpu_ms_median, 3),
            "cpu_ms_p99": round(self.cpu_ms_p99, 3),
            "games_per_cpu_s": round(self.games_per_cpu_s, 2),
        }


def wilson_interval(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson score interval for a win rate, rounded to 4 places.

    >>> wilson_interval(0, 0)
    (0.0, 1.0)
    """
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a run with ``seed`` (independent of workers).

    >>> game_seed(1, 0) == game_seed(1, 0) != game_seed(1, 1)
    True
    """
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0])


def play_game(size: BoardSize, rule: str, strategy_name: str, seed: int,
              index: int = 0) -> GameResult:
    """Play one game to the end: decide, then open each square of the decision."""
    cpu_start = time.thread_time()
    game = Game(size, rule, seed=game_seed(seed, index))
    rng = np.random.default_rng([seed, index, 1])
    strategy = get_strategy(strategy_name, rule)
    times: list[float] = []
    cpu_times: list[float] = []
    for _ in range(2 * size.rows * size.cols + 1):
        start, cpu = time.perf_counter(), time.thread_time()
        decision = strategy.decide(game.board.copy(), size.mines, rng)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.thread_time() - cpu)
        if not decision.open:
            raise StrategyError(f"{strategy_name} returned nothing to open (game {index})")
        for cell in decision.open:
            if game.open(cell) != "playing":
                break
        if game.status != "playing":
            return GameResult(index, game.status == "won", tuple(times), tuple(cpu_times),
                              time.thread_time() - cpu_start)
    raise StrategyError(f"{strategy_name} did not finish game {index} within the move cap")


def _play_chunk(job: tuple[BoardSize, str, str, int, int, int]) -> list[GameResult]:
    size, rule, name, seed, first, count = job
    return [play_game(size, rule, name, seed, i) for i in range(first, first + count)]


def _results(jobs: list[tuple[BoardSize, str, str, int, int, int]],
             workers: int) -> Iterator[list[GameResult]]:
    if workers <= 1:
        yield from map(_play_chunk, jobs)
        return
    with multiprocessing.get_context("spawn").Pool(workers) as pool:
        yield from pool.imap_unordered(_play_chunk, jobs)


def run_bench(size: BoardSize, rule: str, strategy_name: str, games: int, seed: int = 1,
              workers: int = 1, progress: Progress | None = None) -> BenchResult:
    """Play ``games`` games on ``workers`` processes and summarise them."""
    get_strategy(strategy_name, rule)  # fail early on a bad name or rule
    jobs = [(size, rule, strategy_name, seed, first, min(CHUNK, games - first))
            for first in range(0, games, CHUNK)]
    start = time.perf_counter()
    done: list[GameResult] = []
    wins = 0
    for chunk in _results(jobs, workers):
        done.extend(chunk)
        wins += sum(r.won for r in chunk)
        if progress:
            progress(len(done), games, wins)
    elapsed = time.perf_counter() - start
    wall = _milliseconds([t for r in done for t in r.solve_seconds])
    cpu = _milliseconds([t for r in done for t in r.solve_cpu_seconds])
    cpu_total = sum(r.cpu_seconds for r in done)
    return BenchResult(
        size=str(size), rule=rule, strategy=strategy_name, games=games, wins=wins,
        ci95=wilson_interval(wins, games), games_per_s=games / elapsed if elapsed else 0.0,
        solve_ms_median=float(np.median(wall)), solve_ms_p99=float(np.percentile(wall, 99)),
        cpu_ms_median=float(np.median(cpu)), cpu_ms_p99=float(np.percentile(cpu, 99)),
        games_per_cpu_s=games / cpu_total if cpu_total else 0.0,
    )


def _milliseconds(seconds: list[float]) -> npt.NDArray[np.float64]:
    return np.array(seconds or [0.0]) * 1000.0
