#!/usr/bin/env python3
"""The ring all-reduce's cost model, as a Markdown table for docs/distributed.md.

time(N) = 2 (N - 1) / N * bytes / bandwidth + 2 (N - 1) * alpha

alpha is the time of one ring step beyond moving the bytes (system calls, a select wake-up, the wire). Measured on
loopback (tools/ring/RingLoopback.java, a 1,000-float vector): 0.061 ms for the 2 steps of 2 ranks, 0.147 ms for the
4 steps of 3 and 0.300 ms for the 6 steps of 4, so about 30-50 us a step on a heavily loaded 2-core VM; on a network
add the switch and NIC, so the table takes alpha = 50 us. Compute per step: one worker of one core at a local batch
of 128, from the quiet-machine single-thread figures in BENCHMARKS.md (W1 about 45,000 samples/s, W2 about 8,000);
the 25M-parameter MLP at 6 x 25M FLOP per sample and 70 GFLOP/s per core.
"""
ALPHA = 50e-6
MODELS = [  # name, parameters, compute seconds per step (1 core, batch 128)
    ("W1 (669,706 params, 2.7 MB)", 669_706, 128 / 45_000),
    ("W2 (225,034 params, 0.9 MB)", 225_034, 128 / 8_000),
    ("25M params (100 MB)", 25_000_000, 128 * 6 * 25e6 / 70e9),
]
RINGS = [2, 4, 8, 16, 32, 64]
LINKS = [10, 25, 100]


def ring_seconds(n, nbytes, gbit):
    return 2 * (n - 1) / n * nbytes * 8 / (gbit * 1e9) + 2 * (n - 1) * ALPHA


def main():
    for name, params, compute in MODELS:
        nbytes = params * 4
        print(f"**{name}**, compute about {compute * 1e3:.1f} ms per step on one core (batch 128):\n")
        print("| N | " + " | ".join(f"{g} Gb/s" for g in LINKS) + " |")
        print("| --- | " + " | ".join("---" for _ in LINKS) + " |")
        for n in RINGS:
            cells = []
            for g in LINKS:
                t = ring_seconds(n, nbytes, g)
                cells.append(f"{t * 1e3:.2f} ms ({t / compute:.2f}x)")
            print(f"| {n} | " + " | ".join(cells) + " |")
        print()


if __name__ == "__main__":
    main()
