"""Chording: open all safe neighbours of a number with one click once its mines are
flagged. Used only where it saves clicks (each flag costs a click too).

>>> from solver.textboard import parse_board
>>> board = parse_board('''
... ...
... .1.
... ...
... ''')
>>> mines = {(0, 0)}
>>> safe = {(r, c) for r in range(3) for c in range(3)} - mines - {(1, 1)}
>>> plan, opened = chord_clicks(board, safe, mines, "middle")
>>> plan  # one flag and one chord instead of seven clicks
[((0, 0), 'right'), ((1, 1), 'middle')]
>>> len(opened)
7
"""

from __future__ import annotations

from bot.mouse import Button
from solver.cells import COVERED, FLAG, QUESTION, Board, Cell, neighbours

Click = tuple[Cell, Button]


def _hidden_neighbours(board: Board, cell: Cell) -> list[Cell]:
    rows, cols = board.shape
    return [nb for nb in neighbours(cell, rows, cols) if board[nb] in (COVERED, QUESTION, FLAG)]


def _candidate(board: Board, cell: Cell, safe: set[Cell], remaining: set[Cell],
               mines: set[Cell], flags: set[Cell]) -> tuple[int, set[Cell], set[Cell]] | None:
    """(clicks saved, safe squares still to open that it opens, mines to flag) for
    chording ``cell``; None when its hidden neighbours are not all known."""
    hidden = _hidden_neighbours(board, cell)
    if any(board[nb] == QUESTION for nb in hidden):
        return None  # a question mark would need two clicks to become a flag
    if not all(nb in safe or nb in mines for nb in hidden):
        return None  # (a flag the solver does not know as a mine: never chord on it)
    marked = {nb for nb in hidden if nb in mines}
    if len(marked) != int(board[cell]):
        return None
    opened = {nb for nb in hidden if nb in remaining}
    to_flag = marked - flags
    return len(opened) - 1 - len(to_flag), opened, to_flag


def chord_clicks(board: Board, safe: set[Cell], mines: set[Cell], button: Button,
                 min_saving: int = 2) -> tuple[list[Click], set[Cell]]:
    """Flag and chord clicks that open part of ``safe`` (certainly safe squares), each
    chord saving at least ``min_saving`` clicks; and the squares they open. ``mines``
    must be certain mines. Flags come before the chords that need them.

    Greedy: the numbers next to ``safe`` are ranked once by the clicks they would save,
    then taken in that order, each re-counted against what is still left to open."""
    rows, cols = board.shape
    numbers = {nb for s in safe for nb in neighbours(s, rows, cols) if board[nb] > 0}
    flags = {c for c in mines if board[c] == FLAG}
    ranked = []
    for cell in numbers:
        got = _candidate(board, cell, safe, safe, mines, flags)
        if got is not None and got[0] >= min_saving:
            ranked.append((-got[0], cell))
    remaining = set(safe)
    flag_clicks: list[Click] = []
    chords: list[Click] = []
    for _, cell in sorted(ranked):
        got = _candidate(board, cell, safe, remaining, mines, flags)
        if got is None or got[0] < min_saving:
            continue
        _, opened, to_flag = got
        flag_clicks += [(c, "right") for c in sorted(to_flag)]
        flags |= to_flag
        chords.append((cell, button))
        remaining -= opened
    return flag_clicks + chords, set(safe) - remaining
