#!/usr/bin/env bash
# Packs what a bare machine needs to run Brisk's benchmarks, into one folder (default .devrun, under 64 MiB):
# a jlink'd Java 25 runtime (the modules Brisk uses, libjvm stripped), the brisk-cli jar, and Fashion-MNIST with
# the training set cut to its first N images (default 30000; the test set whole). Used for the 16-core runs of
# BENCHMARKS.md, "Sixteen cores", on a machine that had no JDK. Run from the repository root after `mvn package`.
#   tools/manycore/pack.sh [DIR] [N]
set -euo pipefail
out="${1:-.devrun}"
n="${2:-30000}"
jdk="${JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}"
data=/usr/share/datasets/fashion-mnist
rm -rf "$out/jre" && mkdir -p "$out/fmnist"
"$jdk/bin/jlink" --add-modules java.base,jdk.incubator.vector,jdk.management,java.management,jdk.unsupported \
  --strip-debug --no-header-files --no-man-pages --compress zip-9 --output "$out/jre"
strip --strip-unneeded "$out/jre/lib/server/libjvm.so"
cp brisk-cli/target/brisk-cli-all.jar "$out/"
cp "$data"/t10k-* "$out/fmnist/"
python3 - "$data" "$out/fmnist" "$n" <<'PY'
import gzip, sys
src, dst, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
for name, header, row in (("train-images-idx3-ubyte.gz", 16, 784), ("train-labels-idx1-ubyte.gz", 8, 1)):
    d = gzip.open(f"{src}/{name}").read()
    h = bytearray(d[:header]); h[4:8] = n.to_bytes(4, "big")
    with gzip.open(f"{dst}/{name}", "wb", compresslevel=9) as f:
        f.write(bytes(h) + d[header:header + n * row])
PY
du -sh "$out"
