/*
 * benchcommon.c - the clock and the header loading of the remote
 * benchmarks (see benchcommon.h).
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "benchcommon.h"
#include "reader/gguf.h"

double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The header of path (up to its data) into f, its size in *size. */
int
load_header(const char *path, struct httpd_file *f, const char *name)
{
	struct gguf_file g;
	struct gl_error err;
	struct stat st;
	void *p;
	int fd;

	if (gguf_open(&g, path, &err) < 0) {
		fprintf(stderr, "remote: %s\n", err.msg);
		return -1;
	}
	gguf_parse(&g, NULL);
	f->len = g.header_complete ? (size_t)g.data_offset : 0;
	gguf_close(&g);
	if (f->len == 0 || (fd = open(path, O_RDONLY)) < 0 ||
	    fstat(fd, &st) < 0) {
		fprintf(stderr, "remote: %s: no header\n", path);
		return -1;
	}
	p = xmalloc(f->len);
	if (pread(fd, p, f->len, 0) != (ssize_t)f->len) {
		close(fd);
		free(p);
		return -1;
	}
	close(fd);
	f->data = p;
	f->size = (uint64_t)st.st_size;
	f->name = name;
	return 0;
}
