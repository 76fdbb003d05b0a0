#!/bin/sh
# tests/oracle/measure-cuda.sh - llama.cpp v0.5.0's CUDA backend measured
# on the machine this runs on: an NVIDIA GPU with its driver, CUDA's nvcc,
# CMake, ninja and a C++ compiler; no registry is needed.
#
# 1. It builds libllama with ggml-cuda from the kit's source, for this
#    GPU's architecture alone, and the oracle client against it.
# 2. It measures every case of the matrix with llama.cpp's no_alloc mode:
#    -ngl 0, 2 and all; flash attention on and off; f16 and q8_0 caches;
#    one and four sequences; ctx 4096 and 32768. Architectures go in the
#    kit's order (placed ones first), and the answers are written as they
#    come. The client starts CUDA once for many cases.
# 3. With real allocations on the 1B and 8B shapes, it reads what the
#    device loses beyond llama.cpp's buffers (the footprint): free memory
#    before the model, after it, after the context and after one decode,
#    beside nvidia-smi's reading with no process on the GPU.
#
# Usage:
#   sh tests/oracle/measure-cuda.sh KIT OUT     measure (on the GPU machine)
#   sh tests/oracle/measure-cuda.sh --table OUT  print measured-cuda.tsv
#                                                from OUT's answers (jq)
# KIT is tests/oracle/cuda-kit.sh's folder. Everything is built and kept
# in WORK (default KIT/work), and a second run reuses the build; nothing
# outside WORK and OUT is written. OUT gets cuda-cases.tsv (each case's twelve key columns
# and the client's JSON answer), footprint.tsv (the same for the
# footprint's cases, with nvidia-smi's idle reading) and cuda-run.txt
# (the GPU, its driver, CUDA, the build's and the measuring's seconds,
# how many cases of how many).
# Environment: BUILD_ONLY=1 stops after the build (a first call of a
# few minutes, the measuring in a second one); BUDGET_S bounds the
# measuring in seconds (default 420; the build is not counted), WTYPES the weight types (default q4_0),
# ARCHS the architectures (default the kit's list), CUDA_ARCH the GPU
# architecture (default native), JOBS the build's jobs (default nproc),
# CUDA=off builds and measures the CPU alone (to test this script on a
# machine without a GPU).
set -eu
here=$(cd "$(dirname "$0")" && pwd)

# the table: the header of measure.sh, one row an answer (row.jq)
if [ "${1:-}" = "--table" ]; then
	out=${2:?usage: measure-cuda.sh --table OUT}
	sed -n "s/^header='\(.*\)'$/\1/p" "$here/measure.sh"
	while IFS= read -r line; do
		printf '%s\t' "$(printf '%s\n' "$line" | cut -f1-12)"
		printf '%s\n' "$line" | cut -f13- | jq -r -f "$here/row.jq"
	done <"$out/cuda-cases.tsv"
	exit 0
fi

kit=$(cd "${1:?usage: measure-cuda.sh KIT OUT}" && pwd)
out=${2:?usage: measure-cuda.sh KIT OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
work=${WORK:-$kit/work}
cuda=${CUDA:-on}
budget=${BUDGET_S:-420}
wtypes=${WTYPES:-q4_0}
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$work"
log=$out/cuda-run.txt
: >"$log"
say() { echo "$*" | tee -a "$log"; }

say "measure-cuda: $(date -u +%FT%TZ) on $(uname -n)"
if [ "$cuda" = on ]; then
	nvidia-smi --query-gpu=name,driver_version,compute_cap,memory.total \
	    --format=csv,noheader | sed 's/^/gpu: /' | tee -a "$log"
	nvcc --version | tail -n 1 | sed 's/^/nvcc: /' | tee -a "$log"
fi

# 1. the build: the kit's source, this GPU's architecture, the CPU
# backend as ggml's haswell variant (the tables' CPU)
t0=$(date +%s)
if [ ! -d "$work/src" ]; then
	mkdir "$work/src"
	xz -dc "$kit/llama-src.tar.xz" | tar -xf - -C "$work/src"
fi
if [ ! -f "$work/models/q4_0/llama.gguf" ]; then
	xz -dc "$kit/models.tar.xz" | tar -xSf - -C "$work"
fi
cmake -S "$work/src" -B "$work/build-$cuda" -G Ninja \
    -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=ON \
    -DGGML_CUDA="$cuda" -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-native}" \
    -DGGML_NATIVE=OFF -DGGML_SSE42=ON -DGGML_AVX=ON -DGGML_F16C=ON \
    -DGGML_FMA=ON -DGGML_AVX2=ON -DGGML_BMI2=ON -DGGML_AVX512=OFF \
    -DLLAMA_BUILD_COMMON=OFF -DLLAMA_BUILD_TESTS=OFF \
    -DLLAMA_BUILD_TOOLS=OFF -DLLAMA_BUILD_EXAMPLES=OFF \
    -DLLAMA_BUILD_SERVER=OFF -DLLAMA_BUILD_APP=OFF -DLLAMA_OPENSSL=OFF \
    >"$work/cmake.log" 2>&1 || { tail -n 30 "$work/cmake.log"; exit 1; }
ninja -C "$work/build-$cuda" -j "${JOBS:-$(nproc)}" llama \
    >"$work/ninja.log" 2>&1 || { tail -n 30 "$work/ninja.log"; exit 1; }
lib=$work/build-$cuda/bin
client=$work/llama-oracle-$cuda
${CXX:-g++} -std=c++17 -O1 -Wall -Wextra -I"$work/src/include" \
    -I"$work/src/ggml/include" -I"$work/src/src" \
    -o "$client" "$here/llama-oracle.cpp" -L"$lib" -lllama -lggml \
    -lggml-cpu -lggml-base -Wl,-rpath,"$lib"
say "build: $(($(date +%s) - t0)) s (CUDA $cuda, ${JOBS:-$(nproc)} jobs)"
[ -z "${BUILD_ONLY:-}" ] || exit 0

# 2. the cases: the table's key columns, a tab, the client's arguments
backend=cuda
[ "$cuda" = on ] || backend=cpu
archs=${ARCHS:-$(cat "$kit/archs")}
cases=$work/cases
: >"$cases"
for wt in $wtypes; do
	for arch in $archs; do
		m=$work/models/$wt/$arch.gguf
		[ -f "$m" ] || continue
		for ngl in 99 2 0; do
		for ctx in 4096 32768; do
		for fa in on off; do
		for kv in f16 q8_0; do
		for np in 1 4; do
			printf '%s\t%s\tsim\t%s\thaswell\t%s\t512\t%s\t%s\t%s\t%s\t%s\t' \
			    "$arch" "$wt" "$backend" "$ctx" "$fa" "$kv" \
			    "$kv" "$np" "$ngl"
			printf '%s dir=linked ctx=%s ubatch=512 batch=2048 fa=%s ctk=%s ctv=%s np=%s ngl=%s mmap=off alloc=off\n' \
			    "$m" "$ctx" "$fa" "$kv" "$kv" "$np" "$ngl"
		done; done; done; done; done
	done
done >>"$cases"

# run_cases CASES ANSWERS: every case through the batch client, in
# chunks; a case the client dies or hangs on is answered so and the
# rest go on in a new client; stops at the budget
run_cases() {
	n=$(wc -l <"$1")
	i=1
	while [ "$i" -le "$n" ]; do
		if [ $(($(date +%s) - t1)) -ge "$budget" ]; then
			say "budget of $budget s spent at case $i of $n"
			break
		fi
		sed -n "${i},$((i + 199))p" "$1" >"$work/chunk"
		k=$(wc -l <"$work/chunk")
		cut -f13- "$work/chunk" |
		    timeout $((k + 60)) "$client" --batch 2>"$work/client.err" |
		    grep '^{' >"$work/answers" || true
		got=$(wc -l <"$work/answers")
		head -n "$got" "$work/chunk" | cut -f1-12 |
		    paste - "$work/answers" >>"$2"
		if [ "$got" -lt "$k" ]; then
			sed -n "$((got + 1))p" "$work/chunk" | cut -f1-12 |
			    sed 's/$/\t{"error": "crashed or timed out"}/' >>"$2"
			got=$((got + 1))
		fi
		i=$((i + got))
	done
	say "cases: $(wc -l <"$2") of $n"
}

t1=$(date +%s)
: >"$out/cuda-cases.tsv"
run_cases "$cases" "$out/cuda-cases.tsv"
say "matrix: $(($(date +%s) - t1)) s"

# 3. the footprint: real allocations, every layer offloaded
idle=
if [ "$cuda" = on ]; then
	idle=$(nvidia-smi --query-gpu=memory.used --format=csv,noheader,nounits |
	    head -n 1)
fi
say "idle memory.used (MiB): ${idle:-none}"
: >"$work/fcases"
# (without a GPU, the oracle's llama alone: an 8B decoded on the CPU
# takes minutes)
fmodels="footprint/1b:q4_K footprint/8b:q4_K q4_0/llama:q4_0"
[ "$cuda" = on ] || fmodels=q4_0/llama:q4_0
for m in $fmodels; do
	for ctx in 4096 32768; do
		printf '%s\t%s\treal\t%s\thaswell\t%s\t512\ton\tf16\tf16\t1\t99\t' \
		    "$(basename "${m%:*}")" "${m#*:}" "$backend" "$ctx"
		printf '%s dir=linked ctx=%s ubatch=512 batch=2048 fa=on np=1 ngl=99 mmap=on alloc=on footprint=on\n' \
		    "$work/models/${m%:*}.gguf" "$ctx"
	done
done >>"$work/fcases"
t1=$(date +%s)
budget=${FOOTPRINT_BUDGET_S:-120}
: >"$out/footprint.tsv"
run_cases "$work/fcases" "$out/footprint.tsv"
sed -i "s/\$/\tidle_used_mib=${idle:-none}/" "$out/footprint.tsv"
say "footprint: $(($(date +%s) - t0)) s since the build began"
