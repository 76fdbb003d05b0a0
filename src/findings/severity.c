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

int
severity_parse(const char *s, enum severity *out)
{
	if (strcmp(s, "error") == 0)
		*out = SEV_ERROR;
	else if (strcmp(s, "warning") == 0)
		*out = SEV_WARNING;
	else if (strcmp(s, "info") == 0)
		*out = SEV_INFO;
	else
		return -1;
	return 0;
}
