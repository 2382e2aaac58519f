"""Measures onnxruntime on one thread, to compare with the Go encoder's
BenchmarkModel_EmbedIDs: tokens per CPU-second at 16, 64, 128 and 256
tokens, one sequence at a time.

    venv/bin/python ortbench.py MODEL.onnx
"""

import sys
import time

import numpy as np
import onnxruntime as ort


def main():
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = 1
    opts.inter_op_num_threads = 1
    sess = ort.InferenceSession(sys.argv[1], opts, providers=["CPUExecutionProvider"])
    for n in (16, 64, 128, 256):
        ids = np.full((1, n), 1996, dtype=np.int64)
        ids[0, 0], ids[0, -1] = 101, 102
        feeds = {"input_ids": ids, "attention_mask": np.ones_like(ids), "token_type_ids": np.zeros_like(ids)}
        sess.run(None, feeds)
        runs, start = 0, time.process_time()
        while time.process_time() - start < 3:
            sess.run(None, feeds)
            runs += 1
        cpu = time.process_time() - start
        print(f"{sys.argv[1]} {n} tokens: {n * runs / cpu:.0f} tokens/cpu-s")


if __name__ == "__main__":
    main()
