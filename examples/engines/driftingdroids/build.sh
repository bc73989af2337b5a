#!/bin/sh
# Builds the REP engine around DriftingDroids' solver from a checkout of its public repository
# (https://github.com/smack42/DriftingDroids, GPL-3.0-or-later; tested with commit ec5e956):
#
#   examples/engines/driftingdroids/build.sh PATH_TO_CHECKOUT [OUTPUT_DIR]
#
# Its driftingdroids.model package is compiled unchanged, with its resources, beside
# RepDriftingDroids.java, into OUTPUT_DIR (default: rep-driftingdroids in the checkout, so that
# nothing built from its code lands in this project's tree). Needs a JDK, 17 or later.
set -eu
if [ $# -lt 1 ]; then
    echo "usage: $0 PATH_TO_DRIFTINGDROIDS_CHECKOUT [OUTPUT_DIR]" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
# The sources sit in src/ (or src/src/ in some layouts of the repository).
model=$src/src
[ -d "$model/driftingdroids/model" ] || model=$src/src/src
if [ ! -d "$model/driftingdroids/model" ]; then
    echo "$0: no driftingdroids/model folder under $src/src: is this a DriftingDroids checkout?" >&2
    exit 2
fi
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$src/rep-driftingdroids}
mkdir -p "$out"
out=$(cd "$out" && pwd)
javac -nowarn -encoding UTF-8 -d "$out" "$model"/driftingdroids/model/*.java
cp -R "$model/resource" "$out/"
javac -encoding UTF-8 -cp "$out" -d "$out" "$here/RepDriftingDroids.java"
echo "built $out"
echo "register it: ricochet-lab engine add driftingdroids -- java -cp $out RepDriftingDroids --warmup-ms 2000"
