/*
 * oraclegen.h - sparse test models for the llama.cpp oracle: for each
 * architecture gguflint has a name map of, a small but realistic geometry
 * (metadata, a minimal SentencePiece vocabulary llama.cpp's loader
 * accepts) and the tensors the map requires for it, their shapes
 * evaluated from the map's own expressions. The data is a hole (zeros):
 * the files are tiny on disk and only their sizes matter.
 *
 * Test-only code (tests/test_oracle.c and the tests/oracle-gen program).
 */
#ifndef GGUFLINT_ORACLEGEN_H
#define GGUFLINT_ORACLEGEN_H

#include <stdbool.h>
#include <stddef.h>

/* oraclegen_arch: the i-th architecture the generator has a geometry of,
 * or NULL past the end (static strings). */
const char *oraclegen_arch(size_t i);

/* oraclegen_wide: the i-th geometry of a real model's proportions (its
 * name, "llama-wide", for oraclegen_write), or NULL past the end. */
const char *oraclegen_wide(size_t i);

/*
 * oraclegen_write: write the sparse model of architecture arch (or of a
 * geometry oraclegen_wide names) to path,
 * its matrices of ggml type wtype ("q4_0", "q8_0" or "f16"; norms,
 * biases and small state tensors stay f32). Returns 0, or -1 with a
 * message in why (a static or caller-sized buffer of whylen bytes): no
 * geometry for arch, no name map, a required tensor whose shape the map
 * cannot say, an I/O error.
 */
int oraclegen_write(const char *arch, const char *wtype, const char *path,
    char *why, size_t whylen);

/* The one change of a mutant: a tensor left out, renamed (an "_x" before
 * its last dot), its first dimension grown by one block, or a tensor of
 * that new name added beside it. */
enum oraclegen_mutation {
	OG_MUT_DROP,
	OG_MUT_RENAME,
	OG_MUT_RESHAPE,
	OG_MUT_ADD
};

/*
 * oraclegen_mutant: oraclegen_write's model of arch with one change, of
 * the k-th tensor it writes (k modulo their count), described in what
 * (whatlen bytes: "blk.1.attn_k.weight left out"). Returns 0, or -1 with
 * a message in why.
 */
int oraclegen_mutant(const char *arch, const char *wtype, const char *path,
    enum oraclegen_mutation kind, size_t k, char *what, size_t whatlen,
    char *why, size_t whylen);

/* Whether w is one of the space-separated words of words. */
bool oraclegen_word_in(const char *words, const char *w);

#endif
