/*
 * version.h - which gguflint this is: the release configure.ac names
 * (PACKAGE_VERSION, in config.h) and, for a build made in a git checkout,
 * the commit it was built from.
 *
 * The commit is written by make into src/base/commit.c, a generated file,
 * at every build: twelve hex digits, "-dirty" after them when the checkout
 * had changes, or "" for a build from a release tarball.
 */
#ifndef GGUFLINT_VERSION_H
#define GGUFLINT_VERSION_H

extern const char gguflint_commit[];

#endif
