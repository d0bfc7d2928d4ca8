"""One finished game's record, the JSONL log line and the run summary.

>>> r = GameResult("won", 9, 9, 10, moves=12, clicks=30, seconds=0.5, bot_seconds=0.1,
...                death_p=None, bv=20)
>>> r.json_dict()["bv_per_s"]
40.0
>>> print(summary([r, GameResult("lost", 9, 9, 10, 3, 3, 0.2, 0.05, 0.25)]))
2 games: 1 won, 1 lost, 0 aborted; win rate 50.0 %; median time 0.35 s (bot 0.08 s)
"""

from __future__ import annotations

import json
import statistics
from dataclasses import asdict, dataclass, field
from typing import Any, TextIO


@dataclass(frozen=True)
class GameResult:
    """``outcome`` is won, lost or aborted; ``death_p`` the solver's mine probability
    for the square that lost (None unless lost); ``bv`` the board's 3BV when known."""

    outcome: str
    rows: int
    cols: int
    mines: int
    moves: int
    clicks: int
    seconds: float
    bot_seconds: float
    death_p: float | None
    bv: int | None = None
    skin: str = ""
    reason: str = ""
    turn_ms: tuple[float, ...] = field(default=(), repr=False)

    def json_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.pop("turn_ms")
        d["seconds"] = round(self.seconds, 4)
        d["bot_seconds"] = round(self.bot_seconds, 4)
        d["3bv"] = d.pop("bv")
        d["bv_per_s"] = round(self.bv / self.seconds, 2) if self.bv and self.seconds > 0 else None
        d["turn_ms_median"] = round(statistics.median(self.turn_ms), 3) if self.turn_ms else None
        if d["death_p"] is not None:
            d["death_p"] = round(float(d["death_p"]), 6)
        return d


def write_jsonl(result: GameResult, fh: TextIO) -> None:
    fh.write(json.dumps(result.json_dict()) + "\n")
    fh.flush()


def summary(results: list[GameResult]) -> str:
    """One line: counts, win rate (over finished games) and median times."""
    if not results:
        return "no games played"
    won = sum(r.outcome == "won" for r in results)
    lost = sum(r.outcome == "lost" for r in results)
    aborted = len(results) - won - lost
    finished = won + lost
    rate = f"{100.0 * won / finished:.1f} %" if finished else "n/a"
    med = statistics.median(r.seconds for r in results)
    bot = statistics.median(r.bot_seconds for r in results)
    return (f"{len(results)} games: {won} won, {lost} lost, {aborted} aborted; "
            f"win rate {rate}; median time {med:.2f} s (bot {bot:.2f} s)")
