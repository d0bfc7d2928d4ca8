"""``sweepbot play`` on xbomb with the game's file reads slowed down, as on a busy machine.

    python benchmarks/slow_game_io.py --delay-ms 300 --play 10

xbomb reads its high-score file and the password database when a game is won, before it
draws the flag that wins; the rest of the last batch is drawn at once. CI once stopped
there ("flagged square ... shows no flag"). Here every ``openat`` xbomb makes is delayed
by ``--delay-ms`` with strace's fault injection (apt ``strace``), so each win draws its
last flag that much later (several files: a few times that).

Calibrates xbomb from scratch on a private Xvfb with openbox (as
tests/bot/test_other_games.py does; or takes ``--templates`` with an ``xbomb`` skin),
then plays ``--play`` games under the delay. Prints play's summary and one JSON line:
games won / lost / aborted and the reasons of the aborted ones.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def sweepbot(display: str, templates: Path, args: list[str],
             timeout: float) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k != "WAYLAND_DISPLAY"}
    env.update(DISPLAY=display, PYTHONPATH=str(ROOT), SWEEPBOT_TEMPLATES=str(templates))
    return subprocess.run([sys.executable, "-m", "bot.cli", *args], env=env, cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--delay-ms", type=float, default=300.0)
    p.add_argument("--play", type=int, default=10)
    p.add_argument("--templates", type=Path, help="a folder holding a calibrated xbomb skin")
    args = p.parse_args(argv)

    from bot.othergames import launch_xbomb
    from bot.realgames import VirtualDisplay

    with tempfile.TemporaryDirectory() as tmp, VirtualDisplay(window_manager=True) as vd:
        templates = args.templates or Path(tmp) / "templates"
        templates.mkdir(exist_ok=True)
        game = launch_xbomb(vd, 16, 16, 40)
        game.move(120, 90)
        time.sleep(0.5)
        if args.templates is None:
            cal = sweepbot(vd.display, templates, ["calibrate", "--name", "xbomb",
                                                   "--restart-key", "s", "--mines", "40",
                                                   "--want", "0-6", "--time-limit", "90"], 240)
            print(cal.stdout[-400:], cal.stderr[-400:])
            if cal.returncode:
                return cal.returncode
        delay = f"inject=openat:delay_enter={int(args.delay_ms * 1000)}"
        strace = subprocess.Popen(["strace", "-qq", "-e", "trace=openat", "-e", delay,
                                   "-p", str(game.proc.pid), "-o", os.devnull])
        try:
            time.sleep(1.0)
            log = Path(tmp) / "play.jsonl"
            out = sweepbot(vd.display, templates,
                           ["play", "--skin", "xbomb", "--games", str(args.play), "--mines",
                            "40", "--log", str(log), "--bug-dir", str(Path(tmp) / "bugs")],
                           60 + 30 * args.play)
        finally:
            strace.terminate()
            strace.wait()
        print(out.stdout[-600:], out.stderr[-400:])
        games = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
        outcomes = [g["outcome"] for g in games]
        print(json.dumps({"delay_ms": args.delay_ms, "games": len(games),
                          "won": outcomes.count("won"), "lost": outcomes.count("lost"),
                          "aborted": outcomes.count("aborted"),
                          "reasons": [g["reason"][:80] for g in games if g["reason"]]}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
