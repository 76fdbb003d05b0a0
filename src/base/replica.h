/*
 * replica.h - the llama.cpp build whose allocations gguflint's memory plan
 * replicates (src/plan/plan-llama.c, fit-*.c, graph*.c, galloc.c,
 * sched.c, vkorder.c), named once: the libraries build-aux/install-llama
 * installs and tests/oracle measured. A llama.cpp profile plans that
 * build, runtime_version_parse() takes its name, and the JSON plan names
 * it ("replica"). Changing the build means changing this file, and
 * tests/test_replica.c holds the other places that must name the same
 * build to it: build-aux/install-llama's version, Makefile.am's
 * llama_release (the oracle's library names), the release line of
 * rules/runtime/llama.cpp.yaml (tools/gen-runtime-versions reads this
 * file), and the installed libraries themselves when they are there.
 * Only macros: base includes nothing, and every layer may include it.
 */
#ifndef GGUFLINT_REPLICA_H
#define GGUFLINT_REPLICA_H

/*
 * The llama.cpp release: its tag, as node-llama-cpp names it
 * (llama.cpp.info.json; CMake's LLAMA_VERSION 0.5.0, built as
 * "0.5.0-dev"). It starts with 'v': runtime_version_parse() also takes
 * it without.
 */
#define REPLICA_LLAMA_CPP "v0.5.0"

/*
 * The commit the libraries were built at, as they report it
 * (ggml_commit() and llama.cpp's build info give its first seven digits,
 * REPLICA_COMMIT_SHORT). It is node-llama-cpp's, not llama.cpp's: its
 * 3.22.1 release (the npm package's gitHead), in whose checkout llama.cpp
 * was built (its llama/llama.cpp is no git checkout there, so llama.cpp's
 * build info names the checkout around it). llama.cpp's source is the
 * v0.5.0 tag squashed into one commit ("llama.cpp : bump version to 0.5.0
 * (#29333)") in node-llama-cpp's llama/gitRelease.bundle; its tree is
 * fd570ef54b10ec5fecb739e7e04c8ce44a6f415a, upstream's tree of that
 * commit.
 */
#define REPLICA_COMMIT "0ad4a867b05f35def42ffc84d501e9a55077b531"
#define REPLICA_COMMIT_SHORT "0ad4a86"

/* The day of the build (node-llama-cpp 3.22.1's release, and its
 * squashed llama.cpp snapshot): the release date of
 * rules/runtime/llama.cpp.yaml. */
#define REPLICA_DATE "2026-09-28"

/* ggml's version in that source (ggml/CMakeLists.txt; ggml_version()). */
#define REPLICA_GGML "0.25.1"

/* The npm package whose prebuilt libraries those are
 * (@node-llama-cpp/linux-x64 and linux-x64-vulkan of that version). */
#define REPLICA_NODE_LLAMA_CPP "3.22.1"

/*
 * The device the Vulkan figures were measured and fitted on (tests/oracle,
 * measured-vulkan.tsv): Mesa's software rasterizer, as ggml names it, and
 * its driver (Debian 12's mesa-vulkan-drivers, 22.3.6-1+deb12u2).
 */
#define REPLICA_VULKAN_DEVICE "llvmpipe (LLVM 15.0.6, 256 bits)"
#define REPLICA_VULKAN_DRIVER "Mesa 22.3.6"

#endif
