"""sweepbot's hands: the only package that touches the real screen and mouse.

Importing it puts numpy's BLAS and OpenCV on one thread each: the loop's matrices and
images are small, and worker threads only add contention with the game and the X server
(a 30x16 board read took 28 ms with OpenBLAS threads and 7 ms without on a loaded 2-core
machine; 9-11 ms against 2.3 ms in ``benchmarks/vision_bench.py`` at load 6). The
environment variables work when numpy and OpenCV are not loaded yet; when they are (a
script that imported them first), the loaded libraries are set instead (threadpoolctl
for BLAS). A thread count already in the environment is kept.
"""

import os
import sys

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS",
             "OPENCV_FOR_THREADS_NUM"):
    os.environ.setdefault(_var, "1")


def limit_loaded_threads() -> None:
    """Set already loaded numpy (BLAS) and OpenCV to the thread counts above."""
    if "numpy" in sys.modules:
        from threadpoolctl import threadpool_limits

        threadpool_limits(int(os.environ["OPENBLAS_NUM_THREADS"]), user_api="blas")
    if "cv2" in sys.modules:
        sys.modules["cv2"].setNumThreads(int(os.environ["OPENCV_FOR_THREADS_NUM"]))


limit_loaded_threads()
