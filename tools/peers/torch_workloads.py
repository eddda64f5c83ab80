#!/usr/bin/env python3
"""The reference workloads (docs/workloads.md) in PyTorch, measured the way `brisk train` measures them,
so the two can be run side by side on one machine. Prints one RESULT line in Brisk's format.

    python3 tools/peers/torch_workloads.py --workload w1 --threads 2 --epochs 2
    python3 tools/peers/torch_workloads.py --workload z1 --threads 2 --epochs 2   # the model zoo: z1-z4
    python3 tools/peers/torch_workloads.py --workload w3 --threads 2               # LSTM(128) over image rows
    python3 tools/peers/torch_workloads.py --workload w4 --threads 2               # character transformer LM
    python3 tools/peers/torch_workloads.py --workload w4-gru --threads 2           # its GRU(256) variant

The models are the ones of Workloads.java and ZooModels.java in brisk-cli, in NCHW, with Keras' initialisation and
Keras' batch normalization (momentum 0.99, epsilon 1e-3) and "same" padding (for stride 2 the padding row and
column after the image). The classifiers report test_acc; the autoencoder z3 reports test_loss, its binary
cross-entropy on the test set. The language models w4 and w4-gru (LanguageModels.java) train on the fortunes text
as Brisk does (the same files in the same order, the same vocabulary and ids, windows and held-out tail) and report
test_loss, the held-out cross-entropy in nats, then tokens_per_s and bits_per_char.

samples_per_s is over the last epoch (the first is a warm-up when epochs >= 2), data batching included;
cpu_util = process CPU time / wall time over that epoch; peak_rss_mb from ru_maxrss.
--threads N gives N threads to the native pool that runs the workload's products and 1 to the other (see
PRODUCTS_ON_BLAS); OMP_NUM_THREADS / OPENBLAS_NUM_THREADS in the environment override that.
"""
import argparse
import ctypes
import gzip
import math
import os
import resource
import time

# Which native pool runs each workload's products in Debian's torch: OpenBLAS's pthread pool for the dense and
# recurrent models (addmm, the LSTM/GRU cells, attention's matmuls), oneDNN on torch's OpenMP pool for the
# convolutions. The two pools do not share: each spins for work while the other runs, so the twin gives --threads
# to the pool that runs the products and one thread to the other (measured on 2 cores at --limit 6400, samples/s
# with OpenMP/OpenBLAS threads 2/1, 1/2, 2/2: W1 18.5k / 23.0k / 8.1k, W3 4.0k / 4.6k / 1.1k, W2 3.4k / 2.0k / 2.8k,
# Z1 902 / 455 / 791; docs/benchmark-log.md).
PRODUCTS_ON_BLAS = {"w1", "w3", "w4", "w4-gru", "z3", "z4"}


def _pool_sizes(argv):
    """(torch's OpenMP op pool, OpenBLAS's pool) for the --threads (default: every core) and --workload in argv:
    --threads for the pool that runs the workload's products, 1 for the other."""
    def option(name):
        for i, arg in enumerate(argv):
            if arg.startswith(name + "="):
                return arg.split("=", 1)[1]
            if arg == name and i + 1 < len(argv):
                return argv[i + 1]
        return None
    threads, workload = option("--threads") or str(os.cpu_count()), option("--workload")
    return ("1", threads) if workload in PRODUCTS_ON_BLAS else (threads, "1")


def _size_native_pools():
    """Sizes OpenBLAS's pool before numpy or torch loads it (it is sized once, when the library loads; numpy loads it
    too). Without this, --threads 1 ran its products on every core and --threads 2 had two pools of two threads
    fighting over two cores. A size already in the environment wins."""
    import sys
    os.environ.setdefault("OPENBLAS_NUM_THREADS", _pool_sizes(sys.argv)[1])


def op_threads(a):
    """Threads for torch's own (OpenMP) op pool: see PRODUCTS_ON_BLAS; OMP_NUM_THREADS in the environment wins."""
    if "OMP_NUM_THREADS" in os.environ:
        return int(os.environ["OMP_NUM_THREADS"])
    return 1 if a.workload in PRODUCTS_ON_BLAS else a.threads


_size_native_pools()
import numpy as np  # noqa: E402  (numpy loads OpenBLAS too: after the pools are sized)
import torch  # noqa: E402

DATA = "/usr/share/datasets/fashion-mnist/"
FORTUNES = "/usr/share/games/fortunes"
# W4, as Workloads.java defines it: windows of 128 characters, 64 a batch, training windows every 64 characters.
WINDOW = 128
TEXT_BATCH = 64
TRAIN_STRIDE = 64


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


def fortunes_text(directory):
    """Fortunes.load: the regular files of the directory but the .dat indexes and .u8 links, in name order, as
    UTF-8 text, kept byte for byte (newline="" keeps any carriage return, as Java does)."""
    names = sorted(f for f in os.listdir(directory)
                   if os.path.isfile(os.path.join(directory, f)) and not os.path.islink(os.path.join(directory, f))
                   and not f.endswith(".dat") and not f.endswith(".u8"))
    if not names:
        raise SystemExit(f"no fortune files in {directory}; apt-get install fortunes")
    text = []
    for f in names:
        with open(os.path.join(directory, f), encoding="utf-8", newline="") as fh:
            text.append(fh.read())
    return "".join(text)


def character_corpus(text):
    """CharacterCorpus.of: the last 10% of the characters held out; Vocabulary.ofCharacters of the training part
    (0 padding, 1 OOV, then the characters by falling count, ties in falling code point order, as Keras'
    StringLookup.adapt breaks them)."""
    cut = len(text) * 90 // 100
    counts = {}
    for ch in text[:cut]:
        counts[ch] = counts.get(ch, 0) + 1
    ids = {ch: i + 2 for i, ch in enumerate(sorted(counts, key=lambda ch: (-counts[ch], -ord(ch))))}
    encoded = torch.tensor([ids.get(ch, 1) for ch in text], dtype=torch.int64)
    return len(ids) + 2, encoded[:cut], encoded[cut:]


def windows(tokens, stride):
    """TokenWindows: inputs tokens[s:s+128] and targets tokens[s+1:s+129] for s = 0, stride, ..."""
    count = (len(tokens) - WINDOW - 1) // stride + 1 if len(tokens) > WINDOW else 0
    starts = torch.arange(count) * stride
    index = starts[:, None] + torch.arange(WINDOW)[None, :]
    return tokens[index], tokens[index + 1]


def keras_uniform(weight, fan_in, fan_out):
    limit = (6.0 / (fan_in + fan_out)) ** 0.5
    torch.nn.init.uniform_(weight, -limit, limit)


class KerasAttention(torch.nn.Module):
    """Keras 3's MultiHeadAttention (Brisk's layer) as self-attention with the causal mask: query, key and value
    projections with biases, the query scaled by 1/sqrt(key_dim), -1e9 added to masked scores, softmax, the heads
    projected back. Kernels Glorot-uniform with Keras' fans of its rank-3 kernels ([d, heads, key_dim]: fan_in
    d * heads, fan_out d * key_dim; output [heads, key_dim, d]: heads * key_dim and heads * d), biases zero."""

    def __init__(self, width, heads, key_dim):
        super().__init__()
        nn = torch.nn
        self.heads, self.key_dim = heads, key_dim
        self.q, self.k, self.v = (nn.Linear(width, heads * key_dim) for _ in range(3))
        self.o = nn.Linear(heads * key_dim, width)
        for proj in (self.q, self.k, self.v):
            keras_uniform(proj.weight, width * heads, width * key_dim)
            nn.init.zeros_(proj.bias)
        keras_uniform(self.o.weight, heads * key_dim, heads * width)
        nn.init.zeros_(self.o.bias)
        self.register_buffer("mask", torch.triu(torch.full((WINDOW, WINDOW), -1e9), diagonal=1))

    def forward(self, x):
        b, t, _ = x.shape

        def split(y):
            return y.view(b, t, self.heads, self.key_dim).transpose(1, 2)

        q = split(self.q(x) * (1.0 / self.key_dim ** 0.5))
        scores = q @ split(self.k(x)).transpose(-1, -2) + self.mask[:t, :t]
        attended = torch.softmax(scores, dim=-1) @ split(self.v(x))
        return self.o(attended.transpose(1, 2).reshape(b, t, self.heads * self.key_dim))


class TransformerLM(torch.nn.Module):
    """W4 (LanguageModels.transformer): token embedding plus an embedding of the positions, two pre-norm blocks
    x + MHA(LN(x)), x + Dense(128)(gelu(Dense(512)(LN(x)))), a last LayerNorm, Linear(vocabulary). Keras' epsilon
    1e-3 for LayerNorm, exact (erf) gelu, embeddings uniform in [-0.05, 0.05], Dense kernels Glorot-uniform."""

    def __init__(self, vocabulary):
        super().__init__()
        nn = torch.nn
        self.tokens = nn.Embedding(vocabulary, 128)
        self.positions = nn.Embedding(WINDOW, 128)
        for e in (self.tokens, self.positions):
            nn.init.uniform_(e.weight, -0.05, 0.05)
        self.blocks = nn.ModuleList()
        for _ in range(2):
            ff = nn.Sequential(nn.Linear(128, 512), nn.GELU(), nn.Linear(512, 128))
            keras_init(ff)
            self.blocks.append(nn.ModuleList([nn.LayerNorm(128, eps=1e-3), KerasAttention(128, 4, 32),
                                              nn.LayerNorm(128, eps=1e-3), ff]))
        self.norm = nn.LayerNorm(128, eps=1e-3)
        self.out = keras_init(nn.Linear(128, vocabulary))

    def forward(self, ids):
        x = self.tokens(ids) + self.positions(torch.arange(ids.shape[1]))
        for ln1, attention, ln2, ff in self.blocks:
            x = x + attention(ln1(x))
            x = x + ff(ln2(x))
        return self.out(self.norm(x))


class GruLM(torch.nn.Module):
    """W4's GRU variant (LanguageModels.gru): embedding, GRU(256) at every step (torch's GRU is Keras'
    reset_after=True form), Linear(vocabulary). Keras' GRU initialisation: Glorot-uniform input kernel (Keras'
    [128, 768] and torch's [768, 128] have the same fans), orthogonal recurrent kernel, zero biases."""

    def __init__(self, vocabulary):
        super().__init__()
        nn = torch.nn
        self.tokens = nn.Embedding(vocabulary, 128)
        nn.init.uniform_(self.tokens.weight, -0.05, 0.05)
        self.gru = nn.GRU(128, 256, batch_first=True)
        nn.init.xavier_uniform_(self.gru.weight_ih_l0)
        nn.init.orthogonal_(self.gru.weight_hh_l0)
        nn.init.zeros_(self.gru.bias_ih_l0)
        nn.init.zeros_(self.gru.bias_hh_l0)
        self.out = keras_init(nn.Linear(256, vocabulary))

    def forward(self, ids):
        states, _ = self.gru(self.tokens(ids))
        return self.out(states)


def text_main(a):
    """W4 and W4-GRU: train on the fortunes text, report the held-out bits per character and tokens/s."""
    epochs = a.epochs or DEFAULT_EPOCHS[a.workload]
    torch.set_num_threads(op_threads(a))
    torch.manual_seed(a.seed)
    vocabulary, train, held_out = character_corpus(fortunes_text(a.text))
    xtr, ytr = windows(train, a.window_stride)
    xte, yte = windows(held_out, WINDOW)
    if a.limit:
        xtr, ytr = xtr[:a.limit], ytr[:a.limit]
    m = TransformerLM(vocabulary) if a.workload == "w4" else GruLM(vocabulary)
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, eps=1e-7)
    n = xtr.shape[0]
    print(f"{a.workload}: {n} training windows (stride {a.window_stride}), {xte.shape[0]} held-out windows, "
          f"{vocabulary} ids", flush=True)

    def held_out_loss():
        m.eval()
        with torch.no_grad():
            total = sum(torch.nn.functional.cross_entropy(m(xte[i:i + TEXT_BATCH]).reshape(-1, vocabulary),
                                                          yte[i:i + TEXT_BATCH].reshape(-1), reduction="sum").item()
                        for i in range(0, xte.shape[0], TEXT_BATCH))
        m.train()
        return total / yte.numel()

    rate = cpu = 0.0
    for epoch in range(epochs):
        m.train()
        w0, c0 = time.perf_counter(), time.process_time()
        perm = torch.randperm(n)
        for i in range(0, n, TEXT_BATCH):
            b = perm[i:i + TEXT_BATCH]
            loss = torch.nn.functional.cross_entropy(m(xtr[b]).reshape(-1, vocabulary), ytr[b].reshape(-1))
            opt.zero_grad()
            loss.backward()
            opt.step()
        wall, used = time.perf_counter() - w0, time.process_time() - c0
        rate, cpu = n / wall, used / wall
        print(f"epoch {epoch + 1}/{epochs}: loss {loss.item():.4f}, held-out {held_out_loss() / math.log(2):.4f}"
              f" bits/char, {rate * WINDOW:.0f} tokens/s, cpu {cpu:.2f}", flush=True)
    test = held_out_loss()
    if a.save:
        torch.save(m.state_dict(), a.save)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"RESULT framework=pytorch-{torch.__version__} mode=eager workload={a.workload} threads={a.threads} "
          f"samples_per_s={rate:.0f} cpu_util={cpu:.2f} test_loss={test:.4f} epochs={epochs} peak_rss_mb={rss} "
          f"tokens_per_s={rate * WINDOW:.0f} bits_per_char={test / math.log(2):.4f}")


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
DEFAULT_EPOCHS = {"w1": 5, "w2": 3, "z1": 2, "z2": 2, "z3": 5, "z4": 5, "w3": 3, "w4": 4, "w4-gru": 4}
# The autoencoder reconstructs its input: binary cross-entropy against the flattened pixels, no accuracy.
RECONSTRUCTION = {"z3"}


def loss_of(workload, out, x, y):
    if workload in RECONSTRUCTION:
        return torch.nn.functional.binary_cross_entropy(out, x.flatten(1))
    return torch.nn.functional.cross_entropy(out, y)


def test_figure(a, m, xte, yte):
    """The test set's figure in inference mode (dropout off, batch normalization from its moving statistics):
    "test_loss=..." for the reconstruction workloads, "test_acc=..." for the classifiers."""
    m.eval()
    with torch.no_grad():
        if a.workload in RECONSTRUCTION:
            total = sum(loss_of(a.workload, m(xte[i:i + 1000]), xte[i:i + 1000], None).item() * len(xte[i:i + 1000])
                        for i in range(0, xte.shape[0], 1000))
            return f"test_loss={total / xte.shape[0]:.4f}"
        acc = sum((m(xte[i:i + 1000]).argmax(1) == yte[i:i + 1000]).sum().item()
                  for i in range(0, xte.shape[0], 1000)) / xte.shape[0]
        return f"test_acc={acc:.4f}"


def sgemm_library():
    """The real path of the library whose sgemm_ torch's CPU library calls (dlsym from libtorch_cpu, then dladdr), or
    None where that cannot be told (a torch with its BLAS linked in, no libtorch_cpu.so, no dladdr)."""
    class DlInfo(ctypes.Structure):
        _fields_ = [("dli_fname", ctypes.c_char_p), ("dli_fbase", ctypes.c_void_p),
                    ("dli_sname", ctypes.c_char_p), ("dli_saddr", ctypes.c_void_p)]

    try:
        torch_cpu = ctypes.CDLL(os.path.join(os.path.dirname(torch.__file__), "lib", "libtorch_cpu.so"))
        info = DlInfo()
        if not ctypes.CDLL(None).dladdr(ctypes.cast(torch_cpu.sgemm_, ctypes.c_void_p), ctypes.byref(info)):
            return None
        return os.path.realpath(info.dli_fname.decode())
    except (OSError, AttributeError):
        return None


def openblas_core(library):
    """The kernel set OpenBLAS picked for this CPU ("SkylakeX", "Haswell", "Prescott", ...), or None if the library
    is not OpenBLAS."""
    try:
        name = ctypes.CDLL(library).openblas_get_corename
    except (OSError, AttributeError):
        return None
    name.restype = ctypes.c_char_p
    return name().decode()


def cpu_flags():
    """The first CPU's flags from /proc/cpuinfo (empty where it cannot be read)."""
    try:
        with open("/proc/cpuinfo") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.split(":", 1)[1].split())
    except OSError:
        pass
    return set()


def refuse_untuned_blas(allowed):
    """Debian's torch takes whatever libblas.so.3 the alternatives point at: the reference BLAS (one thread, no
    vector kernels) unless libopenblas0-pthread is installed, and then the dense layers of Z2-Z4 and W1 ran 10-40x
    slower (Z4 at 135 samples/s against 3,274 with OpenBLAS). And OpenBLAS falls back to its SSE3 kernels
    ("Prescott") on a CPU newer than itself (0.3.21 on an Emerald Rapids Xeon: Z4 at 992-1,649 samples/s, about
    half its speed with the AVX-512 kernels). No side-by-side figure should rest on either."""
    if allowed:
        return
    blas = sgemm_library()
    if blas and "/blas/" in blas:  # Debian keeps the reference BLAS in .../blas/, OpenBLAS in .../openblas-*/
        raise SystemExit(f"torch_workloads: torch's sgemm is the reference BLAS ({blas}), not a tuned one: install "
                         "libopenblas0-pthread (Debian) before comparing, or run this script with --allow-untuned-blas")
    core = openblas_core(blas) if blas else None
    flags = cpu_flags()
    better = "SkylakeX" if "avx512f" in flags else "Haswell" if "avx2" in flags else None
    if core in ("Prescott", "Core2", "Penryn", "Nehalem", "Dunnington", "Atom") and better:
        raise SystemExit(f"torch_workloads: OpenBLAS does not know this CPU and runs its {core} kernels: set "
                         f"OPENBLAS_CORETYPE={better} before comparing, or run this script with --allow-untuned-blas")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--workload", choices=sorted(DEFAULT_EPOCHS), required=True)
    p.add_argument("--threads", type=int, default=os.cpu_count())
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--limit", type=int, default=None, help="train on the first N samples only (quick checks)")
    p.add_argument("--data", default=DATA, help="directory of the four Fashion-MNIST IDX files")
    p.add_argument("--text", default=FORTUNES, help="directory of the fortune files (w4, w4-gru)")
    p.add_argument("--window-stride", type=int, default=TRAIN_STRIDE, help="w4: characters between training windows")
    p.add_argument("--test-each-epoch", action="store_true",
                   help="also print the test figure after every epoch but the last (inference mode)")
    p.add_argument("--save", default=None, help="after training, torch.save the model's state_dict to this file")
    p.add_argument("--allow-untuned-blas", action="store_true",
                   help="run even on the reference BLAS or OpenBLAS's generic kernels (figures not worth comparing)")
    a = p.parse_args()
    refuse_untuned_blas(a.allow_untuned_blas)
    if a.workload in ("w4", "w4-gru"):
        text_main(a)
        return
    data = os.path.join(a.data, "")
    epochs = a.epochs or DEFAULT_EPOCHS[a.workload]
    torch.set_num_threads(op_threads(a))
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
        # The epoch's mean loss and accuracy in training mode, over every sample, as Keras' (and Brisk's) epoch
        # logs give them.
        loss_sum = correct = 0.0
        for i in range(0, n, 128):
            b = perm[i:i + 128]
            out = m(xtr[b])
            loss = loss_of(a.workload, out, xtr[b], ytr[b])
            opt.zero_grad()
            loss.backward()
            opt.step()
            loss_sum += loss.item() * len(b)
            if a.workload not in RECONSTRUCTION:
                correct += (out.argmax(1) == ytr[b]).sum().item()
        wall, used = time.perf_counter() - w0, time.process_time() - c0
        rate, cpu = n / wall, used / wall
        accuracy = "" if a.workload in RECONSTRUCTION else f", accuracy {correct / n:.4f}"
        print(f"epoch {epoch + 1}/{epochs}: loss {loss_sum / n:.4f}{accuracy}, last batch {loss.item():.4f},"
              f" {rate:.0f} samples/s, cpu {cpu:.2f}", flush=True)
        if a.test_each_epoch and epoch + 1 < epochs:  # outside the timed window; Brisk logs val_ figures
            print(f"epoch {epoch + 1}/{epochs}: {test_figure(a, m, xte, yte)}", flush=True)
    test = test_figure(a, m, xte, yte)
    if a.save:
        torch.save(m.state_dict(), a.save)
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024
    print(f"RESULT framework=pytorch-{torch.__version__} mode=eager workload={a.workload} threads={a.threads} "
          f"samples_per_s={rate:.0f} cpu_util={cpu:.2f} {test} epochs={epochs} peak_rss_mb={rss}")


if __name__ == "__main__":
    main()
