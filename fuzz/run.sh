#!/bin/sh
# fuzz/run.sh - `make fuzz`: run every libFuzzer harness for a bounded time
# on seed corpora made from ../shared/corpus, the shipped YAML and small
# hostile files; fail on any finding (the crashing input is kept in
# fuzz-artifacts/ to become a regression case).
# Usage: run.sh SRCDIR SECONDS
set -eu
srcdir=$1
seconds=$2
shared=${GGUFLINT_SHARED:-$srcdir/../shared}
work=fuzz-work
rm -rf "$work"
mkdir -p "$work" fuzz-artifacts

seed() {	# seed DIR FILE...
	d="$work/seeds-$1"
	shift
	mkdir -p "$d"
	for f in "$@"; do
		[ -f "$f" ] && cp "$f" "$d/" || true
	done
}

gguf_seeds=
if [ -d "$shared/corpus" ]; then
	gguf_seeds=$(find "$shared/corpus" -name '*.gguf' | sort)
else
	echo "fuzz: $shared/corpus is absent: seeding with the example only"
fi
seed gguf $gguf_seeds "$srcdir/examples/stories260K.gguf"
# a few hostile shapes: empty, magic only, a v3 header with huge counts
printf '' > "$work/seeds-gguf/empty"
printf 'GGUF' > "$work/seeds-gguf/magic"
printf 'GGUF\003\000\000\000\377\377\377\377\377\377\377\177\001\000\000\000\000\000\000\000' \
    > "$work/seeds-gguf/counts"
# quants under zero scales (D004): a q8_0 tensor with a hidden block and a
# benign one, a q4_K block with d zero over quants
base64 -d > "$work/seeds-gguf/zero-scale" <<'SEED'
R0dVRgMAAAACAAAAAAAAAAEAAAAAAAAAFAAAAAAAAABnZW5lcmFsLmFyY2hpdGVj
dHVyZQgAAAAFAAAAAAAAAGxsYW1hCAAAAAAAAABhLndlaWdodAEAAABAAAAAAAAA
AAgAAAAAAAAAAAAAAAgAAAAAAAAAYi53ZWlnaHQBAAAAAAEAAAAAAAAMAAAAYAAA
AAAAAAAAAAAAAAAAAAAAAAAAAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0e
HyAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
AAAAAAAAAAAAAAAAAAAAAAAAADwAAAAAAAAAAAAAAABaW1hZXl9cXVJTUFFWV1RV
SktISU5PTE1CQ0BBRkdERXp7eHl+f3x9cnNwcXZ3dHVqa2hpbm9sbWJjYGFmZ2Rl
GhsYGR4fHB0SExARFhcUFQoLCAkODwwNAgMAAQYHBAU6Ozg5Pj88PTIzMDE2NzQ1
KisoKS4vLC0iIyAhJickJQ==
SEED
seed profile "$srcdir"/profiles/*.yaml
seed captable "$srcdir"/kernels/*.yaml
seed rules "$srcdir"/examples/team-rules.yaml
seed config "$srcdir"/examples/gguflint-example.yaml

status=0
for h in reader lint deep profile captable rules config; do
	case $h in
	reader|lint|deep) seeds=gguf; opts="-max_len=65536 -dict=$srcdir/fuzz/gguf.dict" ;;
	*) seeds=$h; opts="-max_len=8192" ;;
	esac
	mkdir -p "$work/corpus-$h"
	echo "== fuzz-$h: $seconds s"
	if ! ./fuzz/fuzz-$h -max_total_time="$seconds" -rss_limit_mb=2048 \
	    -timeout=10 -print_final_stats=1 \
	    -artifact_prefix=fuzz-artifacts/$h- $opts \
	    "$work/corpus-$h" "$work/seeds-$seeds" > "$work/$h.log" 2>&1; then
		echo "fuzz-$h FOUND A PROBLEM:"
		tail -n 40 "$work/$h.log"
		status=1
	fi
	grep -E 'stat::number_of_executed_units|cov: ' "$work/$h.log" | tail -n 2
done
exit $status
