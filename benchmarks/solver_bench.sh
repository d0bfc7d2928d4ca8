#!/usr/bin/env bash
# The solver figures of docs/benchmarks.md ("Solver" section): the exact strategy on the
# three presets with the safe first click, and expert with the opening first click.
#   benchmarks/solver_bench.sh [GAMES] [WORKERS]     (defaults: 20000 games, 2 workers)
# Prints one JSON line per run (keys: size, rule, strategy, games, wins, win_rate, ci95,
# games_per_s, solve_ms_median, solve_ms_p99, cpu_ms_median, cpu_ms_p99, games_per_cpu_s).
set -euo pipefail
cd "$(dirname "$0")/.."
GAMES=${1:-20000}
WORKERS=${2:-2}
PY=${PYTHON:-python3}
[ -x .venv/bin/python ] && PY=.venv/bin/python
for run in "expert safe" "expert opening" "intermediate safe" "beginner safe"; do
  set -- $run
  "$PY" -m bot.cli bench --size "$1" --rule "$2" --games "$GAMES" --strategy exact \
    --workers "$WORKERS" --seed 1 --json
done
