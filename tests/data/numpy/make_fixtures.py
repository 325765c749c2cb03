#!/usr/bin/python3
"""Writes the NumPy fixtures of tests/data/test_data_numpy.cpp with NumPy itself (Debian's
python3-numpy 1.24), so that ppl's reader is tested against the files numpy writes, not
against its own writer. Run from this folder; the test states the same values."""
import numpy as np

arrays = dict(
    count=np.array([3, 0, 7, 12], dtype=np.int32),
    big=np.array([-2**40, 5], dtype=np.int64),
    small=np.array([-3, 100], dtype=np.int8),
    unsigned=np.array([65535, 1], dtype=np.uint16),
    flag=np.array([True, False, True]),
    x=np.array([0.5, -1.25, np.nan], dtype=np.float64),
    single=np.array([1.5, 2.25], dtype=np.float32),
    X=np.arange(6, dtype=np.float64).reshape(2, 3) / 4,
    F=np.asfortranarray(np.arange(6, dtype=np.float64).reshape(2, 3)),
    cube=np.arange(24, dtype=np.int64).reshape(2, 3, 4),
    N=np.array(30),
    **{"log.dose": np.array([1.0, 2.0])},
)
np.savez("arrays.npz", **arrays)
np.savez_compressed("compressed.npz", **arrays)
np.save("rating.npy", np.array([[1.0, 2.0], [3.0, 4.5]]))
np.save("complex.npy", np.array([1 + 2j]))
np.save("big_endian.npy", np.array([1.0, 2.0], dtype=">f8"))
np.save("structured.npy", np.zeros(2, dtype=[("a", "<f8"), ("b", "<i4")]))
np.save("infinite.npy", np.array([1.0, np.inf]))
