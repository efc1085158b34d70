#!/usr/bin/env bash
# Build the public N-Queens counters that benchmarks/counters.py runs against queenslab.
#
# Usage:
#   bash benchmarks/ref/build_counters.sh OUT_DIR NAME=SOURCE ...
#
# It fetches nothing: each SOURCE is a copy of the program's public source that you
# obtained yourself, kept outside this repository (nothing of it belongs here). NAME is one of
#
#   kluev                  E. Kluev's N-Queens-Count-Sol (EvgenyKluev/N-Queens-Count-Sol, read
#                          at 580f444): the directory holding main.cpp and solcounter.h.
#                          Built per n with g++ -std=c++20 -O3 -march=native and the
#                          settings his solcounter.h recommends for that n, in its table for
#                          n = 16..22 (below n = 16 its n = 16 column, above 22 its n = 22
#                          column), set in copies of his files:
#                            n               16    17    18    19    20    21    22
#                            sieveCuts        0     0     0     0     3     3     6
#                            matchMinSize    40    40    40    40    60    60    80
#                            bmiIntrin        F     F     F     T     T     T     T
#                            prefetch         T     T     T     T     *     F     T
#                            Quarter's sym. NoSy  NoSy  NoSy  NoSy  NoSy  NoSy  RowS
#                          (the last row is the Subsquare symmetry of his "using Quarter":
#                          QNoSymmetry or QRowSymmetry).
#                          bmiIntrin and prefetch also need the include his README names
#                          (bmi2.h in bmintrin.h, prefetchx86.h in prefetch.h). His "*" for
#                          prefetch at n = 20 gives no value: the default (false) is kept.
#                          Without BMI2 under -march=native (no __BMI2__), bmiIntrin stays
#                          false, his code's own fallback, and BUILD-INFO says so. His
#                          matchGroupSize (not in the table) and his scheduler (the
#                          multi-threaded one, which takes the thread count as argv[1];
#                          the benchmarks pass 1) are left as they are. The settings applied
#                          are recorded per n in BUILD-INFO.
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
# benchmarks/counters.py looks for) and BUILD-INFO, one line per program (per n for kluev)
# with its compiler command line, settings and version, which the benchmark prints. A
# program that cannot be built, or whose source does not hold the lines the script patches,
# is reported with the reason and left out; the others are still built. The source files are
# patched (board size, and Kluev's settings) only in copies under OUT_DIR/work.
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

# Kluev's table of settings per board size, as the comments of his solcounter.h give it
# (580f444, lines 22-27, spaces squeezed); kluev_table_ok checks that the source holds
# these very lines, so that another version's table is not overridden by this one.
kluev_table='inline constexpr Cfg cfg { // s= 16 17 18 19 20 21 22
.sieveCuts = 0, // 0 0 0 0 3 3 6
.matchMinSize = 40, // 40 40 40 40 60 60 80
.bmiIntrin = false, // F F F T T T T
.prefetch = false, // T T T T * F T
// Subsquare Symmetry NoSy NoSy NoSy NoSy NoSy NoSy RowS'

kluev_table_ok() {
    local line squeezed
    squeezed=$(tr -s ' ' <"$1")
    while IFS= read -r line; do
        grep -qF -- "$line" <<<"$squeezed" || return 1
    done <<<"$kluev_table"
}

# kluev_set FILE ERE REPLACEMENT WANT: replace the one line matching ERE (sed -E), then
# check that WANT (a fixed string) is there; fails if ERE does not match exactly one line.
kluev_set() {
    [ "$(grep -cE -- "$2" "$1")" = 1 ] || return 1
    sed -i -E "s/$2/$3/" "$1" && grep -qF -- "$4" "$1"
}

build_kluev() {
    local src=$1 n work col cuts minsize bmi pf sym flags notes bmi2
    local cxx="g++ -std=c++20 -O3 -march=native"
    [ -f "$src/main.cpp" ] && [ -f "$src/solcounter.h" ] || { skip kluev "$src holds no main.cpp and solcounter.h"; return; }
    kluev_table_ok "$src/solcounter.h" ||
        { skip kluev "solcounter.h does not hold the table of settings per size this script applies (other version?)"; return; }
    command -v g++ >/dev/null || { skip kluev "no g++"; return; }
    bmi2=$(g++ -march=native -dM -E -x c++ /dev/null 2>/dev/null | grep -c '__BMI2__')
    for n in $ns; do
        col=$n notes=""
        [ "$n" -lt 16 ] && col=16 && notes="; n = $n is below the table (16..22): its n = 16 column"
        [ "$n" -gt 22 ] && col=22 && notes="; n = $n is above the table (16..22): its n = 22 column"
        case $col in
        16 | 17 | 18) cuts=0 minsize=40 bmi=false pf=true sym=QNoSymmetry ;;
        19) cuts=0 minsize=40 bmi=true pf=true sym=QNoSymmetry ;;
        20) cuts=3 minsize=60 bmi=true pf=false sym=QNoSymmetry
            notes="$notes; prefetch: the table gives '*', no value, so the default (false) is kept" ;;
        21) cuts=3 minsize=60 bmi=true pf=false sym=QNoSymmetry ;;
        22) cuts=6 minsize=80 bmi=true pf=true sym=QRowSymmetry ;;
        esac
        if [ "$bmi" = true ] && [ "$bmi2" = 0 ]; then
            bmi=false
            notes="$notes; the table gives bmiIntrin = true but g++ -march=native has no BMI2 here: his fallback, bmiIntrin = false"
        fi
        work="$out/work/kluev-n$n"
        rm -rf "$work" && cp -r "$src" "$work"
        kluev_set "$work/solcounter.h" '(inline constexpr int size = )[0-9]+;' "\1$n;" "inline constexpr int size = $n;" &&
            kluev_set "$work/solcounter.h" '^( *\.sieveCuts = )[0-9]+,' "\1$cuts," ".sieveCuts = $cuts," &&
            kluev_set "$work/solcounter.h" '^( *\.matchMinSize = )[0-9]+,' "\1$minsize," ".matchMinSize = $minsize," &&
            kluev_set "$work/solcounter.h" '^( *\.bmiIntrin = )(true|false),' "\1$bmi," ".bmiIntrin = $bmi," &&
            kluev_set "$work/solcounter.h" '^( *\.prefetch = )(true|false),' "\1$pf," ".prefetch = $pf," &&
            kluev_set "$work/solcounter.h" '^(using Quarter = Subsquare<size \/ 2, )Q[A-Za-z]+(, PackIter>;)' "\1$sym\2" "Subsquare<size / 2, $sym, PackIter>;" ||
            { skip kluev "solcounter.h does not hold the lines setting size, sieveCuts, matchMinSize, bmiIntrin, prefetch and Quarter as expected"; return; }
        flags=""
        if [ "$bmi" = true ]; then
            kluev_set "$work/bmintrin.h" '^\/\/ *(#include "bmi2.h")' '\1' '#include "bmi2.h"' ||
                { skip kluev "bmintrin.h has no line '//#include \"bmi2.h\"' to enable BMI2"; return; }
            flags="$flags, bmintrin.h includes bmi2.h"
        fi
        if [ "$pf" = true ]; then
            kluev_set "$work/prefetch.h" '^\/\/ *(#include "prefetchx86.h")' '\1' '#include "prefetchx86.h"' ||
                { skip kluev "prefetch.h has no line '//#include \"prefetchx86.h\"' to allow prefetch"; return; }
            flags="$flags, prefetch.h includes prefetchx86.h"
        fi
        (cd "$work" && $cxx main.cpp -o "$out/kluev-n$n") 2>"$work/build.err" ||
            { skip kluev "g++ failed at n = $n: $(tail -n 3 "$work/build.err")"; return; }
        note "kluev: n = $n: $cxx main.cpp; solcounter.h: size = $n, sieveCuts = $cuts, matchMinSize = $minsize, bmiIntrin = $bmi, prefetch = $pf, Quarter = Subsquare<size / 2, $sym, PackIter>$flags$notes ($(version g++))"
    done
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
