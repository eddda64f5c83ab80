#!/usr/bin/env python3
"""The reference workloads (docs/workloads.md) in PyTorch, measured the way `brisk train` measures them,
so the two can be run side by side on one machine. Prints one RESULT line in Brisk's format.

    python3 tools/peers/torch_workloads.py --workload w1 --threads 2 --epochs 2
    python3 tools/peers/torch_workloads.py --workload z1 --threads 2 --epochs 2   # the model zoo: z1-z4
    python3 tools/peers/torch_workloads.py --workload w3 --threads 2               # LSTM(128) over image rows

The models are the ones of Workloads.java and ZooModels.java in brisk-cli, in NCHW, with Keras' initialisation and
Keras' batch normalization (momentum 0.99, epsilon 1e-3) and "same" padding (for stride 2 the padding row and
column after the image). The classifiers report test_acc; the autoencoder z3 reports test_loss, its binary
cross-entropy on the test set.

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


def keras_init(m):
    """Keras' defaults: Glorot-uniform kernels, zero biases; batch norm gamma 1 and beta 0 (torch's own)."""
    nn = torch.nn
    for layer in m.modules():
        if isinstance(layer, (nn.Linear, nn.Conv2d)):
            nn.init.xavier_uniform_(layer.weight)
            nn.init.zeros_(layer.bias)
    return m


def bn2d(c):
    # Keras BatchNormalization: momentum 0.99 (torch counts the other way: 0.01), epsilon 1e-3.
    return torch.nn.BatchNorm2d(c, eps=1e-3, momentum=0.01)


def bn1d(c):
    return torch.nn.BatchNorm1d(c, eps=1e-3, momentum=0.01)


def conv3x3(cin, cout, stride=1):
    """Conv2D(cout, 3, stride, padding="same") as Keras pads it: for stride 1 one pixel on every side; for stride 2
    on an even input the one padding row and column go after the image (bottom, right), none before."""
    nn = torch.nn
    if stride == 1:
        return nn.Conv2d(cin, cout, 3, padding=1)
    return nn.Sequential(nn.ZeroPad2d((0, 1, 0, 1)), nn.Conv2d(cin, cout, 3, stride=stride))


class ResidualBlock(torch.nn.Module):
    """conv3x3(stride) - BN - relu - conv3x3 - BN, plus the shortcut (a 1x1 conv of the stride with BN where the
    shape changes), then relu: Brisk's ZooModels.residualBlock."""

    def __init__(self, cin, cout, stride):
        super().__init__()
        nn = torch.nn
        self.body = nn.Sequential(conv3x3(cin, cout, stride), bn2d(cout), nn.ReLU(), conv3x3(cout, cout), bn2d(cout))
        self.shortcut = (nn.Sequential(nn.Conv2d(cin, cout, 1, stride=stride), bn2d(cout))
                         if stride != 1 or cin != cout else nn.Identity())

    def forward(self, x):
        return torch.relu(self.body(x) + self.shortcut(x))


def resnet():
    nn = torch.nn
    layers = [conv3x3(1, 16), bn2d(16), nn.ReLU()]
    cin = 16
    for stage, cout in enumerate([16, 32, 64]):
        layers += [ResidualBlock(cin, cout, 1 if stage == 0 else 2), ResidualBlock(cout, cout, 1)]
        cin = cout
    layers += [nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(64, 10)]
    return nn.Sequential(*layers)


def vgg():
    nn = torch.nn
    return nn.Sequential(
        conv3x3(1, 32), bn2d(32), nn.ReLU(), conv3x3(32, 32), bn2d(32), nn.ReLU(), nn.MaxPool2d(2),
        conv3x3(32, 64), bn2d(64), nn.ReLU(), conv3x3(64, 64), bn2d(64), nn.ReLU(), nn.MaxPool2d(2),
        nn.Flatten(), nn.Linear(7 * 7 * 64, 256), nn.ReLU(), nn.Dropout(0.5), nn.Linear(256, 10))


def autoencoder():
    nn = torch.nn
    return nn.Sequential(nn.Flatten(), nn.Linear(784, 256), nn.ReLU(), nn.Linear(256, 64), nn.ReLU(),
                         nn.Linear(64, 256), nn.ReLU(), nn.Linear(256, 784), nn.Sigmoid())


def wide_mlp():
    nn = torch.nn
    layers = [nn.Flatten()]
    width = 784
    for _ in range(4):
        layers += [nn.Linear(width, 1024), bn1d(1024), nn.ReLU(), nn.Dropout(0.2)]
        width = 1024
    return nn.Sequential(*layers, nn.Linear(1024, 10))


class RowLstm(torch.nn.Module):
    """W3: an image as 28 steps of 28 pixels, LSTM(128), its last hidden state, Linear(128, 10); Keras' LSTM
    initialisation: Glorot-uniform input kernel, orthogonal recurrent kernel (per Keras' whole [units, 4 units]
    matrix, i.e. torch's [4 units, units] weight), forget-gate bias 1 (torch's two biases sum to Keras' one)."""

    def __init__(self):
        super().__init__()
        nn = torch.nn
        self.lstm = nn.LSTM(28, 128, batch_first=True)
        self.fc = nn.Linear(128, 10)
        nn.init.xavier_uniform_(self.lstm.weight_ih_l0)
        nn.init.orthogonal_(self.lstm.weight_hh_l0)
        nn.init.zeros_(self.lstm.bias_ih_l0)
        nn.init.zeros_(self.lstm.bias_hh_l0)
        with torch.no_grad():
            self.lstm.bias_ih_l0[128:256] = 1.0  # torch's gate order i, f, g, o: the second block is the forget gate

    def forward(self, x):
        out, _ = self.lstm(x.reshape(x.shape[0], 28, 28))
        return self.fc(out[:, -1])


def model(workload):
    nn = torch.nn
    if workload == "w1":
        m = nn.Sequential(nn.Flatten(), nn.Linear(784, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                          nn.Linear(512, 10))
    elif workload == "w2":
        m = nn.Sequential(nn.Conv2d(1, 32, 3), nn.ReLU(), nn.MaxPool2d(2), nn.Conv2d(32, 64, 3), nn.ReLU(),
                          nn.MaxPool2d(2), nn.Flatten(), nn.Linear(1600, 128), nn.ReLU(), nn.Linear(128, 10))
    elif workload == "w3":
        return keras_init(RowLstm())
    else:
        m = {"z1": resnet, "z2": vgg, "z3": autoencoder, "z4": wide_mlp}[workload]()
    return keras_init(m)


# Epochs of a reference run, as Workloads.java defines them.
DEFAULT_EPOCHS = {"w1": 5, "w2": 3, "z1": 2, "z2": 2, "z3": 5, "z4": 5, "w3": 3}
# The autoencoder reconstructs its input: binary cross-entropy against the flattened pixels, no accuracy.
RECONSTRUCTION = {"z3"}


def loss_of(workload, out, x, y):
    if workload in RECONSTRUCTION:
        return torch.nn.functional.binary_cross_entropy(out, x.flatten(1))
    return torch.nn.functional.cross_entropy(out, y)


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workload", choices=sorted(DEFAULT_EPOCHS), required=True)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=int, default=None, help="train on the first N samples only (quick checks)")
    p.add_argument("--data", default=DATA, help="directory of the four Fashion-MNIST IDX files")
    a = p.parse_args()
    data = os.path.join(a.data, "")
    epochs = a.epochs or DEFAULT_EPOCHS[a.workload]
    torch.set_num_threads(a.threads)
    torch.manual_seed(a.seed)
    xtr = torch.tensor(idx(data + "train-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    ytr = torch.tensor(idx(data + "train-labels-idx1-ubyte.gz").astype(np.int64))
    xte = torch.tensor(idx(data + "t10k-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    yte = torch.tensor(idx(data + "t10k-labels-idx1-ubyte.gz").astype(np.int64))
    if a.limit:
        xtr, ytr = xtr[:a.limit], ytr[:a.limit]
    m = model(a.workload)
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, eps=1e-7)
    n = xtr.shape[0]
    rate = cpu = 0.0
    for epoch in range(epochs):
        m.train()
        w0, c0 = time.perf_counter(), time.process_time()
        perm = torch.randperm(n)
        for i in range(0, n, 128):
            b = perm[i:i + 128]
            loss = loss_of(a.workload, m(xtr[b]), xtr[b], ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
        wall, used = time.perf_counter() - w0, time.process_time() - c0
        rate, cpu = n / wall, used / wall
        print(f"epoch {epoch + 1}/{epochs}: loss {loss.item():.4f}, {rate:.0f} samples/s, cpu {cpu:.2f}", flush=True)
    m.eval()  # dropout off, batch normalization from its moving statistics
    with torch.no_grad():
        if a.workload in RECONSTRUCTION:
            total = sum(loss_of(a.workload, m(xte[i:i + 1000]), xte[i:i + 1000], None).item() * len(xte[i:i + 1000])
                        for i in range(0, xte.shape[0], 1000))
            test = f"test_loss={total / xte.shape[0]:.4f}"
        else:
            acc = sum((m(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item()
                      for i in range(0, xte.shape[0], 1000)) / xte.shape[0]
            test = f"test_acc={acc:.4f}"
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"RESULT framework=pytorch-{torch.__version__} mode=eager workload={a.workload} threads={a.threads} "
          f"samples_per_s={rate:.0f} cpu_util={cpu:.2f} {test} epochs={epochs} peak_rss_mb={rss}")


if __name__ == "__main__":
    main()
