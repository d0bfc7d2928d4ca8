"""The ``sweepbot`` command: one subcommand per module ``bot.cmd_<name>``.

Each command module defines ``HELP`` (one line), ``configure(parser)`` and
``run(args) -> int``. Modules are imported only when their command is named, so
``sweepbot bench`` never loads the screen or mouse libraries.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = {
    "bench": "simulate games and measure win rate and speed",
    "replay": "read saved screenshots and print their boards",
    "play": "play a Minesweeper window on the screen",
    "demo": "play the built-in Minesweeper window (starts a virtual display if needed)",
    "calibrate": "learn a new skin from the screen or from screenshots",
}


def build_parser(command: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sweepbot", description="A bot that plays real Minesweeper windows."
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, help_text in COMMANDS.items():
        p = sub.add_parser(name, help=help_text, description=help_text)
        if name == command:
            importlib.import_module(f"bot.cmd_{name}").configure(p)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in args_list if a in COMMANDS), None)
    args = build_parser(command).parse_args(args_list)
    module = importlib.import_module(f"bot.cmd_{args.command}")
    try:
        return int(module.run(args))
    except KeyboardInterrupt:
        print("sweepbot: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
