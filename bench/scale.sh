#!/bin/sh
# bench/scale.sh - headers built to be slow, at doubling sizes: the time per
# record must stay flat (linear time) and peak RSS must stay a small
# multiple of the header. Usage: scale.sh GGUFLINT GEN-SLOW
set -eu
gguflint=$1
gen=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%-11s %8s %10s %10s %12s %10s %8s\n' kind records header_B wall_ms \
    ns_per_record rss_KiB rss/hdr
for kind in keys dupkeys tensors duptensors nested; do
	for n in 50000 100000 200000 400000; do
		f="$tmp/$kind-$n.gguf"
		"$gen" "$f" "$n" "$kind"
		size=$(stat -c %s "$f")
		start=$(date +%s%N)
		"$gguflint" --no-config "$f" >/dev/null 2>&1 || true
		end=$(date +%s%N)
		if [ -x /usr/bin/time ]; then
			rss=$(/usr/bin/time -f %M "$gguflint" --no-config "$f" \
			    2>&1 >/dev/null | tail -n 1)
		else
			rss=0
		fi
		ms=$(( (end - start) / 1000000 ))
		awk -v k="$kind" -v n="$n" -v s="$size" -v ms="$ms" -v r="$rss" \
		    -v t="$((end - start))" 'BEGIN { printf "%-11s %8d %10d %10d %12.1f %10d %8.2f\n", k, n, s, ms, t / n, r, r * 1024 / s }'
		rm -f "$f"
	done
done
