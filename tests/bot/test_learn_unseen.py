"""Play learns the looks of numbers a calibrated skin lacks (bot/learn.py), offline: the
simulated game painted with xdemineur's templates, read by the real template reader
with a copy of the skin that lacks some numbers."""

from __future__ import annotations

import json
import re
from pathlib import Path

import cv2
import numpy as np
import pytest
from simgame import sim_mouse
from skinsim import SkinScreen, SkinSimReader, skin_without, truth_skin

from bot.learn import NumberLearner, UnseenStop, fitting, group_looks, safe_under_all
from bot.loop import Observer, PlayConfig, Player, _Game
from bot.screen import Image
from solver.cells import COVERED, EXPLODED, MINE, Board, neighbours
from solver.game import BoardSize
from solver.probability import analyse
from solver.strategy import Decision
from vision.skin import load_skin

pytestmark = pytest.mark.usefixtures("virtual_time")  # made-up screens: no wait

LEARNED = re.compile(r"learned the look of (\d) at \((\d+), (\d+)\)")


class Notes(Observer):
    """Keeps every note with the true board of the game shown when it came."""

    def __init__(self, screen: SkinScreen) -> None:
        self.screen = screen
        self.notes: list[tuple[str, Board]] = []
        self.mouse = sim_mouse(screen)

    def on_note(self, player: Player, message: str) -> None:
        self.notes.append((message, self.screen.game.board.copy()))


def play(screen: SkinScreen, skin_dir: Path, games: int, tmp_path: Path,
         ) -> tuple[Player, Notes]:
    notes = Notes(screen)
    notes.mouse = mouse = sim_mouse(screen)
    config = PlayConfig(games=games, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0, mines=screen.board_size.mines)
    reader = SkinSimReader(load_skin(skin_dir), screen.pitch)
    return Player(screen, mouse, reader, "exact", config, notes), notes


def check_names(notes: Notes, skin_dir: Path) -> list[int]:
    """Every note names its square's true number, and every learned template is the
    truth skin's template of that number; the numbers learned."""
    truth = truth_skin()
    named = []
    for message, board in notes.notes:
        m = LEARNED.search(message)
        if m is None:
            continue
        code, cell = int(m.group(1)), (int(m.group(2)), int(m.group(3)))
        assert board[cell] == code, message
        named.append(code)
    for path in skin_dir.glob("*_learned*.png"):
        code = int(path.name.split("_")[0])
        image = cv2.imread(str(path))
        assert image is not None and np.array_equal(image, truth.cells[code][0]), path.name
    return named


def test_a_common_number_is_learned_at_once_and_read_from_then_on(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (3,))
    screen = SkinScreen(BoardSize.parse("intermediate"), seed=1)
    player, notes = play(screen, skin_dir, 4, tmp_path)
    results = player.play()
    assert [r.outcome for r in results] == [g.status for g in [*screen.finished, screen.game]]
    assert check_names(notes, skin_dir) == [3]  # learned once, read in later games
    manifest = json.loads((skin_dir / "skin.json").read_text())
    assert manifest["cells"]["3"] == ["3_learned.png"]
    assert not list(skin_dir.glob(".*tmp"))
    # a later session reads the 3 with the skin as written
    screen = SkinScreen(BoardSize.parse("intermediate"), seed=2)
    player, notes = play(screen, skin_dir, 2, tmp_path)
    assert all(r.outcome != "aborted" for r in player.play())
    assert notes.notes == [] and player.learner is not None and player.learner.learned == []
    assert (screen.finished[0].board == 3).any() or (screen.game.board == 3).any()


def test_a_rare_number_is_learned_on_a_dense_board(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (6, 7, 8))
    screen = SkinScreen(BoardSize(16, 16, 60), seed=2)
    player, notes = play(screen, skin_dir, 1, tmp_path)
    [result] = player.play()
    assert result.outcome in ("won", "lost")
    assert check_names(notes, skin_dir) == [6]
    assert 6 in load_skin(skin_dir).cells and 7 not in load_skin(skin_dir).cells


def test_while_two_names_fit_only_squares_safe_under_both_are_opened(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (6, 7, 8))
    screen = SkinScreen(BoardSize(16, 16, 60), seed=6)
    player, notes = play(screen, skin_dir, 1, tmp_path)
    decide = player._decide_unseen
    turns: list[tuple[int, int, int]] = []

    def checked(boards: tuple[Board, ...]) -> Decision:
        decision = decide(boards)
        safe = [set(analyse(np.where(b == -2, COVERED, b).astype(np.int8), 60).safe)
                for b in boards]
        both = set.intersection(*safe)
        if decision.is_guess:  # only where no square is safe under both
            assert not both and len(decision.open) == 1
            return decision
        assert set(decision.open) <= both
        mines = screen.game.mines
        assert mines is not None and not any(mines[c] for c in decision.open)
        turns.append((len(boards), len(decision.open), len(set.union(*safe) - both)))
        return decision

    player._decide_unseen = checked  # type: ignore[method-assign]
    [result] = player.play()
    assert result.outcome in ("won", "lost") and result.death_p != 0.0
    assert len(turns) >= 3 and all(n == 2 and k > 0 for n, k, _ in turns)
    assert any(extra > 0 for *_, extra in turns)  # one name alone would open more
    assert check_names(notes, skin_dir) == [6]


class GarbledOnes(SkinScreen):
    """Every 1 is drawn as noise: a look that is no number the skin lacks."""

    def render(self) -> Image:
        self.garble = {(int(r), int(c)) for r, c in np.argwhere(self.game.board == 1)}
        return super().render()


def test_a_look_no_missing_number_fits_stops_play_and_writes_nothing(tmp_path: Path) -> None:
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (6, 7, 8))
    before = {p.name: p.read_bytes() for p in skin_dir.iterdir()}
    screen = GarbledOnes(BoardSize.parse("intermediate"), seed=3)
    player, notes = play(screen, skin_dir, 1, tmp_path)
    [result] = player.play()
    assert result.outcome == "aborted"
    assert "no number it lacks (6, 7, 8) fits" in result.reason
    assert len(notes.mouse.clicks) == 1  # the first click, nothing after
    assert {p.name: p.read_bytes() for p in skin_dir.iterdir()} == before
    assert notes.notes == []


def test_names_match_the_truth_over_many_games(tmp_path: Path) -> None:
    learned: list[int] = []
    for seed in range(12):
        skin_dir = tmp_path / f"skin{seed}"
        skin_without(skin_dir, (3, 4, 5, 6, 7, 8))
        screen = SkinScreen(BoardSize(16, 16, 50), seed=100 + seed)
        player, notes = play(screen, skin_dir, 3, tmp_path)
        for r in player.play():
            assert r.death_p is None or r.death_p > 0.0, r  # never lost on a "safe" square
        learned += check_names(notes, skin_dir)
    assert len(learned) >= 20 and {3, 4, 5, 6} <= set(learned)


def _six_of_seven(skin_dir: Path) -> tuple[SkinScreen, np.ndarray, NumberLearner,
                                          SkinSimReader]:
    """A 4x4 game with 7 mines whose (1, 1) shows a 6 the skin of ``skin_dir`` has no look
    for (6 of its 8 neighbours are mines; 6 or 7 fit), and a learner reading it."""
    mines = np.zeros((4, 4), bool)
    mines[0, 0:3] = mines[1, 0] = mines[2, 0:2] = mines[3, 3] = True
    screen = SkinScreen(BoardSize(4, 4, 7), seed=0)
    screen.game.set_mines(mines)
    screen.game.board[1, 1] = 6
    reader = SkinSimReader(load_skin(skin_dir), screen.pitch)
    learner = NumberLearner.for_reader(reader)
    assert learner is not None
    return screen, mines, learner, reader


def test_a_waiting_look_is_named_by_its_mines_at_the_end(tmp_path: Path) -> None:
    """A 6 with 6 or 7 possible (7 mines, 8 squares around it): no square is safe under
    both, so play guesses over both (or stops); a loss (or a win) then shows which."""
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (6, 7, 8))
    for status in ("lost", "won"):
        screen, mines, learner, reader = _six_of_seven(skin_dir)
        image = screen.grab()
        geometry = reader.locate(image)
        known = np.full((4, 4), COVERED, np.int8)
        for _ in range(2):  # the second capture with the same pixels
            got = learner.unseen(image, geometry, reader.read(image, geometry), known,
                                 {(1, 1)}, 7)
        assert len(got.boards) == 2 and sorted(int(b[1, 1]) for b in got.boards) == [6, 7]
        # layouts: 6 around it: C(8,6) x 7 far = 196; 7 around it: C(8,7) = 8
        guess = learner.decide(got.boards, 7)
        assert guess.is_guess and guess.open[0] not in neighbours((1, 1), 4, 4)
        assert abs(guess.risk - 196 / 204 / 7) < 1e-9  # a far square: a mine 1 in 7 if 6
        learner.guess = False
        with pytest.raises(UnseenStop, match="may be 6 or 7"):
            learner.decide(got.boards, 7)
        if status == "lost":
            screen.game.board[mines] = MINE
            screen.game.board[0, 0] = EXPLODED
        else:
            screen.game.board[~mines] = screen.game.counts[~mines]
        image = screen.grab()
        learner.at_end(image, geometry, status, None)
        assert learner.learned == [(6, (1, 1))]
        assert int(reader.read(image, geometry)[1, 1]) == 6
        (skin_dir / "6_learned.png").unlink()  # for the next round
        manifest = json.loads((skin_dir / "skin.json").read_text())
        del manifest["cells"]["6"]
        (skin_dir / "skin.json").write_text(json.dumps(manifest))


def test_fitting_and_safe_under_all_on_a_text_board() -> None:
    from solver.textboard import parse_board

    board = parse_board("....\n.U..\n....")  # (1, 1): 8 squares around, 3 far
    look = group_looks({(1, 1): np.zeros((4, 4, 3), np.uint8)})
    assert fitting(board, look, [(6, 7, 8)], 7) == [(6,), (7,)]
    assert fitting(board, look, [(6, 7, 8)], 9) == [(6,), (7,), (8,)]
    b6, b7 = (np.where(board == -7, n, board).astype(np.int8) for n in (6, 7))
    assert safe_under_all([b6, b7], 7) is None  # under 6 one far square is a mine
    assert sorted(safe_under_all([b7], 7).open) == [(0, 3), (1, 3), (2, 3)]  # type: ignore[union-attr]


def test_an_interrupted_write_leaves_the_manifest_whole(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import learn

    skin_dir = tmp_path / "skin"
    skin = skin_without(skin_dir, (6,))
    manifest = (skin_dir / "skin.json").read_bytes()

    def interrupted(src: str, dst: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(learn.os, "replace", interrupted)
    with pytest.raises(KeyboardInterrupt):
        learn.add_templates(skin, {6: [truth_skin().cells[6][0]]})
    assert (skin_dir / "skin.json").read_bytes() == manifest
    assert 6 not in load_skin(skin_dir).cells and not list(skin_dir.glob(".*"))
    monkeypatch.undo()
    again = learn.add_templates(load_skin(skin_dir), {6: [truth_skin().cells[6][0]]})
    assert np.array_equal(again.cells[6][0], truth_skin().cells[6][0])
    assert json.loads((skin_dir / "skin.json").read_text())["cells"]["6"] == ["6_learned_1.png"]


def test_doctests() -> None:
    import doctest

    from bot import learn

    result = doctest.testmod(learn)
    assert result.failed == 0 and result.attempted >= 20


def test_a_board_caught_half_way_is_left_to_the_loop_not_stopped(tmp_path: Path) -> None:
    """A 0 drawn before its neighbours are opened (a redraw caught half-way) makes every
    name fail: that is the board's fault, not the look's, so nothing stops and the
    loop captures again."""
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (6, 7, 8))
    screen, _, learner, reader = _six_of_seven(skin_dir)
    screen.game.board[3, 2] = 0  # its neighbours still covered
    image = screen.grab()
    geometry = reader.locate(image)
    known = np.full((4, 4), COVERED, np.int8)
    for _ in range(2):
        got = learner.unseen(image, geometry, reader.read(image, geometry), known,
                             {(1, 1), (3, 2)}, 7)
    assert "does not fit even with the unseen looks unconstrained" in got.why
    assert got.boards == () and int(got.board[1, 1]) == -7 and learner.learned == []


def test_a_board_moved_while_unseen_numbers_show_is_found_again(tmp_path: Path) -> None:
    """Squares of numbers the skin lacks side by side look like something over the
    board, so play looks for the board again. Live (react-minesweeper, a skin lacking
    3-6), the page had moved its board a pixel: found there, it did not read whole (the
    unseen numbers), and play stopped with "the board was found elsewhere". The squares
    that do not read lie where the last batch opened squares: the board is taken where
    it was found, and the learner names them."""
    skin_dir = tmp_path / "skin"
    skin_without(skin_dir, (2, 3, 4, 5, 6, 7, 8))
    screen = SkinScreen(BoardSize(16, 16, 50), seed=4)
    config = PlayConfig(games=1, redraw_timeout=0.2, restart_timeout=1.0,
                        bug_dir=tmp_path / "bugs", seed=0, mines=50)
    reader = SkinSimReader(load_skin(skin_dir), screen.pitch)
    player = Player(screen, sim_mouse(screen), reader, "exact", config)
    player.find_board()
    known = screen.game.board.copy()
    screen.game.open((8, 8))  # the first click opens a region (the game's rule)
    unread = player.read(*player.capture_board()) == -7
    assert (unread & (np.roll(unread, 1, axis=1) | np.roll(unread, 1, axis=0))).any()
    assert np.isin(screen.game.board[unread], (2, 3, 4, 5, 6, 7, 8)).all()
    screen.left += 1  # the page moves its board a pixel
    screen.top += 1
    game = _Game(0.0, known=known, moves=1, opening={(8, 8)})
    assert player._find_again(game) is False  # before: PlayStopped ("found elsewhere")
    assert player.geometry is not None and player.geometry.x0 == screen.left
    board = player.read(*player.capture_board())
    assert (board == screen.game.board)[board != -7].all()
