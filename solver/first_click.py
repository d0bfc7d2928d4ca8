"""What a game's first clicks prove about its first-click rule
(:data:`solver.strategy.FIRST_CLICK_RULES`): calibration records how each game's first
click went and claims a protection only when a game that protects nothing would seldom
go so (:func:`first_click_rule`).

Kinds of first click: "unprotected" (lost), "started-open" (the game had opened squares
itself), "opening" (it opened a region), "safe" (one square), "mark-opened"
(calibration's mark started the game: no first click of its own).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np


def first_click_rule(kinds: Sequence[str], sides: Sequence[int], density: float | None,
                     doubt: float = 1e-4) -> str:
    """The first-click rule (:data:`solver.strategy.FIRST_CLICK_RULES`) that the first
    clicks seen prove: ``kinds`` says how each game's first click went ("unprotected":
    lost; "started-open": the game had opened squares itself; "opening": it opened a
    region; "safe": one square; "mark-opened": calibration's mark started the game, no
    first click of its own), ``sides`` how many neighbours each clicked square (of the
    "opening" and "safe" ones) has, ``density`` the share of mines. A protection is
    claimed only when a game that does not protect the first click would lose none of
    these first clicks and open as many regions (or more) with a chance below ``doubt``
    (:func:`no_loss_chance`): a rule claimed wrongly makes play take a first click it
    calls safe on a square that is a mine as often. A short calibration of a game that
    does protect it may say "none": play then pays the first click's odds.

    >>> first_click_rule(["safe"] * 5, [8] * 5, 45 / 256)  # 5 in 5 survive: 0.38
    'none'
    >>> first_click_rule(["safe"] * 60, [8] * 60, 40 / 256)
    'safe'
    >>> first_click_rule(["opening"] * 8, [8] * 8, 0.15)
    'opening'
    >>> first_click_rule(["opening"] * 8, [3] * 8, 0.15)  # corners open often anyway
    'none'
    >>> first_click_rule(["opening"] * 10 + ["safe"], [8] * 11, 0.15)
    'safe'
    >>> first_click_rule(["opening", "unprotected"], [8, 8], 0.15)
    'none'
    >>> first_click_rule(["mark-opened"] + ["opening"] * 8, [8] * 8, 0.15)
    'opening'
    """
    kinds = [k for k in kinds if k != "mark-opened"]
    if not kinds or density is None or any(k in ("unprotected", "started-open") for k in kinds):
        return "none"
    free = 1.0 - density
    opens = [free ** n for n in sides]  # an opening's chance, the clicked square safe
    opened = [k == "opening" for k in kinds]
    if no_loss_chance(free, opens, sum(opened)) >= doubt:
        return "none"  # these first clicks would often go so with no protection
    if all(opened) and math.prod(opens) < doubt:
        return "opening"  # (a protected square alone would seldom open this often)
    return "safe"


def first_click_note(kinds: Sequence[str], rule: str) -> str:
    """What calibration says of the first-click ``rule`` it learned from ``kinds`` (as
    for :func:`first_click_rule`); "" when no first click was seen.

    >>> first_click_note(["opening"] * 9, "opening")[:60]
    'first click: every one of 9 opened a region, too often for c'
    >>> first_click_note(["safe", "unprotected"], "none")
    'first click: lost in 1 of 2 games: the game does not protect it'
    """
    kinds = [k for k in kinds if k != "mark-opened"]
    n = len(kinds)
    if not kinds:
        return ""
    if "unprotected" in kinds:
        return f"first click: lost in {kinds.count('unprotected')} of {n} games: the game " \
            "does not protect it"
    if "started-open" in kinds:
        return "first click: the game opens squares itself before it, so none is protected"
    if rule == "opening":
        return f"first click: every one of {n} opened a region, too often for chance: the " \
            "game keeps the square and its neighbours free (play clicks first near the " \
            "board's middle)"
    if rule == "safe":
        return f"first click: not lost in {n} games, too often for chance: the game keeps " \
            "the first square free"
    return f"first click: not lost in {n} games, too few to tell a protected one; play " \
        "takes it as unprotected (play --rule safe or opening if the game protects it)"


def opening_unproved(kinds: Sequence[str], sides: Sequence[int], density: float | None,
                     ) -> bool:
    """Has every first click so far (``kinds``, ``sides`` and ``density`` as for
    :func:`first_click_rule`) opened a region, too few times yet to prove that the game
    protects it: may more games still prove the rule "opening"?

    >>> opening_unproved([], [], 10 / 81), opening_unproved(["opening"] * 3, [8] * 3, 10 / 81)
    (True, True)
    >>> opening_unproved(["opening"] * 9, [8] * 9, 10 / 81)  # 9 at 9x9/10 prove it
    False
    >>> opening_unproved(["opening", "safe"], [8, 8], 0.12)  # never: one square opened
    False
    >>> opening_unproved(["opening"], [8], None)  # no count, no proof
    False
    """
    return all(k in ("opening", "mark-opened") for k in kinds) and density is not None \
        and first_click_rule(kinds, sides, density) != "opening"


def no_loss_chance(free: float, opens: Sequence[float], openings: int) -> float:
    """The chance that first clicks on squares each free of a mine with chance ``free``
    all survive and that ``openings`` or more of them open a region, each with its
    chance in ``opens`` once it survives (a first click that nothing protects; the
    chances are those of independent squares, a little above a real board's).

    >>> round(no_loss_chance(0.5, [0.5, 0.5], 0), 4), round(no_loss_chance(0.5, [0.5, 0.5], 1), 4)
    (0.25, 0.1875)
    """
    exactly = np.zeros(len(opens) + 1)
    exactly[0] = 1.0  # exactly[j]: the chance of exactly j openings so far
    for q in opens:
        exactly[1:] = exactly[1:] * (1 - q) + exactly[:-1] * q
        exactly[0] *= 1 - q
    return float(free ** len(opens) * exactly[openings:].sum())
