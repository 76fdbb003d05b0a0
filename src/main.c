/*
 * main.c - gguflint's entry point: parse the options, hand them to the
 * session, exit with its status.
 */
#include "config.h"

#include <stdio.h>

#include "cli/options.h"
#include "cli/session.h"

int
main(int argc, char **argv)
{
	struct options o;
	struct gl_error err;
	int status;

	if (options_parse(&o, argc, argv, &err) < 0) {
		fprintf(stderr, "gguflint: %s (see --help)\n", err.msg);
		options_free(&o);
		return 2;
	}
	status = session_main(&o);
	options_free(&o);
	return status;
}
