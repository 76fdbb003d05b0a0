/*
 * severity.h - how grave a finding is: info, warning or error. A rule has a
 * default severity (catalog.h), the policy may change it (policy.h), and
 * --fail-on compares against it.
 */
#ifndef GGUFLINT_SEVERITY_H
#define GGUFLINT_SEVERITY_H

enum severity {
	SEV_INFO = 0,
	SEV_WARNING = 1,
	SEV_ERROR = 2
};

/*
 * severity_name: "error", "warning" or "info" (static storage); a value
 * outside the enum is named "info".
 */
const char *severity_name(enum severity s);

/* severity_names: "info", "warning", "error" (indexed by enum severity),
 * then NULL. */
extern const char *const severity_names[];

/*
 * severity_parse: 0 with *out set when s is exactly "error", "warning" or
 * "info"; otherwise -1, and *out is left alone.
 */
int severity_parse(const char *s, enum severity *out);

#endif
