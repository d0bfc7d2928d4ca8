"""sweepbot's hands: the only package that touches the real screen and mouse.

Importing it puts numpy's BLAS on one thread: the loop's matrices are small, and BLAS
threads only spin and contend with the game and the X server (a 30x16 board read took
28 ms with OpenBLAS threads and 7 ms without on a loaded 2-core machine; 9-11 ms against
2.3 ms in ``benchmarks/vision_bench.py`` at load 6). The environment variables work when
numpy is not loaded yet; when it is (a script that imported it first), threadpoolctl
sets the loaded library instead. A thread count already in the environment is kept.
OpenCV keeps its threads: its blur and remap of a large board split well over two idle
cores (1430x700 gnome-mines read 1.0 ms against 4.7 ms on one thread at load 0.5).
"""

import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")


def limit_loaded_threads() -> None:
    """Set an already loaded numpy's BLAS to the thread count above."""
    if "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]), user_api="blas")


limit_loaded_threads()
