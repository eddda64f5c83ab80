#!/usr/bin/env python3
"""Where a trained Z1 loses test accuracy: batch normalization's moving statistics against its batch statistics.

    python3 tools/peers/z1_batchnorm_check.py z1.keras   # Brisk's model: ./brisk train --workload z1 --save z1.keras
    python3 tools/peers/z1_batchnorm_check.py z1.pt      # the twin's: torch_workloads.py --workload z1 --save z1.pt

Brisk's weights are loaded into the twin's network (tools/peers/torch_workloads.py: kernels [kh, kw, in, out] to
torch's [out, in, kh, kw], Dense transposed, the layers matched in the order Brisk created them), so line (a) must
repeat the `test_acc` of Brisk's own run: that checks the loading, the padding and the inference path at once. Prints
(a) the test accuracy with the moving statistics (inference, as both frameworks report it), (b) with each batch's own
statistics (training-mode normalization in batches of 128 in file order, moving statistics left alone), (c) the
accuracy on the first 20,000 training images with the moving statistics; then, for each BatchNormalization layer in
order, its moving statistics against the statistics of its input over the first 4,096 training images with the
final weights: "train chain", the mean over batches of 128 of the batch mean and biased batch variance (what the
moving averages follow, every earlier layer normalizing with batch statistics), and "eval chain", the statistics of
the input when every earlier layer uses its moving statistics (what inference sees). |z| is
|moving mean - mean| / sqrt(variance + epsilon) over the channels (median / max), ratio is moving variance /
variance (median [min, max]); the last column is the largest |bias| of the convolution before the layer.
"""
import copy
import io
import json
import os
import re
import sys
import zipfile

import numpy as np
import torch

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import torch_workloads as tw  # noqa: E402

EPSILON = 1e-3
BATCH = 128


def snake(class_name):
    """Keras' to_snake_case, the key of a layer's weights in model.weights.h5 ("Conv2D" -> "conv2d")."""
    s = re.sub("(.)([A-Z][a-z]+)", r"\1_\2", class_name)
    return re.sub("([a-z])([A-Z])", r"\1_\2", s).lower()


def creation_order(name):
    """A layer's place among its kind: Brisk names them conv2d, conv2d_1, ... as it creates them."""
    head, _, tail = name.rpartition("_")
    return int(tail) if head and tail.isdigit() else 0


def load_keras(m, path):
    """Copies a Brisk/Keras .keras file's Z1 weights into the twin's network m."""
    import h5py
    archive = zipfile.ZipFile(path)
    layers = json.loads(archive.read("config.json"))["config"]["layers"]
    weights = h5py.File(io.BytesIO(archive.read("model.weights.h5")), "r")
    used, by_kind = {}, {}
    for layer in layers:  # the h5 keys are numbered per kind in the config's layer order
        key = snake(layer["class_name"])
        n = used.get(key, 0)
        used[key] = n + 1
        group = weights["layers/" + (key if n == 0 else f"{key}_{n}")]["vars"]
        if len(group):
            by_kind.setdefault(layer["class_name"], []).append(
                (creation_order(layer["config"]["name"]), [np.array(group[str(i)]) for i in range(len(group))]))
    modules = {kind: [x for x in m.modules() if isinstance(x, cls)] for kind, cls in
               (("Conv2D", torch.nn.Conv2d), ("BatchNormalization", torch.nn.BatchNorm2d), ("Dense", torch.nn.Linear))}
    with torch.no_grad():
        for kind, targets in modules.items():
            found = [w for _, w in sorted(by_kind.get(kind, []), key=lambda e: e[0])]
            if len(found) != len(targets):
                raise SystemExit(f"{path}: {len(found)} {kind} layers with weights, the twin's Z1 has {len(targets)}")
            for t, w in zip(targets, found):
                if kind == "Conv2D":
                    t.weight.copy_(torch.tensor(w[0]).permute(3, 2, 0, 1))
                    t.bias.copy_(torch.tensor(w[1]))
                elif kind == "Dense":
                    t.weight.copy_(torch.tensor(w[0]).T)
                    t.bias.copy_(torch.tensor(w[1]))
                else:
                    for v, value in zip((t.weight, t.bias, t.running_mean, t.running_var), w):
                        v.copy_(torch.tensor(value))


def accuracy(m, x, y, batch):
    with torch.no_grad():
        return sum((m(x[i:i + batch]).argmax(1) == y[i:i + batch]).sum().item()
                   for i in range(0, len(x), batch)) / len(x)


def input_statistics(model, images, train_chain):
    """Per BN layer, the (mean, variance) per channel of its input over images, fed in batches of 128."""
    layers = [x for x in model.modules() if isinstance(x, torch.nn.BatchNorm2d)]
    seen = [[] for _ in layers]
    hooks = [b.register_forward_hook(lambda mod, inp, out, i=i: seen[i].append(inp[0].detach()))
             for i, b in enumerate(layers)]
    with torch.no_grad():
        for i in range(0, len(images), BATCH):
            model(images[i:i + BATCH])
    for h in hooks:
        h.remove()
    out = []
    for batches in seen:
        if train_chain:
            out.append((torch.stack([t.mean((0, 2, 3)) for t in batches]).mean(0),
                        torch.stack([t.var((0, 2, 3), unbiased=False) for t in batches]).mean(0)))
        else:
            t = torch.cat(batches).double()
            out.append((t.mean((0, 2, 3)).float(), t.var((0, 2, 3), unbiased=False).float()))
    return out


def main():
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    torch.set_num_threads(2)
    path = sys.argv[1]
    m = tw.resnet()
    if path.endswith(".keras"):
        load_keras(m, path)
    else:
        m.load_state_dict(torch.load(path))
    data = tw.DATA
    xtr = torch.tensor(tw.idx(data + "train-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    ytr = torch.tensor(tw.idx(data + "train-labels-idx1-ubyte.gz").astype(np.int64))
    xte = torch.tensor(tw.idx(data + "t10k-images-idx3-ubyte.gz") / 255.0, dtype=torch.float32).unsqueeze(1)
    yte = torch.tensor(tw.idx(data + "t10k-labels-idx1-ubyte.gz").astype(np.int64))
    m.eval()
    batch_stats = copy.deepcopy(m).train()
    for bn in batch_stats.modules():
        if isinstance(bn, torch.nn.BatchNorm2d):
            bn.momentum = 0.0  # normalize with the batch's statistics, leave the running ones as they are
    print(f"(a) test, moving statistics: {accuracy(m, xte, yte, 1000):.4f}")
    print(f"(b) test, batch statistics (batches of {BATCH}): {accuracy(batch_stats, xte, yte, BATCH):.4f}")
    print(f"(c) first 20,000 training images, moving statistics: {accuracy(m, xtr[:20000], ytr[:20000], 1000):.4f}")
    sample = xtr[:4096]
    train_chain = input_statistics(batch_stats, sample, True)
    eval_chain = input_statistics(m, sample, False)
    convs = [x for x in m.modules() if isinstance(x, torch.nn.Conv2d)]
    bns = [x for x in m.modules() if isinstance(x, torch.nn.BatchNorm2d)]
    print("BN  ch | train chain: |z| med/max, var ratio med [min,max] | eval chain: the same | max |conv bias|")
    for i, bn in enumerate(bns):
        row = f"{i:2d} {len(bn.running_mean):3d} "
        for mean, var in (train_chain[i], eval_chain[i]):
            z = ((bn.running_mean - mean) / torch.sqrt(var + EPSILON)).abs()
            r = bn.running_var / var
            row += f"| {z.median():.3f}/{z.max():.3f}  {r.median():.3f} [{r.min():.3f},{r.max():.3f}] "
        print(row + f"| {convs[i].bias.abs().max():.4f}")


if __name__ == "__main__":
    main()
