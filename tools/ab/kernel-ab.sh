#!/usr/bin/env bash
# Old and new gemm / convolution code alternating in one JVM (see kernel-ab/KernelAb.java):
#   tools/ab/kernel-ab.sh OLD_REV [ROUNDS]      after `mvn -q -B -DskipTests install`
# OLD_REV's VectorGemm and VectorConv are compiled beside the working tree's classes as VectorGemmOld and
# VectorConvOld (they must still compile against today's helpers); prints one line per case with the median of the
# per-round new/old ratios. Runs at the default thread budget (BRISK_THREADS to change it).
set -eu
OLD=$1; ROUNDS=${2:-30}
ROOT=$(git rev-parse --show-toplevel)
J=/usr/lib/jvm/temurin-25-jdk-amd64/bin
WORK=$(mktemp -d); trap 'rm -rf "$WORK"' EXIT
SRC=$WORK/src/dev/brisk/backend/jvm; mkdir -p "$SRC"
P=brisk-core/src/main/java/dev/brisk/backend/jvm
git -C "$ROOT" show "$OLD:$P/VectorGemm.java" \
  | sed 's/final class VectorGemm {/final class VectorGemmOld {/; s/private VectorGemm()/private VectorGemmOld()/' > "$SRC/VectorGemmOld.java"
git -C "$ROOT" show "$OLD:$P/VectorConv.java" \
  | sed 's/final class VectorConv {/final class VectorConvOld {/; s/private VectorConv()/private VectorConvOld()/; s/VectorGemm\./VectorGemmOld./g' > "$SRC/VectorConvOld.java"
cp "$ROOT/tools/ab/kernel-ab/KernelAb.java" "$SRC/"
CP=$ROOT/brisk-core/target/classes
"$J/javac" -nowarn -d "$WORK/out" --add-modules jdk.incubator.vector -cp "$CP" "$SRC"/*.java 2>&1 | grep -v 'incubator' || true
echo "load $(cut -d' ' -f1 /proc/loadavg), $(nproc) CPUs, old $OLD against the working tree's build"
"$J/java" --add-modules jdk.incubator.vector -cp "$WORK/out:$CP" dev.brisk.backend.jvm.KernelAb "$ROUNDS" 2>&1 | grep -v '^WARNING'
