#!/usr/bin/env bash
# On the target machine, from the repository root: Brisk W1 and W2 at several thread counts, one fresh JVM each,
# with the launcher's JVM flags, from the folder tools/manycore/pack.sh made (default .devrun). Prints one line
# per run. PyTorch's figures come from tools/peers/torch_workloads.py, which reads
# /usr/share/datasets/fashion-mnist: on a bare machine, link that path to DIR/fmnist first.
#   tools/manycore/run.sh [DIR] [THREADS...]      e.g. tools/manycore/run.sh .devrun 1 2 4 8 16
set -euo pipefail
dir="$(cd "${1:-.devrun}" && pwd)"; shift || true
threads=("$@"); [ ${#threads[@]} -gt 0 ] || threads=(1 2)
flags=(--add-modules jdk.incubator.vector -XX:+UseParallelGC -Xmx4g -Djava.awt.headless=true -XX:CompileCommand=quiet)
for c in 'dev.brisk.graph.*' 'dev.brisk.ops.*' 'dev.brisk.exec.Eager*' 'dev.brisk.exec.KernelBinder*'; do
  flags+=("-XX:CompileCommand=CompileThresholdScaling,$c::*,0.25")
done
brisk() { "$dir/jre/bin/java" "${flags[@]}" ${BRISK_JAVA_OPTS:-} -jar "$dir/brisk-cli-all.jar" "$@" --data "$dir/fmnist"; }
nproc; lscpu | grep -E "Model name|Core|Socket|L3" || true
for w in w1 w2; do
  epochs=3; [ "$w" = w2 ] && epochs=2
  for t in "${threads[@]}"; do
    echo -n "$w threads=$t: "
    brisk train --workload "$w" --epochs "$epochs" --threads "$t" --seed 1 --verbose 0 2>/dev/null | grep RESULT
  done
done
