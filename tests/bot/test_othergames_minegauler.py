"""bot.othergames' minegauler launcher, offline: its settings file, the script that starts
the game (run here against a stand-in ``minegauler`` package: no display, no PyQt6, no
minegauler needed), the outcomes read from the game's log, and the install skipped when
the folder is there."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path
from types import SimpleNamespace

import pytest

from bot import othergames
from bot.othergames import (
    MINEGAULER_BOOT,
    install_minegauler,
    minegauler_outcomes,
    minegauler_settings,
)


def test_the_settings_are_the_classic_game() -> None:
    s = json.loads(minegauler_settings(16, 16, 40))
    assert (s["x_size"], s["y_size"], s["mines"]) == (16, 16, 40)
    assert s["per_cell"] == 1 and s["lives"] == 1 and s["reach"] == 8
    assert s["mode"] == "REGULAR" and s["first_success"] is True
    assert s["drag_select"] is False and s["btn_size"] == 16
    assert set(s["styles"].values()) == {"Standard"}
    assert json.loads(minegauler_settings(9, 9, 10, cell=24))["btn_size"] == 24


STAND_IN = {
    "minegauler/__init__.py": "",
    "minegauler/app/__init__.py": "",
    "minegauler/app/paths.py": """\
import pathlib
SETTINGS_FILE = pathlib.Path(__file__).parent / "settings.cfg"
HIGHSCORES_FILE = pathlib.Path(__file__).parent / "data" / "highscores.db"
""",
    "minegauler/app/highscores.py": """\
from . import paths
DB = paths.HIGHSCORES_FILE  # read at import, as the game's is
POSTED = []
def _post_highscore_to_remote(highscore):
    POSTED.append(highscore)
    raise RuntimeError("posted to the author's server")
def is_highscore_new_best(highscore, all_highscores):
    return "time"
""",
    "minegauler/app/__main__.py": """\
import json, os, sys
from . import highscores, paths
def main():
    highscores._post_highscore_to_remote("a win")
    print(json.dumps({"settings": str(paths.SETTINGS_FILE), "db": str(highscores.DB),
                      "cwd": os.getcwd(), "posted": highscores.POSTED,
                      "new_best": highscores.is_highscore_new_best(None, [])}))
    print("to stderr", file=sys.stderr)
    return 3
""",
}


@pytest.fixture()
def stand_in(tmp_path: Path) -> Path:
    for name, text in STAND_IN.items():
        (tmp_path / "pkg" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "pkg" / name).write_text(text)
    (tmp_path / "home").mkdir()
    return tmp_path


def boot(folder: Path, *flags: str) -> tuple[int, dict[str, object]]:
    out = subprocess.run([sys.executable, "-c", MINEGAULER_BOOT, str(folder / "home"), *flags],
                         env={"PYTHONPATH": str(folder / "pkg")}, capture_output=True,
                         text=True, timeout=60)
    return out.returncode, json.loads(out.stdout)


def test_the_game_keeps_its_files_in_the_private_folder(stand_in: Path) -> None:
    rc, seen = boot(stand_in)
    home = stand_in / "home"
    assert rc == 3  # main's exit code passed on
    assert seen["settings"] == str(home / "settings.cfg")
    assert seen["db"] == str(home / "highscores.db")
    assert seen["cwd"] == str(home)  # (its runtime.log)
    assert (home / "stderr.log").read_text().strip() == "to stderr"


def test_no_win_is_posted_to_the_authors_server(stand_in: Path) -> None:
    _, seen = boot(stand_in)
    assert seen["posted"] == []


def test_the_scores_window_opens_unless_told(stand_in: Path) -> None:
    assert boot(stand_in)[1]["new_best"] == "time"
    assert boot(stand_in, "no-scores-window")[1]["new_best"] is None


def test_outcomes_are_read_from_the_games_logs(tmp_path: Path) -> None:
    for name, lines in {"minegauler-a": ["x[INFO](minegauler.app.core.game) Game won",
                                         "x[DEBUG](m) Mine hit at (3, 4)",
                                         "x[INFO](minegauler.app.core.regular.game) Game lost"],
                        "minegauler-b": ["x[INFO](minegauler.app.core.game) Game won"],
                        "other": ["x Game lost"]}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "runtime.log").write_text("\n".join(lines) + "\n")
    vd = SimpleNamespace(tmpdir=tmp_path)
    assert minegauler_outcomes(vd) == ["won", "lost", "won"]  # type: ignore[arg-type]


def test_an_installed_folder_is_not_installed_again(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    folder = othergames.pgms_folder(othergames.MINEGAULER_PACKAGE)
    assert folder == tmp_path / "sweepbot-minegauler-4.2.0"
    for path in ("minegauler/app/__main__.py", "PyQt6/QtWidgets.abi3.so",
                 "zig_minesolver/__init__.py"):
        (folder / path).parent.mkdir(parents=True, exist_ok=True)
        (folder / path).write_text("")

    def no_pip(*args: object, **kwargs: object) -> None:
        raise AssertionError("pip ran")

    monkeypatch.setattr(subprocess, "run", no_pip)
    assert install_minegauler() == folder
    (folder / "PyQt6/QtWidgets.abi3.so").unlink()  # half there: pip runs
    with pytest.raises(AssertionError, match="pip ran"):
        install_minegauler()
