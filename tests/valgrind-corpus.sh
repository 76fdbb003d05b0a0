#!/bin/sh
# tests/valgrind-corpus.sh - gguflint under valgrind's memcheck on every
# corpus file and the example, in every mode (lint with plan and deep
# scan, JSON, SARIF, dump): any memcheck error or definite leak fails.
# Usage: valgrind-corpus.sh GGUFLINT SRCDIR
set -eu
bin=$1
srcdir=$2
shared=${GGUFLINT_SHARED:-$srcdir/../shared}
files="$srcdir/examples/stories260K.gguf"
if [ -d "$shared/corpus" ]; then
	files="$files $(find "$shared/corpus" -name '*.gguf' | sort)"
fi
vg="valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite"
# One run a mode over every file: memcheck's start and gguflint's tables
# (loaded once a process) cost a run some 1.5 s under valgrind, the files
# themselves little; a session of many files is what a directory walk is.
n=0
nf=$(echo $files | wc -w)
for args in "--plan --deep -p mobile_2gb" "--format json --deep" \
    "--format sarif" "--dump --format json" "--dump"; do
	status=0
	# shellcheck disable=SC2086
	$vg "$bin" --no-config $args $files >/dev/null 2>"${TMPDIR:-/tmp}/vg.$$" \
	    || status=$?
	if [ "$status" -ge 2 ]; then
		echo "valgrind-corpus: $nf files ($args): exit $status"
		cat "${TMPDIR:-/tmp}/vg.$$"
		rm -f "${TMPDIR:-/tmp}/vg.$$"
		exit 1
	fi
	n=$((n + 1))
done
rm -f "${TMPDIR:-/tmp}/vg.$$"
echo "valgrind-corpus: $nf files in $n modes ($n runs) clean under memcheck"
