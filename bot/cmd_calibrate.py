"""``sweepbot calibrate``: learn a new skin, live from the screen or from screenshots.

Live (a fresh game of the program on screen)::

    sweepbot calibrate --name winxp --games 3

Offline (saved screenshots; lost games teach the most)::

    sweepbot calibrate --name winxp --from lost1.png lost2.png playing.png

Both write ``templates/NAME/`` (or ``--out DIR``) in the shipped skins' format plus
``contact_sheet.png`` showing every learned template with its name. An existing skin
of that name is extended, not replaced.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

HELP = "learn a new skin from the screen or from screenshots"


def configure(parser: argparse.ArgumentParser) -> None:
    from bot.calibrate_live import FLAG_BUTTONS

    parser.add_argument("--name", required=True, help="the skin's name (folder under templates/)")
    parser.add_argument("--games", type=int, default=2, metavar="N",
                        help="games to finish at least (live; default 2)")
    parser.add_argument("--max-games", type=int, default=40, metavar="N",
                        help="games to play at most (live; default 40)")
    parser.add_argument("--from", dest="sources", nargs="+", metavar="PNG",
                        help="learn offline from these screenshots instead of the screen")
    parser.add_argument("--out", metavar="DIR",
                        help="write the skin here (default: templates/NAME)")
    parser.add_argument("--mines", type=int, metavar="N",
                        help="the game's mine count (default: learned from a lost game)")
    parser.add_argument("--restart-key", metavar="KEY",
                        help="key that starts a new game (e.g. F2), if no control does; "
                        "pressed before Escape at an end that covers the whole board "
                        "(a game that quits at Escape)")
    parser.add_argument("--restart-at", metavar="X,Y", type=screen_point,
                        help="screen point of the control that starts a new game, if it "
                             "looks the same all along (calibrate asks for it otherwise)")
    parser.add_argument("--grid", metavar="ROWSxCOLS", type=grid_size,
                        help="the board's size in squares, for a board drawn as one plain "
                             "colour with no edge between its squares (e.g. 16x16)")
    parser.add_argument("--flag-button", default="auto", choices=FLAG_BUTTONS,
                        help="how the game places a flag (live; default auto: a "
                             "right-click, or ctrl+click where a right-click opens a menu); "
                             "none: a game that flags only through a mode button is "
                             "calibrated and played with no flags")
    parser.add_argument("--time-limit", type=float, default=90.0, metavar="S",
                        help="stop playing after this many seconds (default 90)")
    parser.add_argument("--display", help="X display to use (default: $DISPLAY)")
    parser.add_argument("--mouse", default="auto", choices=("auto", "xtest", "pyautogui"),
                        help="how to click (default auto)")
    parser.add_argument("--seed", type=int, default=0, help="random seed for the first moves")
    parser.add_argument("--want", default="0-5,wrong_flag", metavar="STATES",
                        help="keep playing (within the time limit) until these states are "
                             "known, e.g. 0-8 on a dense board (default 0-5,wrong_flag)")


def _fail(message: str) -> int:
    print(f"sweepbot calibrate: {message}", file=sys.stderr)
    return 2


def run(args: argparse.Namespace) -> int:
    from vision.skin import SkinError

    name = str(args.name)
    if not name or "/" in name or "\\" in name or name.startswith("."):
        return _fail(f"bad skin name {name!r}: use a plain folder name such as 'winxp'")
    if args.games < 1:
        return _fail("--games must be at least 1")
    if args.max_games < args.games:
        return _fail("--max-games must be at least --games")
    try:
        parse_states(args.want)
    except ValueError as exc:
        return _fail(str(exc))
    try:
        out = _out_dir(args)
        base = _base(out)
        if args.sources:
            skin, notes = _offline(args, name, base)
        else:
            skin, notes = _live(args, name, base)
        _write(skin, out, notes)
    except (SkinError, ValueError, RuntimeError, OSError) as exc:
        return _fail(str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
    return 0


def _out_dir(args: argparse.Namespace) -> Path:
    from vision.skin import templates_root

    return Path(args.out) if args.out else templates_root() / args.name


def _base(out: Path) -> Any:
    """The skin already in ``out`` (to extend), or None."""
    from vision.skin import SKIN_FILE, load_skin

    return load_skin(out) if (out / SKIN_FILE).is_file() else None


def _read_images(paths: list[str]) -> tuple[list[Any], list[Any], list[bool]]:
    """The screenshots, each with a black margin (:mod:`vision.margin`): one cropped
    to the board's very edge is then found like any other; and the same to find the
    boards in. JPEGs are restored to their dominant colours first
    (:func:`vision.lossy.restore_lossy`), and their boards found in them denoised
    (:func:`vision.lossy.board_views`); which are JPEGs."""
    from vision.lossy import board_views, is_jpeg, restore_lossy
    from vision.margin import with_margin

    images = []
    for p in paths:
        img = cv2.imread(p, cv2.IMREAD_COLOR) if Path(p).is_file() else None
        if img is None:
            raise OSError(f"cannot read image {p!r}")
        images.append(np.asarray(img, np.uint8))
    lossy = [is_jpeg(Path(p).read_bytes()[:3]) for p in paths]
    return ([with_margin(img) for img in restore_lossy(images, lossy)],
            [with_margin(img) for img in board_views(images, lossy)], lossy)


def _offline(args: argparse.Namespace, name: str, base: Any) -> tuple[Any, list[str]]:
    from vision.calibrate import OFFLINE_SECONDS, learn_from_images
    from vision.skin import Skin

    images, find_in, lossy = _read_images(list(args.sources))
    sources = list(args.sources)
    notes = []
    if base:
        kept, images, other = same_size(sources, images, base.cell_size)
        find_in = [f for src, f in zip(sources, find_in, strict=True) if src in kept]
        lossy = [j for src, j in zip(sources, lossy, strict=True) if src in kept]
        sources = kept
        if other:
            notes.append(f"left out (cells of another size than the skin's "
                         f"{base.cell_size[0]:.1f} px; calibrate a skin of that size "
                         f"instead): {', '.join(other)}")
        if not images:
            raise ValueError("no screenshot shows cells of the skin's size")
    t0 = time.perf_counter()
    learned = learn_from_images(images, dict(base.cells) if base else None, OFFLINE_SECONDS,
                                find_in, lossy, args.grid)
    used = len(images) - len(learned.cut_images)
    notes.insert(0, f"learned from {used} screenshots in "
                    f"{time.perf_counter() - t0:.1f} s")
    notes.extend(left_out_notes(learned.left_out))
    window = window_note([sources[i] for i in learned.window_images])
    notes.extend(window)
    if not learned.cells:  # (a skin of no templates is no skin: nothing is written)
        raise ValueError("; ".join(["no look of a square could be named from these "
                                    "screenshots", *left_out_notes(learned.left_out),
                                    *window]))
    cut = [sources[i] for i in learned.cut_images]
    if cut:
        notes.append("left out (the board is cut by its window's edge or the screen's: the "
                     "numbers along the cut count mines that do not show; capture the whole "
                     f"board): {', '.join(cut)}")
    misses = [p for p, g in zip(sources, learned.boards, strict=True)
              if g is None and p not in cut]
    if misses:
        notes.append(f"no board found in: {', '.join(misses)}")
    if learned.unnamed:
        notes.append(f"{learned.unnamed} looks could not be named (more lost games help)")
    status = dict(base.status) if base else {"method": "board"}
    restart = dict(base.restart) if base else {}
    if not restart:
        notes.append("how to start a new game is not known offline: run a live calibration "
                     "or add 'restart' to skin.json")
    cell_size = base.cell_size if base else learned.pitch
    cells = learned.cells
    if base and tuple(base.cell_size) != tuple(learned.pitch):
        cells = _resize_cells(cells, base.cell_size)
    counts, shares = mine_counts(base, learned.mine_counts, notes)
    skin = Skin(name, f"sweepbot calibrate --from ({used} screenshots)", cell_size,
                cells, status, restart, mine_counts=counts, mine_shares=shares,
                unnamed=unnamed_looks(learned.unnamed_looks, base, cells, cell_size))
    return skin, notes


def window_note(sources: Sequence[str]) -> list[str]:
    """The note on screenshots learned from beside a window over their board only
    ([] if none: see :data:`vision.calibrate.LEFT_WINDOW`).

    >>> window_note(["lost.png"])[0][:62]
    'learned from beside a window only (a window over part of the b'
    """
    if not sources:
        return []
    return ["learned from beside a window only (a window over part of the board: the "
            "squares under it are its own face and the numbers beside it count mines "
            "that do not show, so only a loss is read there, with what the other "
            "screenshots named; capture the board before the dialog shows, or move the "
            "dialog off it): " + ", ".join(sources)]


def left_out_notes(left_out: Sequence[tuple[str, int]]) -> list[str]:
    """One line for each thing the offline learning left out (see
    :class:`vision.calibrate.Budget`), with what helps; [] if nothing.

    >>> left_out_notes([("boards whose reading the time limit cut short", 2)])[0][:60]
    'not learned from: 2 boards whose reading the time limit cut '
    >>> from vision.calibrate import LEFT_UNCHECKED
    >>> left_out_notes([(LEFT_UNCHECKED, 4)])[0][:43]
    'partly learned from: 4 screenshots of anoth'
    """
    from vision.calibrate import LEFT_TOO_MANY_LOOKS, LEFT_UNCHECKED

    out = []
    for what, n in left_out:
        helps = ("a JPEG or rescaled capture draws one square many ways; PNG captures at "
                 "the game's own size help" if what == LEFT_TOO_MANY_LOOKS else
                 "fewer screenshots at a time help")
        verb = "partly learned from" if what == LEFT_UNCHECKED else "not learned from"
        out.append(f"{verb}: {n} {what} ({helps}); what only they show stays "
                   "unnamed (read as unknown)")
    return out


def same_size(sources: list[str], images: list[Any], cell_size: tuple[float, float],
              tolerance: float = 0.04) -> tuple[list[str], list[Any], list[str]]:
    """The screenshots whose board has cells of ``cell_size`` (within ``tolerance``),
    and the names of the others (a skin extended with cells of another size reads
    worse: gnome-mines draws its glyphs out of proportion to its tiles). A screenshot
    with no board is kept (the learner reports it)."""
    from vision.lattice import NoBoardError, find_lattice

    keep_src, keep_img, other = [], [], []
    for src, img in zip(sources, images, strict=True):
        try:
            g = find_lattice(img)
        except NoBoardError:
            g = None
        if g is None or abs(g.pitch_x / cell_size[0] - 1) <= tolerance:
            keep_src.append(src)
            keep_img.append(img)
        else:
            other.append(src)
    return keep_src, keep_img, other


def _resize_cells(cells: Any, cell_size: tuple[float, float]) -> dict[int, tuple[Any, ...]]:
    from vision.calibrate import fit_size

    size = (max(1, round(cell_size[0])), max(1, round(cell_size[1])))
    return {code: tuple(fit_size(img, size) for img in imgs) for code, imgs in cells.items()}


def unnamed_looks(learned: Sequence[Any], base: Any, cells: Any,
                  cell_size: tuple[float, float]) -> tuple[Any, ...]:
    """The looks the new skin keeps as unnamed (read as unknown): those just learned and
    the ``base`` skin's, at ``cell_size``, but for any near a template of ``cells``
    (:func:`vision.calibrate.other_looks`: it has a name now)."""
    from vision.calibrate import other_looks

    size = (max(1, round(cell_size[0])), max(1, round(cell_size[1])))
    return other_looks([*learned, *(base.unnamed if base else ())], cells, size)


def _live(args: argparse.Namespace, name: str, base: Any) -> tuple[Any, list[str]]:
    from bot.calibrate_live import CalibrationError, LiveCalibrator, LiveOptions
    from bot.mouse import make_mouse
    from bot.screen import MssScreen, prepare_platform

    if args.display:
        os.environ["DISPLAY"] = args.display
    prepare_platform()
    screen = MssScreen(args.display)
    mouse = make_mouse(args.mouse, args.display)
    ask = _ask if sys.stdin.isatty() else None
    opts = LiveOptions(games=args.games, max_games=args.max_games, time_limit=args.time_limit,
                       mines=args.mines,
                       restart_keys=args.restart_key, restart_point=args.restart_at,
                       ask=ask, seed=args.seed, flag_button=args.flag_button, grid=args.grid,
                       want=parse_states(args.want), log=lambda m: print(m, file=sys.stderr))
    t0 = time.perf_counter()
    try:
        learned = LiveCalibrator(screen, mouse, opts, dict(base.cells) if base else None).run()
    except CalibrationError as exc:
        if exc.partial is None:
            raise
        _write_partial(*_live_skin(exc.partial, name, base, time.perf_counter() - t0),
                       _out_dir(args))
        raise
    finally:
        screen.close()
    return _live_skin(learned, name, base, time.perf_counter() - t0)


def _write_partial(skin: Any, notes: list[str], out: Path) -> None:
    """Write the skin of the games calibration played before it stopped (at a new game
    it could not start, or as the game's window closed): nothing learned is lost; say so."""
    _write(skin, out, notes)
    print("calibration stopped early (why: below): what the games played so far taught "
          "is written; start a fresh game and run calibrate again with the same --name to "
          "extend it", file=sys.stderr)


def _live_skin(learned: Any, name: str, base: Any, seconds: float) -> tuple[Any, list[str]]:
    """The skin of a live calibration (``base`` extended, if any) and its notes."""
    from vision.skin import Skin

    notes = [f"calibrated in {seconds:.1f} s, games: "
             f"{', '.join(learned.games) or 'none'}", *learned.notes]
    cells = learned.cells
    cell_size = learned.cell_size
    if base and tuple(base.cell_size) != tuple(cell_size):
        cells = _resize_cells(cells, base.cell_size)
        cell_size = base.cell_size
    status, restart = learned.status, learned.restart
    if "won" not in learned.games:  # nothing learned about a win: keep what was known
        status = {k: v for k, v in status.items() if k != "win_needs_flags"}
        if base and base.status.get("method") != status.get("method"):
            status = {}  # (a face method with no won look would replace a board
            # method that tells wins: WineMine extended on a dense board, all lost)
    if base:
        status = merge_section(dict(base.status), status)
        restart = merge_section(dict(base.restart), restart)
    counts, shares = mine_counts(base, learned.mine_counts, notes)
    skin = Skin(name, "sweepbot calibrate (live)", cell_size, cells, status, restart,
                mine_counts=counts, mine_shares=shares,
                unnamed=unnamed_looks((), base, cells, cell_size))
    return skin, notes


def mine_counts(base: Any, seen: Sequence[tuple[tuple[int, int], int]], notes: list[str],
                ) -> tuple[dict[tuple[int, int], int | None], dict[tuple[int, int], float]]:
    """The base skin's mine counts by board size with the ones ``seen`` now merged in
    (:func:`vision.calibrate.merge_mine_counts`), and for each size of no fixed count
    the mean share of its squares that were mines (the base skin's, if no game of it
    proved its count now); notes what is recorded, and every size whose games
    disagreed."""
    from vision.calibrate import merge_mine_counts

    counts, disagreed = merge_mine_counts(dict(base.mine_counts) if base else {}, seen)
    notes.extend(disagreed)
    shares = {size: share for size, share in (base.mine_shares.items() if base else ())
              if counts.get(size, 0) is None}
    for size in sorted({s for s, _ in seen}):
        n = counts.get(size)
        games = sum(1 for s, _ in seen if s == size)
        if n is not None:
            notes.append(f"mine count: {n} on boards of {size[0]}x{size[1]} squares (rows x "
                         f"cols), seen at the end of {games} game{'s' if games > 1 else ''}")
            continue
        found = [m for s, m in seen if s == size]
        shares[size] = sum(found) / len(found) / (size[0] * size[1])
        notes.append(f"mine share: {shares[size]:.3f} of the squares on boards of "
                     f"{size[0]}x{size[1]} squares, the mean of {games} game"
                     f"{'s' if games > 1 else ''} (play takes each square a mine with "
                     "that chance)")
    if not seen:
        notes.append("mine count: no game's end showed it (play needs --mines unless the "
                     "board size is a usual preset)")
    return counts, shares


def merge_section(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """A status or restart section learned now, merged into the skin's earlier one:
    the same method keeps every template of both and the union of both regions; a
    section learned with less (no templates) keeps the earlier one.

    >>> merge_section({"method": "face", "templates": {"won": [1]},
    ...                "region": [[0.5, -10, 0, -50], [0.5, 10, 0, -5]]},
    ...               {"method": "face", "templates": {"won": [2], "lost": [3]},
    ...                "region": [[0.5, -12, 0, -40], [0.5, 8, 0, -2]]})["templates"]
    {'won': [1, 2], 'lost': [3]}
    """
    if not new or (old and "templates" not in new and "templates" in old):
        return {**old, **{k: v for k, v in new.items() if k not in ("templates", "region",
                                                                     "method", "kind")}}
    if not old or old.get("method", old.get("kind")) != new.get("method", new.get("kind")):
        return new
    merged = {**old, **new}
    a, b = old.get("templates"), new.get("templates")
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        merged["templates"] = {k: [*a.get(k, []), *b.get(k, [])] for k in {**a, **b}}
    elif a is not None and b is not None and not isinstance(a, Mapping):
        merged["templates"] = [*a, *b]
    ra, rb = old.get("region"), new.get("region")
    if ra and rb and ra[0][0] == rb[0][0] and ra[0][2] == rb[0][2]:
        merged["region"] = [[ra[0][0], min(ra[0][1], rb[0][1]), ra[0][2], min(ra[0][3], rb[0][3])],
                            [ra[1][0], max(ra[1][1], rb[1][1]), ra[1][2], max(ra[1][3], rb[1][3])]]
    return merged


def parse_states(text: str) -> tuple[int, ...]:
    """State names and number ranges to cell codes.

    >>> parse_states("0-2,flag")
    (0, 1, 2, -2)
    """
    from solver.cells import CODE_BY_NAME

    out: list[int] = []
    for part in (p.strip() for p in text.split(",") if p.strip()):
        lo, dash, hi = part.partition("-")
        if dash and lo.isdigit() and hi.isdigit() and int(hi) <= 8:
            out.extend(range(int(lo), int(hi) + 1))
        elif part in CODE_BY_NAME and part != "unknown":
            out.append(CODE_BY_NAME[part])
        else:
            raise ValueError(f"unknown state {part!r} in --want (use 0-8 and names such as "
                             "flag, question, wrong_flag)")
    return tuple(out)


def screen_point(text: str) -> Any:
    """``X,Y`` as a screen point (argparse reports a bad one as a usage error).

    >>> screen_point("120,45.5")
    ScreenPoint(x=120.0, y=45.5)
    """
    from bot.screen import ScreenPoint

    try:
        x, y = (float(v) for v in text.split(","))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad point {text!r}: use X,Y, e.g. 640,120") from None
    if min(x, y) < 0:
        raise argparse.ArgumentTypeError(f"bad point {text!r}: X and Y must be >= 0")
    return ScreenPoint(x, y)


def grid_size(text: str) -> tuple[int, int]:
    """``ROWSxCOLS`` as (rows, cols) (argparse reports a bad one as a usage error).

    >>> grid_size("16x30"), grid_size("9X9")
    ((16, 30), (9, 9))
    """
    try:
        rows, cols = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"bad grid {text!r}: use ROWSxCOLS, e.g. 16x16") \
            from None
    if min(rows, cols) < 2:
        raise argparse.ArgumentTypeError(f"bad grid {text!r}: at least 2 rows and 2 columns")
    return rows, cols


def _ask(question: str) -> str:
    print(question, end="", file=sys.stderr, flush=True)
    return sys.stdin.readline()


def _write(skin: Any, out: Path, notes: list[str]) -> None:
    from solver.cells import UNKNOWN
    from vision.calibrate import contact_sheet, missing_states
    from vision.skin import save_skin

    path = save_skin(skin, out)
    sheet = out / "contact_sheet.png"
    cv2.imwrite(str(sheet), contact_sheet({**skin.cells, UNKNOWN: skin.unnamed},
                                          f"{skin.name}: {skin.source}"))
    for note in notes:
        print(note)
    missing = missing_states(skin.cells)
    if skin.status.get("flag_button") == "none":  # (no flag is ever placed)
        missing = [m for m in missing if m not in ("flag", "question", "wrong_flag")]
    if missing:
        print(f"warning: not seen yet: {', '.join(missing)} (run calibrate again later to "
              "extend the skin)")
    print(f"wrote {path} and {sheet}")
