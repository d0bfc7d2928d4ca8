"""The WineMine launcher's settings and its errors, with no wine needed."""

from __future__ import annotations

import pytest

from bot import winegames
from bot.realgames import LaunchError, VirtualDisplay
from bot.winegames import check_winmine_size, launch_winmine, winmine_registry


def values(text: str) -> dict[str, int]:
    """The dword values of a ``.reg`` text."""
    out = {}
    for line in text.splitlines():
        if "=dword:" in line:
            name, value = line.split("=dword:")
            out[name.strip('"')] = int(value, 16)
    return out


@pytest.mark.parametrize(("size", "level"), [((9, 9, 10), 0), ((16, 16, 40), 1),
                                             ((30, 16, 99), 2), ((20, 12, 30), 3)])
def test_registry_sets_the_board(size: tuple[int, int, int], level: int) -> None:
    text = winmine_registry(*size)
    assert text.startswith("REGEDIT4\n")
    assert "[HKEY_CURRENT_USER\\Software\\Microsoft\\WinMine]" in text
    got = values(text)
    assert (got["Width"], got["Height"], got["Mines"], got["Difficulty"]) == (*size, level)
    assert got["Mark"] == 1


def test_best_times_are_zero_unless_record_dialogs_are_wanted() -> None:
    assert {values(winmine_registry(9, 9, 10))[f"Time{i}"] for i in (1, 2, 3)} == {0}
    assert "Time1" not in values(winmine_registry(9, 9, 10, record_dialogs=True))
    assert values(winmine_registry(9, 9, 10, marks=False))["Mark"] == 0


@pytest.mark.parametrize("size", [(8, 8, 10), (31, 16, 99), (9, 25, 10), (9, 9, 9),
                                  (9, 9, 65)])
def test_sizes_winemine_would_change_are_refused(size: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match="WineMine plays"):
        check_winmine_size(*size)


def test_largest_boards_are_accepted() -> None:
    check_winmine_size(30, 24, 29 * 23)
    check_winmine_size(9, 9, 64)


def test_missing_wine_is_a_launch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winegames, "missing_programs", lambda *names: list(names))
    vd = VirtualDisplay()  # never started: the check comes first
    with pytest.raises(LaunchError, match="missing programs: wine.*apt: wine"):
        launch_winmine(vd, 9, 9, 10)


def test_missing_exe_is_a_launch_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(winegames, "missing_programs", lambda *names: [])
    with pytest.raises(LaunchError, match="no such program"):
        launch_winmine(VirtualDisplay(), 9, 9, 10, exe="/no/such/winmine.exe")


def test_prefix_place(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SWEEPBOT_WINEPREFIX", "/x/prefix")
    assert str(winegames.wine_prefix()) == "/x/prefix"
    monkeypatch.delenv("SWEEPBOT_WINEPREFIX")
    monkeypatch.setenv("XDG_CACHE_HOME", "/c")
    assert str(winegames.wine_prefix()) == "/c/sweepbot/wine"
