#!/bin/sh
# Builds the REP engine around Michael Fogleman's C search() from a checkout of his public
# repository (https://github.com/fogleman/Ricochet; tested with commit b571f46):
#
#   examples/engines/fogleman/build.sh PATH_TO_CHECKOUT [OUTPUT]
#
# His ricochet.c is compiled unchanged, with the flags of his own build_ricochet (its demo main()
# is renamed at compile time so that the adapter's main() is the program's), and linked with
# rep_fogleman.c. The engine is written to OUTPUT (default: rep-fogleman in the checkout, so that
# nothing built from his code lands in this project's tree). His repository has no licence file:
# build it for your own use.
set -eu
if [ $# -lt 1 ] || [ ! -f "$1/ricochet.c" ]; then
    echo "usage: $0 PATH_TO_FOGLEMAN_RICOCHET_CHECKOUT [OUTPUT]  (the folder holding ricochet.c)" >&2
    exit 2
fi
src=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
out=${2:-$src/rep-fogleman}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
${CC:-gcc} -std=c99 -O3 -Dmain=fogleman_demo_main -c "$src/ricochet.c" -o "$tmp/ricochet.o"
${CC:-gcc} -std=c99 -O2 -Wall -Wextra -c "$here/rep_fogleman.c" -o "$tmp/rep_fogleman.o"
${CC:-gcc} -o "$out" "$tmp/rep_fogleman.o" "$tmp/ricochet.o"
echo "built $out"
echo "register it: ricochet-lab engine add fogleman-c -- $out"
