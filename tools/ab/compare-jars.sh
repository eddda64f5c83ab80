#!/usr/bin/env bash
# Two jars side by side, alternating, with the launcher's JVM flags:
#   tools/ab/compare-jars.sh OLD.jar NEW.jar ROUNDS OUTDIR [bench options]
# Results: OUTDIR/results (one RESULT line per run, tagged old/new and round) and OUTDIR/log (load before each).
set -u
OLD=$1; NEW=$2; ROUNDS=$3; OUT=$4; mkdir -p "$OUT"
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin/java
FLAGS=(--add-modules jdk.incubator.vector -XX:+UseParallelGC -Xmx4g -Djava.awt.headless=true -XX:CompileCommand=quiet)
for c in 'dev.brisk.graph.*' 'dev.brisk.ops.*' 'dev.brisk.exec.Eager*' 'dev.brisk.eager.*' 'dev.brisk.exec.KernelBinder*'; do
  FLAGS+=("-XX:CompileCommand=CompileThresholdScaling,$c::*,0.25"); done
grep -q '\[madvise\]' /sys/kernel/mm/transparent_hugepage/enabled && FLAGS+=(-XX:+UseTransparentHugePages)
for r in $(seq 1 "$ROUNDS"); do
  for which in old new; do
    jar=$OLD; [ $which = new ] && jar=$NEW
    echo "== round $r $which $(date +%T) load $(cut -d' ' -f1 /proc/loadavg)" | tee -a "$OUT/log"
    "$J" "${FLAGS[@]}" -jar "$jar" bench --skip-gemm "${@:5}" > "$OUT/$which-$r.txt" 2>&1
    grep '^RESULT' "$OUT/$which-$r.txt" | sed "s/^/$which r$r /" | tee -a "$OUT/results"
  done
done
