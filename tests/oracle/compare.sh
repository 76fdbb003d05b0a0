#!/bin/sh
# tests/oracle/compare.sh - the note's table: gguflint's llama.cpp plan
# against the measured tables, per architecture and buffer, the worst
# ratio (plan / llama.cpp) of each column over every measured case.
#
# Usage (from the build tree):
#   sh tests/oracle/compare.sh [BUILDDIR [TABLE [WTYPE]]]
# BUILDDIR holds gguflint and tests/oracle-gen (default .); TABLE is a
# measured table (default measured-cpu.tsv beside this script; rows of
# mode sim that llama.cpp accepted), WTYPE the weights' type of the rows
# compared (default q4_0; measured-vulkan.tsv also has f16 and q8_0).
# Needs jq and a gguflint with the llama.cpp plan (issue 14). Prints,
# per architecture, the lowest and the highest ratio of weights, repack,
# kv and compute, and the number of cases outside the goal (weights,
# repack, kv exact; compute within 10 %).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-.}
table=${2:-$here/measured-cpu.tsv}
wtype=${3:-q4_0}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT INT TERM

"$build/tests/oracle-gen" "$work" "$wtype" >/dev/null

# profile VARIANT BACKEND: a llama.cpp profile of this host's library.
profile() {
	case $1 in
	zen4) f='[avx2, f16c, fma, avx512, avx512_vnni, avx512_bf16]' ;;
	haswell) f='[avx2, f16c, fma]' ;;
	*) f='[sse42]' ;;
	esac
	p=$work/$1-$2.yaml
	{
		echo "name: oracle_$1_$2"
		echo "description: the oracle's host ($1 library, $2)"
		echo "runtime: llama.cpp"
		echo "backend: $2"
		echo "cpu_features: $f"
		echo "memory: 64 GiB"
		[ "$2" = cpu ] || echo "device_memory: 8 GiB"
		echo "reserve: 1 GiB"
		echo "weights: mapped"
		echo "strict: false"
		echo "context: 4096"
		echo "kv_cache: f16"
		echo "ubatch: 512"
		echo "flash_attention: true"
	} >"$p"
	echo "$p"
}

# one line per case: arch, then plan/llama ratios of the four buffers
awk -F'\t' -v wt="$wtype" \
    'NR > 1 && $2 == wt && $3 == "sim" && $13 == "ok"' "$table" |
    while IFS='	' read -r arch _wt _mode backend variant ctx ub fa ctk \
    ctv np ngl _st _nctx _fau weights repack kv compute _rest; do
	prof=$(profile "$variant" "$backend")
	"$build/gguflint" --no-config --format json --plan -p "$prof" \
	    -c "$ctx" -ctk "$ctk" -ctv "$ctv" -fa "$fa" -ub "$ub" -b 2048 \
	    -np "$np" -ngl "$ngl" --no-mmap "$work/$arch.gguf" 2>/dev/null |
	    jq -r --arg a "$arch" --argjson w "$weights" --argjson r "$repack" \
	    --argjson k "$kv" --argjson c "$compute" '
	    .files[0].plan as $p
	    | def ratio(x; y): if y == 0 then (if x == 0 then 1 else 99 end)
	        else x / y end;
	    [$a, ratio([$p.devices[].model_bytes] | add; $w),
	     ratio($p.repack_bytes; $r),
	     ratio($p.kv_bytes + ($p.state_bytes // 0); $k),
	     ratio($p.compute_bytes; $c)] | @tsv' || echo "$arch	error"
done >"$work/ratios"

printf 'arch\tcases\tweights\trepack\tkv\tcompute\toutside\n'
awk -F'\t' '
function upd(i, v) {
	if (!((a, i) in lo) || v < lo[a, i]) lo[a, i] = v
	if (!((a, i) in hi) || v > hi[a, i]) hi[a, i] = v
}
$2 == "error" { err[$1]++; next }
{
	a = $1; n[a]++
	for (i = 2; i <= 5; i++) upd(i, $i)
	if ($2 != 1 || $3 != 1 || $4 != 1 || $5 < 0.9 || $5 > 1.1) out[a]++
}
END {
	for (a in n) {
		line = a "\t" n[a]
		for (i = 2; i <= 5; i++)
			line = line sprintf("\t%.2f-%.2f", lo[a, i], hi[a, i])
		print line "\t" (out[a] + 0) (err[a] ? " (+" err[a] " errors)" : "")
	}
}' "$work/ratios" | sort
