"""A skin's mine counts by board size (``mine_counts`` in skin.json): written and read
back, a size with no fixed count kept as such, bad entries refused."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest

from vision.skin import SkinError, load_skin, save_skin, skin_mines


def test_mine_counts_round_trip(tmp_path: Path) -> None:
    skin = replace(load_skin("xdemineur"), mine_counts={(16, 16): 45, (32, 32): 200,
                                                        (9, 9): None},
                   mine_shares={(9, 9): 0.16})
    path = save_skin(skin, tmp_path)
    raw = json.loads(path.read_text())
    assert {"rows": 16, "cols": 16, "mines": 45} in raw["mine_counts"]
    assert {"rows": 9, "cols": 9, "mines": None, "share": 0.16} in raw["mine_counts"]
    again = load_skin(tmp_path)
    assert again.mine_counts == {(16, 16): 45, (32, 32): 200, (9, 9): None}
    assert again.mine_shares == {(9, 9): 0.16}
    assert skin_mines(again, 16, 16) == 45 and skin_mines(again, 9, 9) is None
    assert skin_mines(again, 16, 30) is None
    assert load_skin(save_skin(again, tmp_path / "b")).mine_counts == again.mine_counts


def test_a_skin_without_counts_has_none(tmp_path: Path) -> None:
    skin = load_skin(save_skin(load_skin("xdemineur"), tmp_path))
    assert skin.mine_counts == {}
    assert "mine_counts" not in json.loads((tmp_path / "skin.json").read_text())


@pytest.mark.parametrize("value", [{"16x16": 45}, [{"rows": 16, "cols": 16}],
                                   [{"rows": 16, "cols": 0, "mines": 4}],
                                   [{"rows": 16, "cols": 16, "mines": "45"}],
                                   [{"rows": 16, "cols": 16, "mines": None, "share": 1.5}],
                                   [{"rows": 16, "cols": 16, "mines": 45, "share": 0.2}]])
def test_bad_mine_counts_are_refused(tmp_path: Path, value: object) -> None:
    path = save_skin(load_skin("xdemineur"), tmp_path)
    raw = json.loads(path.read_text())
    raw["mine_counts"] = value
    path.write_text(json.dumps(raw))
    with pytest.raises(SkinError, match="mine_counts"):
        load_skin(tmp_path)
