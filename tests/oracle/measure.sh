#!/bin/sh
# tests/oracle/measure.sh - regenerates the published tables of what
# llama.cpp allocates (tests/oracle/measured-*.tsv) over the full matrix:
# every generated architecture, two CPU variants, three contexts, flash
# attention on and off, three cache-type pairs, one and four sequences;
# and Vulkan (llvmpipe) with full and partial offload.
#
# Usage (from the build tree, after make check has built the programs):
#   sh tests/oracle/measure.sh [BUILDDIR [LLAMADIR [OUTDIR]]]
# BUILDDIR holds tests/oracle-gen and tests/oracle/llama-oracle-{cpu,vulkan}
# (default .), LLAMADIR is build-aux/install-llama's folder (default
# $GGUFLINT_LLAMA or /opt/gguflint-ci/llama), OUTDIR where the tables go
# (default tests/oracle of the source tree this script is in).
# Needs jq. One row per run; a run llama.cpp refuses is a row whose status
# says why. TABLES="vulkan" (any of cpu, repack, vulkan) rewrites only
# those tables; ARCHS="a b" measures those architectures alone and
# VARIANTS="haswell" those CPU variants (default zen4 haswell), for rows
# to add to a table by hand (then write to another OUTDIR); VK_VARIANT
# names the CPU library loaded beside Vulkan (default zen4).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-.}
llama=${2:-${GGUFLINT_LLAMA:-/opt/gguflint-ci/llama}}
out=${3:-$here}
models=$(mktemp -d)
trap 'rm -rf "$models"' EXIT INT TERM

wtypes="q4_0 q4_K q6_K q8_0 iq4_nl f16"
# the weight types of the Vulkan table: q4_0, then a type no CPU repacks
# and one Vulkan multiplies without dequantizing (op offload copies a
# host layer's weights to the device as stored)
vulkan_wtypes=${VULKAN_WTYPES:-q4_0 f16 q8_0}
archs=${ARCHS:-$("$build/tests/oracle-gen" --list)}
variants=${VARIANTS:-zen4 haswell}
# the CPU library beside Vulkan (zen4 where the host has AVX-512)
vk_variant=${VK_VARIANT:-zen4}
for t in $wtypes; do
	mkdir "$models/$t"
	"$build/tests/oracle-gen" "$models/$t" "$t" >/dev/null || true
done

header='arch	wtype	mode	backend	variant	ctx	ubatch	fa	ctk	ctv	n_seq	ngl	status	n_ctx	fa_used	weights_bytes	repack_bytes	kv_bytes	compute_bytes	k_mib	v_mib	r_mib	s_mib	output_mib	buffers'

# row BACKEND VARIANT CLIENT ARCH CTX FA CTK CTV NP NGL [WTYPE [MODE]]
# MODE sim: llama.cpp's no_alloc mode, mmap off (weights in CPU, not
# CPU_Mapped); mmap: real allocation of the sparse file, mmap on.
row() {
	backend=$1 variant=$2 client=$3 arch=$4 ctx=$5 fa=$6 ctk=$7 ctv=$8
	np=$9 ngl=${10} wtype=${11:-q4_0} mode=${12:-sim} ub=${13:-512}
	dir=$llama/$backend
	case $mode in
	sim | offgrid) io="mmap=off alloc=off" ;;
	*) io="mmap=on alloc=on" ;;
	esac
	# shellcheck disable=SC2086
	json=$(timeout 60 "$client" "$models/$wtype/$arch.gguf" dir="$dir" \
	    cpu="$variant" ctx="$ctx" ubatch="$ub" batch=2048 fa="$fa" \
	    ctk="$ctk" ctv="$ctv" np="$np" ngl="$ngl" $io 2>/dev/null) ||
	    json=${json:-'{"error": "crashed or timed out"}'}
	# a client that aborts (a GGML_ASSERT) may leave ggml's backtrace
	# on stdout, and no JSON line
	json=$(printf '%s\n' "$json" | grep '^{' | tail -n 1) || true
	json=${json:-'{"error": "crashed (no answer)"}'}
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t' \
	    "$arch" "$wtype" "$mode" "$backend" "$variant" "$ctx" "$ub" \
	    "$fa" "$ctk" "$ctv" "$np" "$ngl"
	printf '%s\n' "$json" | jq -r -f "$here/row.jq"
}

cpu_table() {
	echo "$header"
	for arch in $archs; do
	  for variant in $variants; do
	    for ctx in 512 4096 32768; do
	      for fa in on off; do
	        for kv in f16/f16 q8_0/q8_0 q8_0/f16; do
	          for np in 1 4; do
	            row cpu "$variant" "$build/tests/oracle/llama-oracle-cpu" \
	                "$arch" "$ctx" "$fa" "${kv%/*}" "${kv#*/}" "$np" 0
	          done
	        done
	      done
	    done
	  done
	done
}

vulkan_table() {
	echo "$header"
	for wt in $vulkan_wtypes; do
	for arch in $archs; do
	  for ngl in 99 2 0; do
	    for ctx in 512 4096; do
	      for fa in on off; do
	        for kv in f16/f16 q8_0/q8_0; do
	          for np in 1 4; do
	            GGML_VK_VISIBLE_DEVICES=0 row vulkan "$vk_variant" \
	                "$build/tests/oracle/llama-oracle-vulkan" "$arch" \
	                "$ctx" "$fa" "${kv%/*}" "${kv#*/}" "$np" "$ngl" "$wt"
	          done
	        done
	      done
	    done
	  done
	done
	done
}

# The off-grid block (mode offgrid: no_alloc, mmap off, as sim), appended
# to the Vulkan table: real shapes with a tied output and a 128k or 152k
# vocabulary (whose output matrix and copy of token_embd are beyond
# llvmpipe's 128 MiB), the small llama and qwen2, at contexts, ubatches,
# -ngl and sequences off the grid, FA on and off.
offgrid_table() {
	for m in llama-1b-tied/q8_0 qwen2-0.5b-tied/q8_0 llama-1b-tied/q4_0 \
	    llama/q8_0 qwen2/q4_0; do
	  arch=${m%/*} wt=${m#*/}
	  for ngl in 99 12 5; do
	    for ctx in 8192 20000; do
	      for ub in 256 1024; do
	        for fa in on off; do
	          for np in 1 2; do
	            GGML_VK_VISIBLE_DEVICES=0 row vulkan "$vk_variant" \
	                "$build/tests/oracle/llama-oracle-vulkan" "$arch" \
	                "$ctx" "$fa" f16 f16 "$np" "$ngl" "$wt" offgrid "$ub"
	          done
	        done
	      done
	    done
	  done
	done
}

# the repack copy by weight type and CPU variant (and mmap's buffers)
repack_table() {
	echo "$header"
	for arch in $archs; do
	  for t in $wtypes; do
	    for variant in zen4 haswell sse42 x64; do
	      for mode in sim mmap; do
	        row cpu "$variant" "$build/tests/oracle/llama-oracle-cpu" \
	            "$arch" 4096 on f16 f16 1 0 "$t" "$mode"
	      done
	    done
	  done
	done
}

# TABLES (default "cpu repack vulkan") picks the tables to rewrite.
case " ${TABLES:-cpu repack vulkan} " in
*" cpu "*) cpu_table >"$out/measured-cpu.tsv" ;;
esac
case " ${TABLES:-cpu repack vulkan} " in
*" repack "*) repack_table >"$out/measured-repack.tsv" ;;
esac
case " ${TABLES:-cpu repack vulkan} " in
*" vulkan "*) vulkan=yes ;;
*) vulkan=no ;;
esac
if [ "$vulkan" = yes ] && [ -e "$llama/vulkan/libggml-vulkan.so" ]; then
	export GGML_VK_VISIBLE_DEVICES=0
	vulkan_table >"$out/measured-vulkan.tsv"
fi
# TABLES="offgrid" (or with vulkan) appends the off-grid block.
case " ${TABLES:-cpu repack vulkan offgrid} " in
*" offgrid "*)
	if [ -e "$llama/vulkan/libggml-vulkan.so" ]; then
		for t in llama-1b-tied qwen2-0.5b-tied; do
			for w in q8_0 q4_0; do
				"$build/tests/oracle-gen" "$models/$w" "$w" "$t" \
				    >/dev/null
			done
		done
		export GGML_VK_VISIBLE_DEVICES=0
		offgrid_table >>"$out/measured-vulkan.tsv"
	fi
	;;
esac
