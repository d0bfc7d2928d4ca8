"""What the play loop needs from vision, behind one small Protocol.

:class:`SkinReader` is the real one: it delegates to ``vision.locate``, ``vision.read``
and ``vision.status`` with a list of skins. Tests can give the loop any other
:class:`Reader` (e.g. one that decodes a simulator's synthetic screenshots).

All points and geometries are in image pixels of the image passed in.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from bot.mouse import Button
from bot.screen import Image
from solver.cells import Board
from vision.counter import mine_totals, read_counters, steady_total
from vision.geometry import BoardGeometry, PixelPoint

STATUSES = ("playing", "won", "lost", "unknown")

FLAGS_TO_WIN = frozenset({"xdemineur"})
"""Skins whose game declares a win only when every mine is flagged (used when the skin
itself does not say)."""

DISMISS_KEYS: dict[str, tuple[str, ...]] = {"gnome-mines": ("Escape",)}
"""Keys that close a game's end-of-game dialog (gnome-mines' "Congratulations!" score
table covers the board and its Play Again button), when the skin does not say."""

CHORD_BUTTONS: dict[str, Button] = {"xdemineur": "middle", "gnome-mines": "left",
                                    "classic": "middle"}
"""The button that chords (opens a number's unflagged neighbours) in the known games."""

PRESET_MINES = {(9, 9): 10, (8, 8): 10, (16, 16): 40, (16, 30): 99}
"""Mine counts of the usual presets, by (rows, cols)."""

CLOCK_TICK = 1.1
"""Seconds between two looks at the LED counters when more than one could be the mine
counter: a game's clock changes in that time while it runs."""


class NotFound(RuntimeError):
    """No known board is visible."""


@dataclass(frozen=True)
class Restart:
    """How to start the next game: click ``point`` (image pixels), or press ``keys``."""

    point: PixelPoint | None = None
    keys: tuple[str, ...] = ()


class Reader(Protocol):
    """Finds and reads boards in screenshots."""

    def locate(self, image: Image) -> BoardGeometry:
        """The board in ``image``; raises :class:`NotFound`."""
        ...

    def read(self, image: Image, geometry: BoardGeometry) -> Board: ...

    def status(self, image: Image, geometry: BoardGeometry) -> str:
        """One of :data:`STATUSES`."""
        ...

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None: ...

    def restart_idle(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        """The restart control in its in-play look, for a game that ended without
        redrawing it (asked only when :meth:`restart` found nothing; None if unknown)."""
        ...

    def starts_alone(self) -> bool:
        """Does a skin start its games from a control that shows with no board (a
        menu: ``restart["alone"]``)?"""
        ...

    def restart_alone(self, image: Image) -> PixelPoint | None:
        """With no board on the screen: the one place such a control shows in
        ``image``, or None (none, or more than one: no guess is clicked)."""
        ...

    def needs_flags(self, geometry: BoardGeometry) -> bool | None:
        """Does this game need every mine flagged to declare a win? None: not known
        (a skin whose calibration saw no win)."""
        ...

    def side_flood(self, geometry: BoardGeometry) -> bool:
        """Does an opened 0 open only the four squares beside it, not the diagonal ones
        (so a settled board may show a 0 with a covered square diagonal to it)?"""
        ...

    def click_hold(self, geometry: BoardGeometry) -> float:
        """Seconds the pointer must stay on a square it clicked (0: none): a game that
        looks where the pointer is once a frame takes a click for the square it moved
        to next (:attr:`bot.mouse.GuardedMouse.hold`)."""
        ...

    def dismiss_keys(self, geometry: BoardGeometry) -> tuple[str, ...]:
        """Keys that close an end-of-game dialog hiding the restart control."""
        ...

    def end_display(self, image: Image, geometry: BoardGeometry) -> str | None:
        """"won" or "lost" where ``image`` shows the game's own display of an end as
        the skin learned it over the board (a message, a dialog), else None."""
        ...

    def chord_button(self, geometry: BoardGeometry) -> Button | None:
        """The button that chords on a number in this game (None: do not chord)."""
        ...

    def flag_button(self, geometry: BoardGeometry) -> Button | None:
        """How this game places a flag: "right", "ctrl+left" where a right-click opens
        a menu (a web game in a browser), "middle", or None: no flag is ever placed (a
        game that flags only through a mode button, calibrated with ``--flag-button
        none``)."""
        ...

    def mine_count(self, image: Image, geometry: BoardGeometry) -> int | None:
        """The total number of mines, if the game shows it or its skin learned it for
        boards of this size (None if not)."""
        ...

    def first_click_rule(self, geometry: BoardGeometry) -> str | None:
        """The game's first-click rule (solver.strategy.FIRST_CLICK_RULES), if known."""
        ...


def only_zeros(board: Board) -> bool:
    """Does ``board`` show 0s and nothing else known (no covered square, number, mark
    or mine): no game's board, as every game has a mine?

    >>> import numpy as np
    >>> from solver.cells import UNKNOWN
    >>> only_zeros(np.array([[0, 0], [0, UNKNOWN]])), only_zeros(np.array([[0, 1], [0, 0]]))
    (True, False)
    """
    from solver.cells import UNKNOWN

    known = board[board != UNKNOWN]
    return bool(known.size) and bool((known == 0).all())


class SkinReader:
    """The real reader: ``vision`` with the given skins."""

    def __init__(self, skins: Sequence[Any]) -> None:
        if not skins:
            raise ValueError("no skins to look for")
        self.skins = list(skins)
        self._by_name = {s.name: s for s in self.skins}

    @classmethod
    def from_names(cls, names: Sequence[str] | None = None) -> SkinReader:
        """Load skins by name (all available skins when ``names`` is empty)."""
        from vision.skin import available_skins, load_skin

        return cls([load_skin(n) for n in (names or available_skins())])

    def skin(self, geometry: BoardGeometry) -> Any:
        return self._by_name[geometry.skin]

    def unnamed_numbers(self, geometry: BoardGeometry) -> tuple[int, ...]:
        """The numbers this board's skin has no look for (a calibration that met no 6)."""
        return tuple(n for n in range(9) if n not in self.skin(geometry).cells)

    def replace_skin(self, skin: Any) -> None:
        """Read with ``skin`` from now on in place of the skin of its name (one that
        learned a look in play, see :mod:`bot.learn`)."""
        self.skins = [skin if s.name == skin.name else s for s in self.skins]
        self._by_name[skin.name] = skin

    def locate(self, image: Image) -> BoardGeometry:
        from vision.lattice import locate_by_lattice
        from vision.locate import BoardNotFound, locate_board

        try:
            g = locate_board(image, self.skins)
        except BoardNotFound as exc:
            found = locate_by_lattice(image, self.skins) or \
                self._under_end_display(image) or \
                self._flat(image)  # tiles of no flat colour (kmines), plain boards
            if found is None:
                raise NotFound(str(exc)) from exc
            return found
        if only_zeros(self.read(image, g)):
            # no game shows 0s alone: a flat background in the colour of a skin's open
            # square (kmines draws them translucent over its window's background)
            return locate_by_lattice(image, self.skins) or g
        return self._flat_around(image, g) or g

    def _flat_around(self, image: Image, g: BoardGeometry) -> BoardGeometry | None:
        """For a skin of plain squares, the whole board round ``g``: the locator may
        grow a lattice of drawn squares (mines shown at a loss) over part of such a
        board only, its plain squares giving no edge to grow by."""
        from vision.flat_board import locate_flat, part_of

        whole = locate_flat(image, self.skin(g))  # (None at once for a skin of drawn squares)
        return whole if whole is not None and part_of(g, whole) else None

    def _flat(self, image: Image) -> BoardGeometry | None:
        """The board of a skin whose squares are plain colours with no edge between
        them (:func:`vision.flat_board.locate_flat`; calibrated with ``--grid``)."""
        from vision.flat_board import locate_flat

        return next((g for s in self.skins if (g := locate_flat(image, s)) is not None),
                    None)

    def _under_end_display(self, image: Image) -> BoardGeometry | None:
        """The template-free lattice, at a skin's cell size, beside which that skin's
        own display of a game's end shows (:func:`vision.status.end_display`): a game
        that redraws its squares at its end in looks of no state (ItzAleksG's Tk game
        turns every opened square light blue at a win, its face shows sunglasses) has
        too few squares that read for the locator. Play then reports the ended game
        and starts the next one, as for any board found ended."""
        from vision.lattice import NoBoardError, find_lattice, name_lattice
        from vision.status import end_display

        try:
            g = find_lattice(image)
        except NoBoardError:
            return None
        return name_lattice(image, g, self.skins, share=lambda named, skin: float(
            end_display(image, named, skin) is not None))

    def read(self, image: Image, geometry: BoardGeometry) -> Board:
        from vision.read import read_board

        return read_board(image, geometry, self.skin(geometry))

    def status(self, image: Image, geometry: BoardGeometry) -> str:
        from vision.status import read_status

        return str(read_status(image, geometry, self.skin(geometry)))

    def restart(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        from vision.status import locate_restart

        skin = self.skin(geometry)
        how = _restart_spec(skin)
        raw = how.get("keys") or how.get("key") or ()
        keys = (raw,) if isinstance(raw, str) else tuple(str(k) for k in raw)
        if how.get("kind") == "key" and keys:
            return Restart(keys=keys)
        point = locate_restart(image, geometry, skin)
        if point is not None:
            return Restart(point=PixelPoint(float(point.x), float(point.y)))
        return Restart(keys=keys) if keys else None

    def restart_idle(self, image: Image, geometry: BoardGeometry) -> Restart | None:
        """The face in its in-play look where the restart control is, for a game that
        ended without redrawing its face (:func:`vision.status.locate_idle_face`), else
        the control the user named in calibrate (:func:`vision.status.locate_told`);
        asked only when :meth:`restart` found nothing."""
        from vision.status import locate_idle_face, locate_told

        point = locate_idle_face(image, geometry, self.skin(geometry)) or \
            locate_told(geometry, self.skin(geometry))  # (the control the user named)
        return None if point is None else Restart(point=PixelPoint(float(point.x),
                                                                   float(point.y)))

    def starts_alone(self) -> bool:
        return any(_restart_spec(s).get("alone") for s in self.skins)

    def restart_alone(self, image: Image) -> PixelPoint | None:
        from vision.status import locate_restart_alone

        found = [p for s in self.skins if (p := locate_restart_alone(image, s)) is not None]
        return found[0] if len(found) == 1 else None

    def needs_flags(self, geometry: BoardGeometry) -> bool | None:
        skin = self.skin(geometry)
        for source in (_status_spec(skin), _restart_spec(skin)):
            if "win_needs_flags" in source:
                return bool(source["win_needs_flags"])
        if hasattr(skin, "win_needs_flags") or geometry.skin in FLAGS_TO_WIN:
            return bool(getattr(skin, "win_needs_flags", geometry.skin in FLAGS_TO_WIN))
        return False if won_display(skin) else None

    def side_flood(self, geometry: BoardGeometry) -> bool:
        return _status_spec(self.skin(geometry)).get("zero_opens") == "sides"

    def end_display(self, image: Image, geometry: BoardGeometry) -> str | None:
        from vision.status import end_display

        return end_display(image, geometry, self.skin(geometry))

    def click_hold(self, geometry: BoardGeometry) -> float:
        return float(_status_spec(self.skin(geometry)).get("click_hold", 0.0))

    def dismiss_keys(self, geometry: BoardGeometry) -> tuple[str, ...]:
        raw = _restart_spec(self.skin(geometry)).get("dismiss_keys")
        if raw is None:
            return DISMISS_KEYS.get(geometry.skin, ())
        return (raw,) if isinstance(raw, str) else tuple(str(k) for k in raw)

    def chord_button(self, geometry: BoardGeometry) -> Button | None:
        return CHORD_BUTTONS.get(geometry.skin)

    def flag_button(self, geometry: BoardGeometry) -> Button | None:
        named = _status_spec(self.skin(geometry)).get("flag_button")
        if named == "none":
            return None
        return "ctrl+left" if named == "ctrl+left" else "middle" if named == "middle" \
            else "right"

    def mine_count(self, image: Image, geometry: BoardGeometry) -> int | None:
        """The count the skin learned for boards of this size (``mine_counts`` in its
        skin.json, written by calibrate); the game's counter is :meth:`counted_mines`."""
        from vision.skin import skin_mines

        return skin_mines(self.skin(geometry), geometry.rows, geometry.cols)

    def mines_vary(self, geometry: BoardGeometry) -> bool:
        """Did calibrate see this game lay different mine counts on boards of this size
        (``mine_counts`` holds the size with no count)?"""
        counts = getattr(self.skin(geometry), "mine_counts", None) or {}
        size = (geometry.rows, geometry.cols)
        return size in counts and counts[size] is None

    def mine_share(self, geometry: BoardGeometry) -> float | None:
        """For a size of no fixed count (:meth:`mines_vary`): the share of squares that
        were mines in the games calibrate saw (``"share"`` in ``mine_counts``)."""
        shares = getattr(self.skin(geometry), "mine_shares", None) or {}
        return shares.get((geometry.rows, geometry.cols))

    def counted_mines(self, image: Image, geometry: BoardGeometry,
                      look_again: Callable[[], Image] | None = None) -> int | None:
        """The mines the game's LED counter implies (``vision.counter``: it shows the
        mines minus the flags placed, so the flags the board shows are added), or None
        when a panel does not read cleanly (it may be the counter: the clock's value is
        never taken for the mines), the board is not read consistently, or it is unclear
        which panel counts mines. When two panels allow different counts, ``look_again``
        (a new capture like ``image``) is taken CLOCK_TICK seconds later and a panel that
        changed (a running clock) is dropped."""
        first = self._counter_totals(image, geometry)
        if first is not None and len(set(first.values())) > 1 and look_again is not None:
            time.sleep(CLOCK_TICK)
            later = self._counter_totals(look_again(), geometry)
            return None if later is None else steady_total(first, later)
        return None if first is None else steady_total(first)

    def _counter_totals(self, image: Image, geometry: BoardGeometry) -> dict[int, int] | None:
        """``vision.counter.mine_totals`` of ``image``'s LED panels and board; None when
        a panel has no clean value."""
        from bot.consistency import contradiction

        counters = read_counters(image, geometry)
        if any(c.value is None for c in counters):
            return None
        if not counters:
            return {}
        board = self.read(image, geometry)
        return {} if contradiction(board, None, self.side_flood(geometry)) \
            else mine_totals(counters, board)

    def first_click_rule(self, geometry: BoardGeometry) -> str | None:
        skin = self.skin(geometry)
        rule = _status_spec(skin).get("first_click_rule") or getattr(skin, "first_click_rule", None)
        return str(rule) if rule else None


def _restart_spec(skin: Any) -> dict[str, Any]:
    spec = getattr(skin, "restart", None) or {}
    return dict(spec) if isinstance(spec, Mapping) else {}


def won_display(skin: Any) -> bool:
    """Does ``skin`` know how its game shows a win (a "won" status template)? A skin
    calibrated on games it never won does not, nor whether a win wants every mine
    flagged (DangerUXB: a board with every safe square open and no mine flagged
    stays in play).

    >>> from types import SimpleNamespace
    >>> won_display(SimpleNamespace(status={"templates": {"won": [], "lost": []}}))
    True
    >>> won_display(SimpleNamespace(status={"method": "face", "templates": {"lost": []}}))
    False
    """
    templates = _status_spec(skin).get("templates")
    return isinstance(templates, Mapping) and "won" in templates


def _status_spec(skin: Any) -> dict[str, Any]:
    spec = getattr(skin, "status", None) or {}
    return dict(spec) if isinstance(spec, Mapping) else {}


def preset_mines(rows: int, cols: int) -> int | None:
    """The usual mine count for a board of this size, if it is a known preset.

    >>> preset_mines(16, 30), preset_mines(10, 10)
    (99, None)
    """
    return PRESET_MINES.get((rows, cols))
