"""sweepbot's hands: the only package that touches the real screen and mouse."""

import os

# The loop's matrices are small: BLAS threads only add contention (a board read took
# 28 ms with OpenBLAS threads and 7 ms without on a loaded 2-core machine). This must
# run before numpy is first imported, so it lives at the top of the package.
for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
