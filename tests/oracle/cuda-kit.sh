#!/bin/sh
# tests/oracle/cuda-kit.sh - packs what tests/oracle/measure-cuda.sh needs
# on a GPU machine that reaches no registry, in a few MB:
# - llama.cpp's source (build-aux/install-llama's llama-src.tar.xz);
# - the sparse oracle models in WTYPES (default q4_0 f16 q8_0), and the
#   footprint's 1B and 8B Llama shapes (bench/gen-sparse);
# - the architectures to measure, placed ones first (archs).
#
# Usage (from the build tree, after make check and make bench/gen-sparse):
#   sh tests/oracle/cuda-kit.sh [BUILDDIR [KIT]]   (default . and cuda-kit)
# Then, on the GPU machine, from the source tree:
#   sh tests/oracle/measure-cuda.sh KIT OUT
set -eu
build=${1:-.}
kit=${2:-cuda-kit}
llama=${GGUFLINT_LLAMA:-/opt/gguflint-ci/llama}
wtypes=${WTYPES:-q4_0 f16 q8_0}
if [ ! -f "$llama/llama-src.tar.xz" ]; then
	echo "cuda-kit: $llama/llama-src.tar.xz is missing" \
	    "(build-aux/install-llama writes it)" >&2
	exit 2
fi
rm -rf "$kit"
mkdir -p "$kit/models/footprint"
cp "$llama/llama-src.tar.xz" "$llama/VERSION" "$kit/"
for t in $wtypes; do
	mkdir "$kit/models/$t"
	"$build/tests/oracle-gen" "$kit/models/$t" "$t" >/dev/null
done
for s in 1b 8b; do
	"$build/bench/gen-sparse" "$kit/models/footprint/$s.gguf" "$s" \
	    >/dev/null
done
"$build/tests/oracle-gen" --list >"$kit/archs.all"
"$build/gguflint" --list-archs |
    awk 'NR > 1 && $4 == "placed" { print $1 }' >"$kit/archs.placed"
{
	grep -xF -f "$kit/archs.all" "$kit/archs.placed"
	grep -vxF -f "$kit/archs.placed" "$kit/archs.all"
} >"$kit/archs"
rm "$kit/archs.all" "$kit/archs.placed"
tar -C "$kit" -cSf - models | xz -6 >"$kit/models.tar.xz"
rm -rf "$kit/models"
echo "cuda-kit: $kit, $(du -sh "$kit" | cut -f1)," \
    "$(wc -l <"$kit/archs") architectures"
