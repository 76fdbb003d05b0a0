/*
 * severity.c - naming and parsing severities (see severity.h).
 */
#include "config.h"

#include <string.h>

#include "findings/severity.h"

const char *
severity_name(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "error";
	case SEV_WARNING:
		return "warning";
	default:
		return "info";
	}
}

const char *const severity_names[] = { "info", "warning", "error", NULL };

int
severity_parse(const char *s, enum severity *out)
{
	int i;

	for (i = 0; severity_names[i] != NULL; i++)
		if (strcmp(s, severity_names[i]) == 0) {
			*out = (enum severity)i;
			return 0;
		}
	return -1;
}
