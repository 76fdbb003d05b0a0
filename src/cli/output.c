/*
 * output.c - --output FILE (output.h): stdout pointed at FILE.tmp-PID
 * before anything is written, and renamed into FILE's place once the
 * report is complete.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/error.h"
#include "base/util.h"
#include "cli/output.h"

int
output_open(const char *path, struct output *k, struct gl_error *err)
{
	struct stat st;
	int fd, e;

	memset(k, 0, sizeof *k);
	k->name = path != NULL ? path : "output";
	k->saved = -1;
	if (path == NULL)
		return 0;
	if (fflush(stdout) != 0)
		return gl_error_setk(err, GL_ERR_IO, "error writing output: "
		    "%s", strerror(errno));
	if (lstat(path, &st) < 0 || S_ISREG(st.st_mode)) {
		k->tmp = xasprintf("%s.tmp-%ld", path, (long)getpid());
		fd = open(k->tmp, O_WRONLY | O_CREAT | O_EXCL, 0666);
	} else
		fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0666);
	if (fd >= 0 && fd != STDOUT_FILENO)
		k->saved = dup(STDOUT_FILENO);	/* -1: stdout was closed */
	if (fd < 0 || (fd != STDOUT_FILENO && dup2(fd, STDOUT_FILENO) < 0)) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			if (k->tmp != NULL)
				unlink(k->tmp);
		}
		if (k->saved >= 0)
			close(k->saved);
		free(k->tmp);
		return gl_error_setk(err, GL_ERR_IO, "--output %s: %s", path,
		    strerror(e));
	}
	if (fd != STDOUT_FILENO)
		close(fd);
	k->open = true;
	return 0;
}

int
output_close(struct output *k, bool keep)
{
	bool flushed;
	int rc = 0, e = 0;

	if (!k->open)
		return 0;
	k->open = false;
	flushed = fflush(stdout) == 0;
	if ((close(STDOUT_FILENO) < 0 || !flushed) && keep) {
		e = errno;
		rc = -1;
	}
	/* what a failed flush left in the buffer must not reach stdout */
	if (k->saved >= 0 && flushed)
		dup2(k->saved, STDOUT_FILENO);
	if (k->saved >= 0)
		close(k->saved);
	if (k->tmp != NULL && rc == 0 && keep && rename(k->tmp, k->name) < 0) {
		e = errno;
		rc = -1;
	}
	if (k->tmp != NULL && (rc < 0 || !keep))
		unlink(k->tmp);
	free(k->tmp);
	k->tmp = NULL;
	errno = e;
	return rc;
}
