#!/usr/bin/env bash
# Build the public N-Queens counters that benchmarks/counters.py runs against queenslab.
#
# Usage:
#   bash benchmarks/ref/build_counters.sh OUT_DIR NAME=SOURCE ...
#
# It fetches nothing: each SOURCE is a copy of the program's public source that you
# obtained yourself, kept outside this repository (nothing of it belongs here). NAME is one of
#
#   kluev                  E. Kluev's N-Queens-Count-Sol: the directory holding main.cpp and
#                          solcounter.h. Built per n (the board size is a constant in
#                          solcounter.h) with its README's default: g++ -std=c++20 -O3.
#   takaken                Takaken's "N-Queens Solutions ver3.1" (May 2003): the C file; a
#                          public copy is 06OpenCL/07_10NQueen.c of suzukiiichiro/N-Queens.
#                          Built per n (MINSIZE and MAXSIZE set to n) with gcc -O3 (the
#                          program names no flags).
#   suzuki-constellations  Iichiro Suzuki's C constellations program: the file
#                          10Bit_CUDA/004GCC_constellation.c of suzukiiichiro/N-Queens.
#                          Built per n (its loop bounds min and targetN set to n) with the
#                          flags its header gives: gcc -W -Wall -O3.
#   m-queens               sudden6's m-queens: the directory holding main.c. Built once
#                          with its README's single-thread line:
#                          gcc -O2 -march=native -mtune=native -std=c99 (no -fopenmp).
#   nqueensfaf             O. and T. Pöschl's NQueensFAF: the repository directory (nqueensfaf-core,
#                          nqueensfaf-impl, nqueensfaf-examples). Its CpuSolver and the
#                          example driver CpuSolverExample are compiled with javac (the GPU
#                          solver, which needs LWJGL, is left out) against Debian's Kryo
#                          (apt-get install libkryo-java; CpuSolver uses Kryo only to save
#                          progress); OUT_DIR/nqueensfaf is a launcher that runs java on it.
#
# The board sizes of the per-n builds come from $NS (default "16 17"). OUT_DIR receives
# kluev-n16, takaken-n16, suzuki-constellations-n16, ..., m-queens, nqueensfaf (the names
# benchmarks/counters.py looks for) and BUILD-INFO, one line per program with its compiler
# command line and version, which the benchmark prints. A program that cannot be built is
# reported with the reason and left out; the others are still built. The source files are
# patched (board size) only in copies under OUT_DIR/work.
set -uo pipefail

if [ $# -lt 2 ]; then
    sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'
    exit 2
fi
out=$1
shift
ns=${NS:-16 17}
mkdir -p "$out/work"
out=$(cd "$out" && pwd)
info="$out/BUILD-INFO"
: >"$info"
failed=0

note() { printf '%s\n' "$*" | tee -a "$info"; }
skip() {
    echo "build_counters: $1 skipped: $2" >&2
    printf '%s: skipped: %s\n' "$1" "$2" >>"$info"
    failed=1
}
version() { "$1" --version 2>&1 | head -n 1; }

build_kluev() {
    local src=$1 n work
    [ -f "$src/main.cpp" ] && [ -f "$src/solcounter.h" ] || { skip kluev "$src holds no main.cpp and solcounter.h"; return; }
    command -v g++ >/dev/null || { skip kluev "no g++"; return; }
    for n in $ns; do
        work="$out/work/kluev-n$n"
        rm -rf "$work" && cp -r "$src" "$work"
        sed -i -E "s/(inline constexpr int size = )[0-9]+;/\1$n;/" "$work/solcounter.h"
        grep -q "inline constexpr int size = $n;" "$work/solcounter.h" || { skip kluev "solcounter.h does not set the board size as expected"; return; }
        (cd "$work" && g++ -std=c++20 -O3 main.cpp -o "$out/kluev-n$n") 2>"$work/build.err" ||
            { skip kluev "g++ failed at n = $n: $(tail -n 3 "$work/build.err")"; return; }
    done
    note "kluev: g++ -std=c++20 -O3 main.cpp, board size set per n in solcounter.h ($(version g++))"
}

build_takaken() {
    local src=$1 n work
    [ -f "$src" ] && grep -q "MAXSIZE" "$src" || { skip takaken "$src is not Takaken's C file (no MAXSIZE)"; return; }
    command -v gcc >/dev/null || { skip takaken "no gcc"; return; }
    for n in $ns; do
        work="$out/work/takaken-n$n.c"
        sed -E "s/^#define[[:space:]]+MAXSIZE[[:space:]]+[0-9]+/#define MAXSIZE $n/; s/^#define[[:space:]]+MINSIZE[[:space:]]+[0-9]+/#define MINSIZE $n/" "$src" >"$work"
        gcc -O3 -o "$out/takaken-n$n" "$work" 2>"$work.err" ||
            { skip takaken "gcc failed at n = $n: $(tail -n 3 "$work.err")"; return; }
    done
    note "takaken: gcc -O3, MINSIZE = MAXSIZE = n ($(version gcc))"
}

build_suzuki() {
    local src=$1 n work
    [ -f "$src" ] && grep -q "int targetN=" "$src" || { skip suzuki-constellations "$src is not 004GCC_constellation.c (no targetN)"; return; }
    command -v gcc >/dev/null || { skip suzuki-constellations "no gcc"; return; }
    for n in $ns; do
        work="$out/work/suzuki-constellations-n$n.c"
        sed -E "s/int min=[0-9]+;/int min=$n;/; s/int targetN=[0-9]+;/int targetN=$n;/" "$src" >"$work"
        gcc -W -Wall -O3 -o "$out/suzuki-constellations-n$n" "$work" 2>"$work.err" ||
            { skip suzuki-constellations "gcc failed at n = $n: $(tail -n 3 "$work.err")"; return; }
    done
    note "suzuki-constellations: gcc -W -Wall -O3, min = targetN = n ($(version gcc))"
}

build_mqueens() {
    local src=$1
    [ -f "$src/main.c" ] || { skip m-queens "$src holds no main.c"; return; }
    command -v gcc >/dev/null || { skip m-queens "no gcc"; return; }
    gcc -O2 -march=native -mtune=native -std=c99 -o "$out/m-queens" "$src/main.c" 2>"$out/work/m-queens.err" ||
        { skip m-queens "gcc failed: $(tail -n 3 "$out/work/m-queens.err")"; return; }
    note "m-queens: gcc -O2 -march=native -mtune=native -std=c99, single-threaded ($(version gcc))"
}

build_nqueensfaf() {
    local src=$1 classes="$out/work/nqueensfaf-classes" cp="" jar
    [ -d "$src/nqueensfaf-impl" ] && [ -d "$src/nqueensfaf-examples" ] || { skip nqueensfaf "$src is not the NQueensFAF repository"; return; }
    command -v javac >/dev/null && command -v java >/dev/null || { skip nqueensfaf "no javac / java"; return; }
    for jar in kryo minlog objenesis reflectasm; do
        [ -f "/usr/share/java/$jar.jar" ] || { skip nqueensfaf "no /usr/share/java/$jar.jar (apt-get install libkryo-java)"; return; }
        cp="$cp:/usr/share/java/$jar.jar"
    done
    rm -rf "$classes" && mkdir -p "$classes"
    # shellcheck disable=SC2046  # the file list is meant to split
    javac -nowarn -d "$classes" -cp "${cp#:}" \
        $(find "$src/nqueensfaf-core/src/main/java" "$src/nqueensfaf-impl/src/main/java" -name '*.java' ! -name 'GpuSolver.java' ! -name 'InfoUtil.java') \
        "$src/nqueensfaf-examples/src/main/java/de/nqueensfaf/examples/CpuSolverExample.java" 2>"$out/work/nqueensfaf.err" ||
        { skip nqueensfaf "javac failed: $(tail -n 3 "$out/work/nqueensfaf.err")"; return; }
    printf '#!/bin/sh\n# reads N and the thread count on standard input\nexec java -cp %s de.nqueensfaf.examples.CpuSolverExample\n' \
        "$classes$cp" >"$out/nqueensfaf"
    chmod +x "$out/nqueensfaf"
    note "nqueensfaf: javac (CpuSolver + CpuSolverExample, Kryo 2.20 from Debian), run by $(version java)"
}

for arg in "$@"; do
    name=${arg%%=*}
    src=${arg#*=}
    [ "$name" != "$arg" ] || { skip "$arg" "expected NAME=SOURCE"; continue; }
    case $name in
    kluev) build_kluev "$src" ;;
    takaken) build_takaken "$src" ;;
    suzuki-constellations) build_suzuki "$src" ;;
    m-queens) build_mqueens "$src" ;;
    nqueensfaf) build_nqueensfaf "$src" ;;
    *) skip "$name" "unknown program (kluev, takaken, suzuki-constellations, m-queens, nqueensfaf)" ;;
    esac
done
echo "build_counters: built into $out (see $info)"
exit $failed
