"""The rules of our browser pages (``checkered.html``, ``win7.html``), worked out with
no vision code, so the recorders can write the board each capture shows.

Both pages lay their mines from ``?seed=`` with the same Lehmer generator when the
first square is clicked; they differ in which squares the first click keeps free and
in how they draw a game's end (:class:`PageRules`).

>>> game = PageRules(rows=3, cols=4, mines=2, free_around_first=False)
>>> mines = game.mine_layout(5, (0, 0))
>>> len(mines), (0, 0) in mines
(2, False)
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

Cell = tuple[int, int]


@dataclass(frozen=True)
class PageRules:
    """One page's board size and rules.

    ``free_around_first``: the first click's neighbours are mine-free too (the
    checkered page, as Google's); else only the square clicked (Windows 7).
    ``mark_end``: at a loss the hit mine is drawn apart (``X``) and at a win the game
    flags every mine (``F``), as Windows 7 does; else the hit one is drawn as the other
    mines (``*``) and a win leaves the mines covered.
    """

    rows: int
    cols: int
    mines: int
    free_around_first: bool
    mark_end: bool = False

    def around(self, cell: Cell) -> list[Cell]:
        """The squares next to ``cell`` on the board.

        >>> sorted(PageRules(9, 9, 10, True).around((0, 0)))
        [(0, 1), (1, 0), (1, 1)]
        """
        r, c = cell
        return [(r + a, c + b) for a in (-1, 0, 1) for b in (-1, 0, 1)
                if (a or b) and 0 <= r + a < self.rows and 0 <= c + b < self.cols]

    def mine_layout(self, seed: int, first: Cell) -> set[Cell]:
        """The mines the page lays for ``seed`` when ``first`` is clicked first (its
        ``rand`` and ``layMines``).

        >>> len(PageRules(14, 18, 40, True).mine_layout(11, (7, 9)))
        40
        """
        free = {first, *self.around(first)} if self.free_around_first else {first}
        mines: set[Cell] = set()
        while len(mines) < self.mines:
            seed = seed * 48271 % 2147483647
            k = int(seed / 2147483647 * self.rows * self.cols)
            cell = (k // self.cols, k % self.cols)
            if cell not in free:
                mines.add(cell)
        return mines

    def count(self, mines: set[Cell], cell: Cell) -> int:
        """How many of ``cell``'s neighbours are mines."""
        return sum(n in mines for n in self.around(cell))

    def opened(self, mines: set[Cell], clicks: list[Cell]) -> set[Cell]:
        """The squares open after left clicks on ``clicks`` (a zero opens its
        neighbours).

        >>> sorted(PageRules(1, 3, 1, False).opened({(0, 2)}, [(0, 0)]))
        [(0, 0), (0, 1)]
        """
        done: set[Cell] = set()
        for start in clicks:
            todo = [start]
            while todo:
                cell = todo.pop()
                if cell in done:
                    continue
                done.add(cell)
                if cell not in mines and self.count(mines, cell) == 0:
                    todo.extend(self.around(cell))
        return done

    def opening_moves(self, mines: set[Cell], first: Cell) -> tuple[list[Cell], Cell]:
        """The recorders' first moves of a game: ``first`` and up to three safe squares
        it left shut (left clicks, in order), and the mine nearest ``first`` to flag.

        >>> PageRules(1, 5, 1, False).opening_moves({(0, 4)}, (0, 0))
        ([(0, 0)], (0, 4))
        >>> PageRules(1, 5, 2, False).opening_moves({(0, 1), (0, 4)}, (0, 0))
        ([(0, 0), (0, 2), (0, 3)], (0, 1))
        """
        safe = sorted(set(itertools.product(range(self.rows), range(self.cols))) - mines)
        shut = [c for c in safe if c not in self.opened(mines, [first])]
        flag = min(mines, key=lambda m: (m[0] - first[0]) ** 2 + (m[1] - first[1]) ** 2)
        return [first, *shut[:3]], flag

    def winning_clicks(self, mines: set[Cell], first: Cell) -> list[Cell]:
        """Left clicks that win: ``first``, then each safe square still shut, in order.

        >>> PageRules(1, 4, 1, False).winning_clicks({(0, 3)}, (0, 0))
        [(0, 0)]
        >>> PageRules(1, 4, 1, False).winning_clicks({(0, 1)}, (0, 0))
        [(0, 0), (0, 2), (0, 3)]
        """
        clicks = [first]
        for cell in sorted(set(itertools.product(range(self.rows), range(self.cols))) - mines):
            if cell not in self.opened(mines, clicks):
                clicks.append(cell)
        return clicks

    def expected(self, mines: set[Cell], clicks: list[Cell], flags: set[Cell], status: str,
                 hit: Cell | None = None) -> str:
        """The text board the page shows: ``W`` a flag on no mine after a loss, ``*``
        every other mine not flagged; ``X`` the one hit and ``F`` every mine after a win
        when the page marks its end.

        >>> game = PageRules(1, 3, 1, False, mark_end=True)
        >>> game.expected({(0, 2)}, [(0, 0)], set(), "lost", hit=(0, 2))
        '01X\\n'
        """
        shown = self.opened(mines, clicks)
        won_flags = self.mark_end and status == "won"
        rows = []
        for r in range(self.rows):
            line = ""
            for c in range(self.cols):
                cell = (r, c)
                if self.mark_end and cell == hit:
                    line += "X"
                elif cell in flags or (won_flags and cell in mines):
                    line += "W" if status == "lost" and cell not in mines else "F"
                elif status == "lost" and cell in mines:
                    line += "*"
                elif cell in shown:
                    line += str(self.count(mines, cell))
                else:
                    line += "."
            rows.append(line)
        return "\n".join(rows) + "\n"

    def header(self, status: str, pitch: int, origin: tuple[int, int], game: str,
               look: str | None = None) -> str:
        """The comment lines a recorded ``.board`` starts with; ``origin`` is the top-left
        pixel of the squares in the capture.

        >>> print(PageRules(2, 3, 1, False).header("won", 20, (5, 7), "seed1"), end="")
        # mines 1
        # status won
        # size 3x2
        # pitch 20
        # cells x=5..64 y=7..46
        # game seed1
        """
        ox, oy = origin
        text = (f"# mines {self.mines}\n# status {status}\n# size {self.cols}x{self.rows}\n"
                f"# pitch {pitch}\n# cells x={ox}..{ox + self.cols * pitch - 1} "
                f"y={oy}..{oy + self.rows * pitch - 1}\n# game {game}\n")
        return text + (f"# look {look}\n" if look else "")
