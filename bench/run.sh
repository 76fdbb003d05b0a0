#!/bin/sh
# bench/run.sh - `make bench`: gguflint's wall time and peak RSS beside cat
# of the same file, for the largest corpus file and for sparse multi-GiB
# files shaped like real models (header valid, data a hole), plus the pages
# of the sparse file that the run brought into the page cache (fincore):
# proof that no tensor data is read; the peak address space of a
# header-only lint, and a model on a pipe; --measure's cost with
# llama.cpp's libraries; a scan of the corpus at --jobs 1 and one per
# CPU. A script that prints figures, not a test.
# Usage: run.sh GGUFLINT GEN-SPARSE
set -eu
gguflint=$1
gen=$2
runs=${BENCH_RUNS:-20}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# wall time in microseconds per run, averaged over $runs runs of "$@"
wall_us() {
	start=$(date +%s%N)
	i=0
	while [ $i -lt "$runs" ]; do
		"$@" >/dev/null 2>&1 || true
		i=$((i + 1))
	done
	end=$(date +%s%N)
	echo $(((end - start) / runs / 1000))
}

# peak RSS in KiB of one run of "$@"
peak_kib() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -f %M "$@" 2>&1 >/dev/null | tail -n 1
	else
		echo "n/a"
	fi
}

row() {
	printf '%-34s %12s %12s %10s %12s\n' "$@"
}

measure() {
	label=$1
	file=$2
	g=$(wall_us "$gguflint" "$file")
	c=$(wall_us cat "$file")
	gr=$(peak_kib "$gguflint" "$file")
	cr=$(peak_kib cat "$file")
	row "$label" "${g} us" "${c} us" "$(awk "BEGIN{printf \"%.2fx\", $g/($c?$c:1)}")" "${gr} KiB"
	echo "  (cat peak RSS ${cr} KiB; $(stat -c %s "$file") bytes)"
}

echo "gguflint benchmark: mean of $runs runs each; peak RSS from /usr/bin/time"
row "file" "gguflint" "cat" "ratio" "gguflint RSS"

shared=${GGUFLINT_SHARED:-../shared}
if [ -d "$shared/corpus" ]; then
	largest=$(find "$shared/corpus" -name '*.gguf' -printf '%s %p\n' |
	    sort -n | tail -n 1 | cut -d' ' -f2-)
	measure "largest corpus: $(basename "$largest")" "$largest"
else
	echo "(no $shared/corpus: skipping the corpus file)"
fi

# cat of the header bytes: what any reader of the header must at least do
cat_header() {
	head -c "$2" "$1"
}

for shape in 8b 70b 235b-moe; do
	f="$tmp/llama-$shape.gguf"
	"$gen" "$f" "$shape" >/dev/null
	header=$("$gguflint" --dump --format json "$f" 2>/dev/null |
	    sed -n 's/^  "data_offset": \([0-9]*\),$/\1/p')
	# The file's pages are dropped from the page cache (dd's nocache);
	# any page beyond the header's after a lint was read by the lint,
	# where the goal is at most 64 KiB (16 pages) past the header.
	dd of="$f" oflag=nocache conv=notrunc,fdatasync count=0 status=none \
	    2>/dev/null || true
	"$gguflint" "$f" >/dev/null 2>&1 || true
	if command -v fincore >/dev/null 2>&1; then
		cached=$(fincore -b -n -o RES "$f" | tr -d ' ')
		data_pages=$(( (cached - (header + 4095) / 4096 * 4096) / 4096 ))
		[ "$data_pages" -lt 0 ] && data_pages=0
	else
		data_pages="n/a (no fincore)"
	fi
	echo "sparse $shape: $(stat -c %s "$f") bytes, header $header bytes;" \
	    "pages past the header read by a lint: $data_pages (goal: 16)"
	g=$(wall_us "$gguflint" "$f")
	c=$(wall_us cat_header "$f" "$header")
	gr=$(peak_kib "$gguflint" "$f")
	row "sparse llama $shape (vs header)" "${g} us" "${c} us" \
	    "$(awk "BEGIN{printf \"%.2fx\", $g/($c?$c:1)}")" "${gr} KiB"
done

# The smallest address-space limit (ulimit -v, in KiB, to 1 MiB) under
# which "$@" still lints (exit 0 or 1): its peak address space.
peak_as_kib() {
	lo=1024
	hi=33554432
	while [ $((hi - lo)) -gt 1024 ]; do
		mid=$(((lo + hi) / 2))
		if (ulimit -v "$mid"; "$@" >/dev/null 2>&1; [ $? -le 1 ]); then
			hi=$mid
		else
			lo=$mid
		fi
	done
	echo "$hi"
}

# A header-only lint reads the header into a window, never maps the file:
# peak address space and RSS on the 8B sparse file (4.8 GB), and, with
# BENCH_BEFORE=PROGRAM (a build from before src/source/, which mapped the
# whole file), the same for it. Then the file piped to standard input,
# which is read for its header and counted, beside cat piping it to cat.
f="$tmp/llama-8b.gguf"
"$gen" "$f" 8b >/dev/null
for prog in ${BENCH_BEFORE:+"$BENCH_BEFORE"} "$gguflint"; do
	echo "header-only lint of sparse llama 8b ($(stat -c %s "$f") bytes)" \
	    "by $prog: peak address space $(peak_as_kib "$prog" --no-config \
	    "$f") KiB, peak RSS $(peak_kib "$prog" --no-config "$f") KiB"
done
runs=3
c=$(wall_us sh -c 'cat "$1" | cat >/dev/null' sh "$f")
g=$(wall_us sh -c 'cat "$1" | "$2" --no-config - >/dev/null' sh "$f" \
    "$gguflint")
gr=$(peak_kib sh -c 'cat "$1" | "$2" --no-config -' sh "$f" "$gguflint")
echo "sparse llama 8b on a pipe: cat | gguflint - $((g / 1000)) ms," \
    "cat | cat $((c / 1000)) ms; peak RSS $gr KiB"
# --measure (llama.cpp reserves the compute buffers) beside the same run
# without it, both asking llama.cpp afresh (its answers dropped from
# gguflint's cache before each run, the probe's kept; the dropping's own
# time, timed on its own, taken off), and --measure answered from the
# cache, with llama.cpp's CPU libraries ($GGUFLINT_LLAMA/cpu, as
# build-aux/install-llama leaves them), on the sparse 8B and the bundled
# example; in a fresh cache, where a model is kept once its times are two
# seconds old.
llama=${GGUFLINT_LLAMA:-/opt/gguflint-ci/llama}/cpu
afresh='rm -f "$XDG_CACHE_HOME"/gguflint/llama-*.txt; exec "$@"'
if ls "$llama"/libllama* >/dev/null 2>&1; then
	runs=3
	sleep 3
	for m in "$f" "$(dirname "$0")/../examples/stories260K.gguf"; do (
		XDG_CACHE_HOME=$tmp/cache
		export XDG_CACHE_HOME
		set -- --no-config -p laptop_16gb --runtime "$llama"
		"$gguflint" "$@" --measure "$m" >/dev/null 2>&1 || true
		o=$(wall_us sh -c "$afresh" sh true)
		a=$(($(wall_us sh -c "$afresh" sh "$gguflint" "$@" "$m") - o))
		b=$(($(wall_us sh -c "$afresh" sh "$gguflint" "$@" --measure \
		    "$m") - o))
		"$gguflint" "$@" --measure "$m" >/dev/null 2>&1 || true
		c=$(wall_us "$gguflint" "$@" --measure "$m")
		echo "--measure on $(basename "$m"): $((b / 1000)) ms, without" \
		    "it $((a / 1000)) ms (both with the runtime's vocabulary" \
		    "load): $(awk "BEGIN{printf \"%.2fx\", $b/($a?$a:1)}");" \
		    "from the cache $((c / 1000)) ms"
	) done
else
	echo "(no libllama in $llama: skipping --measure)"
fi
rm -f "$f"

# --deep: a 1B model with real (pseudo-random) data, read from the page
# cache, beside cat of the same file; the goal is 70 % of cat's throughput.
f="$tmp/llama-1b-data.gguf"
"$gen" "$f" 1b-data >/dev/null
size=$(stat -c %s "$f")
cat "$f" >/dev/null; cat "$f" >/dev/null	# into the page cache
runs=10
c=$(wall_us cat "$f")
g=$(wall_us "$gguflint" --no-config --deep "$f")
gr=$(peak_kib "$gguflint" --no-config --deep "$f")
j=$(wall_us "$gguflint" --no-config --deep --format json "$f")
awk -v s="$size" -v c="$c" -v g="$g" -v j="$j" -v r="$gr" -v n="$(nproc)" 'BEGIN {
	printf "deep scan of %.0f MB (Q4_K/Q6_K/F32, in the page cache), %d threads:\n", s / 1e6, n
	printf "  cat %8.1f ms  %6.2f GB/s\n", c / 1000, s / c / 1000
	printf "  --deep %5.1f ms  %6.2f GB/s  (%.0f%% of cat; peak RSS %d KiB): the D rules\n", g / 1000, s / g / 1000, 100 * c / g, r
	printf "  --deep --format json %5.1f ms  %6.2f GB/s  (%.0f%% of cat): and statistics, SHA-256\n", j / 1000, s / j / 1000, 100 * c / j
}'

# A scan: every corpus file 10 times (--files-from), --jobs 1 beside one
# job per CPU, the same report (jsonl) either way.
if [ -d "$shared/corpus" ]; then
	list="$tmp/scan.txt"
	i=0
	while [ $i -lt 10 ]; do
		find "$shared/corpus" -name '*.gguf' | sort
		i=$((i + 1))
	done >"$list"
	n=$(wc -l <"$list")
	runs=5
	a=$(wall_us "$gguflint" --no-config --format jsonl --jobs 1 \
	    --files-from "$list")
	b=$(wall_us "$gguflint" --no-config --format jsonl --jobs "$(nproc)" \
	    --files-from "$list")
	ar=$(peak_kib "$gguflint" --no-config --format jsonl --jobs 1 \
	    --files-from "$list")
	br=$(peak_kib "$gguflint" --no-config --format jsonl \
	    --jobs "$(nproc)" --files-from "$list")
	awk -v n="$n" -v a="$a" -v b="$b" -v ar="$ar" -v br="$br" \
	    -v j="$(nproc)" 'BEGIN {
		printf "scan of %d corpus files: --jobs 1 %.0f ms (peak RSS %s KiB), --jobs %d %.0f ms (peak RSS %s KiB): %.2fx\n", n, a / 1000, ar, j, b / 1000, br, a / (b ? b : 1)
	}'
fi
