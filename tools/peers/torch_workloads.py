#!/usr/bin/env python3
"""The reference workloads (docs/workloads.md) in PyTorch, measured the way `brisk train` measures them,
so the two can be run side by side on one machine. Prints one RESULT line in Brisk's format.

    python3 tools/peers/torch_workloads.py --workload w1 --threads 2 --epochs 2

samples_per_s is over the last epoch (the first is a warm-up when epochs >= 2), data batching included;
cpu_util = process CPU time / wall time over that epoch; peak_rss_mb from ru_maxrss.
"""
import argparse
import gzip
import os
import resource
import time

import numpy as np
import torch

DATA = "/usr/share/datasets/fashion-mnist/"


def idx(path):
    with gzip.open(path) as f:
        d = f.read()
    rank = d[3]
    dims = [int.from_bytes(d[4 + 4 * i:8 + 4 * i], "big") for i in range(rank)]
    return np.frombuffer(d, dtype=np.uint8, offset=4 + 4 * rank).reshape(dims)


def model(workload):
    nn = torch.nn
    if workload == "w1":
        layers = [nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10)]
    else:
        layers = [nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(), nn.MaxPool2d(2),
                  nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10)]
    m = nn.Sequential(*layers)
    for layer in m:  # Keras defaults: Glorot-uniform kernels, zero biases
        if isinstance(layer, (nn.Linear, nn.Conv2d)):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
    return m


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workload", choices=["w1", "w2"], required=True)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    a = p.parse_args()
    epochs = a.epochs or (5 if a.workload == "w1" else 3)
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    xtr = torch.tensor(idx(DATA + "train-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    ytr = torch.tensor(idx(DATA + "train-labels-idx1-ubyte.gz").astype(np.int64))
    xte = torch.tensor(idx(DATA + "t10k-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    yte = torch.tensor(idx(DATA + "t10k-labels-idx1-ubyte.gz").astype(np.int64))
    m = model(a.workload)
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, eps=1e-7)
    n = xtr.shape[0]
    rate = cpu = 0.0
    for epoch in range(epochs):
        w0, c0 = time.perf_counter(), time.process_time()
        perm = torch.randperm(n)
        for i in range(0, n, 128):
            b = perm[i:i + 128]
            loss = torch.nn.functional.cross_entropy(m(xtr[b]), ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        wall, used = time.perf_counter() - w0, time.process_time() - c0
        rate, cpu = n / wall, used / wall
        print(f"epoch {epoch + 1}/{epochs}: loss {loss.item():.4f}, {rate:.0f} samples/s, cpu {cpu:.2f}", flush=True)
    with torch.no_grad():
        acc = sum((m(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item()
                  for i in range(0, xte.shape[0], 1000)) / xte.shape[0]
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"RESULT framework=pytorch-{torch.__version__} mode=eager workload={a.workload} threads={a.threads} "
          f"samples_per_s={rate:.0f} cpu_util={cpu:.2f} test_acc={acc:.4f} epochs={epochs} peak_rss_mb={rss}")


if __name__ == "__main__":
    main()
