/*
 * configfile.c - loading .gguflint.yaml (see configfile.h).
 */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "base/suggest.h"
#include "data/builtin.h"
#include "cli/configfile.h"
#include "checks/declrule.h"
#include "target/kvtype.h"
#include "target/profile.h"
#include "data/yamlutil.h"

/* What the field setters share. */
struct cstate {
	struct catalog *cat;
	struct declset *decls;	/* the rule files' matchers */
	struct policy *pol;
	struct config *cfg;
	const char *dir;	/* the configuration file's directory */
	bool load_rules;	/* read the rule files it names */
};

char *
config_find(void)
{
	char dir[PATH_MAX], *slash;
	struct stat st;

	if (getcwd(dir, sizeof dir) == NULL)
		return NULL;
	for (;;) {
		char *path = xasprintf("%s/%s", strcmp(dir, "/") == 0 ? "" :
		    dir, CONFIG_NAME);

		if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
			return path;
		free(path);
		slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0)
			return NULL;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/* A rule item (code, slug or family letter) the catalogue knows. */
static int
rule_item(struct ydoc *d, yaml_node_t *n, const struct catalog *cat,
    const char **out, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	size_t i;

	for (i = 0; s != NULL && i < cat->n; i++)
		if (diag_item_matches(s, &cat->rules[i]))
			break;
	if (s == NULL || *s == '\0' || i == cat->n) {
		char hint[SUGGEST_HINT_SIZE];

		return ydoc_error(d, n, err, "unknown rule '%s': expected a "
		    "code, slug or family letter (see --list-rules)%s",
		    s ? s : "?", s ? diag_item_hint(cat, s, hint) : "");
	}
	*out = s;
	return 0;
}

/* A list of rule items (a sequence, or one comma-separated string). */
static int
rule_list(struct ydoc *d, yaml_node_t *n, const struct catalog *cat,
    struct diag_filter *f, int is_ignore, struct gl_error *err)
{
	yaml_node_item_t *it;
	const char *s;

	if (n->type == YAML_SCALAR_NODE) {
		struct gl_error e2;

		if (diag_filter_add(f, cat, ydoc_scalar(n), is_ignore, &e2) < 0)
			return ydoc_error(d, n, err, "%s", e2.msg);
		return 0;
	}
	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of codes, slugs "
		    "or family letters");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		if (rule_item(d, ydoc_node(d, *it), cat, &s, err) < 0)
			return -1;
		diag_filter_add(f, cat, s, is_ignore, err);
	}
	return 0;
}

void
config_profile_hint(const char *name, struct gl_error *err)
{
	const char *const *names;
	char hint[SUGGEST_HINT_SIZE];
	struct suggest sg;
	size_t len;

	if (err == NULL || err->kind != GL_ERR_NOT_FOUND ||
	    strchr(name, '/') != NULL)
		return;
	suggest_init(&sg, name);
	for (names = profile_builtin_names(); *names != NULL; names++)
		suggest_offer(&sg, *names);
	suggest_hint(&sg, NULL, hint);
	len = strlen(err->msg);
	snprintf(err->msg + len, sizeof err->msg - len, "%s", hint);
}

/*
 * at_node: err, a failure to find or read a file named at n (a profile, a
 * rule file), becomes "FILE:LINE:COL: " and its message, of its own kind;
 * an error inside that file (GL_ERR_PARSE) names its own place and is
 * left as it is. Returns -1.
 */
static int
at_node(struct ydoc *d, yaml_node_t *n, struct gl_error *err)
{
	struct gl_error inner;

	if (err == NULL || err->kind == GL_ERR_PARSE)
		return -1;
	inner = *err;
	ydoc_error(d, n, err, "%s", inner.msg);
	err->kind = inner.kind;
	return -1;
}

/* profile: a built-in name or a path, relative to the configuration
 * file; checked now (when the rule files are read too), so that a
 * mistyped one is reported where it is written. */
static int
c_profile(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	struct profile p;
	const char *s;
	size_t len;
	bool path;

	if (ydoc_string(d, n, &s, err) < 0)
		return -1;
	/* a path as profile_load tells one: a slash, or a .yaml name */
	len = strlen(s);
	path = strchr(s, '/') != NULL ||
	    (len > 5 && strcmp(s + len - 5, ".yaml") == 0);
	c->cfg->profile = path && s[0] != '/' ?
	    xasprintf("%s/%s", c->dir, s) : xstrdup(s);
	if (!c->load_rules)
		return 0;
	if (profile_load(c->cfg->profile, &p, err) < 0) {
		config_profile_hint(c->cfg->profile, err);
		return at_node(d, n, err);
	}
	profile_free(&p);
	return 0;
}

/* baseline: a path, relative to the configuration file. */
static int
c_baseline(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	const char *s;

	if (ydoc_string(d, n, &s, err) < 0)
		return -1;
	free(c->cfg->baseline);
	c->cfg->baseline = s[0] == '/' ? xstrdup(s) :
	    xasprintf("%s/%s", c->dir, s);
	return 0;
}

/*
 * cacert: the CA certificates for https:// (a PEM file, relative to the
 * configuration's folder), checked when a URL is read: a local lint does
 * not need the file.
 */
static int
c_cacert(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	const char *s;

	if (ydoc_string(d, n, &s, err) < 0)
		return -1;
	if (*s == '\0')
		return ydoc_error(d, n, err, "expected the path of a file of "
		    "CA certificates");
	free(c->cfg->cacert);
	free(c->cfg->cacert_at);
	c->cfg->cacert = s[0] == '/' ? xstrdup(s) :
	    xasprintf("%s/%s", c->dir, s);
	c->cfg->cacert_at = xasprintf("%s:%lu:%lu: cacert", d->origin,
	    (unsigned long)n->start_mark.line + 1,
	    (unsigned long)n->start_mark.column + 1);
	return 0;
}

/* max-per-rule: a number of findings, 0 for all. */
static int
c_max_per_rule(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct config *cfg = ((struct cstate *)o)->cfg;
	const char *s = ydoc_scalar(n);
	unsigned long long v;
	char *end;

	errno = 0;
	if (s == NULL || *s < '0' || *s > '9' ||
	    (v = strtoull(s, &end, 10), errno != 0 || *end != '\0') ||
	    v > 1000000000)
		return ydoc_error(d, n, err, "expected a number of findings "
		    "from 0 (all) to 1000000000");
	cfg->has_max_per_rule = true;
	cfg->max_per_rule = v;
	return 0;
}

static int
c_kv(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	enum kv_type kv;

	if (s == NULL || kv_type_parse(s, &kv) < 0)
		return ydoc_error(d, n, err, "expected a KV cache type: %s",
		    kv_type_names());
	((struct cstate *)o)->cfg->kv = xstrdup(s);
	return 0;
}

/* cache_type_k, cache_type_v: as kv, for K or V alone. */
static int
c_kv_type(struct ydoc *d, yaml_node_t *n, char **dst, const char *which,
    struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	enum kv_type kv;

	if (s == NULL || kv_type_parse(s, &kv) < 0)
		return ydoc_error(d, n, err, "expected a %s cache type: %s",
		    which, kv_type_names());
	*dst = xstrdup(s);
	return 0;
}

static int
c_kv_k(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return c_kv_type(d, n, &((struct cstate *)o)->cfg->kv_k, "K", err);
}

static int
c_kv_v(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	return c_kv_type(d, n, &((struct cstate *)o)->cfg->kv_v, "V", err);
}

static int
c_flash_attn(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	const char *s = ydoc_scalar(n);

	if (s == NULL || (strcmp(s, "on") != 0 && strcmp(s, "off") != 0 &&
	    strcmp(s, "auto") != 0))
		return ydoc_error(d, n, err, "expected on, off or auto");
	((struct cstate *)o)->cfg->flash_attn = xstrdup(s);
	return 0;
}

/* A number of layers, -1 or all (every layer: -1), into *out. */
static int
layers_value(struct ydoc *d, yaml_node_t *n, int64_t *out,
    struct gl_error *err)
{
	const char *s = ydoc_scalar(n);
	unsigned long long v;
	char *end;

	if (s != NULL && (strcmp(s, "-1") == 0 || strcmp(s, "all") == 0)) {
		*out = -1;
		return 0;
	}
	if (s == NULL || *s < '0' || *s > '9')
		goto bad;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno != 0 || *end != '\0' || v > 1000000000)
		goto bad;
	*out = (int64_t)v;
	return 0;
bad:
	return ydoc_error(d, n, err, "expected a number of layers from 0 to "
	    "1000000000, -1 or all");
}

/* n_gpu_layers: a number of layers, -1 or all (every layer). */
static int
c_ngl(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct config *cfg = ((struct cstate *)o)->cfg;

	if (layers_value(d, n, &cfg->ngl, err) < 0)
		return -1;
	cfg->has_ngl = true;
	return 0;
}

/* n_cpu_moe: the layers whose expert weights stay on the CPU, or all. */
static int
c_ncmoe(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct config *cfg = ((struct cstate *)o)->cfg;

	return layers_value(d, n, &cfg->n_cpu_moe, err);
}

static int
c_strict(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;

	c->cfg->has_strict = true;
	return ydoc_bool(d, n, &c->cfg->strict, err);
}

static int
c_select(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;

	return rule_list(d, n, c->cat, &c->pol->filter, 0, err);
}

static int
c_ignore(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;

	return rule_list(d, n, c->cat, &c->pol->filter, 1, err);
}

static int
c_severity(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	yaml_node_pair_t *p;

	if (n->type != YAML_MAPPING_NODE)
		return ydoc_error(d, n, err, "expected a mapping of rule to "
		    "severity");
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		yaml_node_t *v = ydoc_node(d, p->value);
		const char *item, *sv = ydoc_scalar(v);
		struct sev_override *o2;
		enum severity sev;

		if (rule_item(d, ydoc_node(d, p->key), c->cat, &item, err) < 0)
			return -1;
		if (sv == NULL || severity_parse(sv, &sev) < 0)
			return ydoc_error(d, v, err, "expected a severity: "
			    "error, warning or info");
		c->pol->sev = xreallocarray(c->pol->sev, c->pol->n_sev + 1,
		    sizeof *c->pol->sev);
		o2 = &c->pol->sev[c->pol->n_sev++];
		o2->item = xstrdup(item);
		o2->severity = sev;
	}
	return 0;
}

static int
c_per_file(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	yaml_node_pair_t *p;

	if (n->type != YAML_MAPPING_NODE)
		return ydoc_error(d, n, err, "expected a mapping of glob to a "
		    "list of rules");
	for (p = n->data.mapping.pairs.start; p < n->data.mapping.pairs.top;
	    p++) {
		const char *glob = ydoc_scalar(ydoc_node(d, p->key));
		struct file_ignore *fi;

		if (glob == NULL || *glob == '\0')
			return ydoc_error(d, ydoc_node(d, p->key), err,
			    "expected a file glob");
		c->pol->fi = xreallocarray(c->pol->fi, c->pol->n_fi + 1,
		    sizeof *c->pol->fi);
		fi = &c->pol->fi[c->pol->n_fi++];
		memset(fi, 0, sizeof *fi);
		fi->glob = xstrdup(glob);
		if (rule_list(d, ydoc_node(d, p->value), c->cat, &fi->rules, 1,
		    err) < 0)
			return -1;
	}
	return 0;
}

#define S(member) YDOC_STRDUP_AT(struct suppression, member)

/* One suppression: { rule, tensor | key, files }; the rule is checked
 * against the catalogue by c_suppress(). */
static const struct ydoc_field sup_fields[] = {
	{ "rule", true, S(item),
	    .expect = "expected a code, slug or family letter" },
	{ "tensor", false, S(tensor) },
	{ "key", false, S(key) },
	{ "files", false, S(files) },
	{ "tensor-pattern", false, S(pattern_src) },
};

#undef S

/* tensor-pattern: a PCRE2 pattern over whole tensor names. */
static int
sup_pattern(struct ydoc *d, yaml_node_t *n, struct suppression *s,
    struct gl_error *err)
{
	PCRE2_UCHAR msg[256];
	PCRE2_SIZE off;
	int code;

	/* UTF-8 patterns; names may be invalid UTF-8 (hostile files). */
	s->pattern = pcre2_compile((PCRE2_SPTR)s->pattern_src,
	    PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_MATCH_INVALID_UTF, &code,
	    &off, NULL);
	if (s->pattern == NULL) {
		pcre2_get_error_message(code, msg, sizeof msg);
		return ydoc_error(d, n, err, "invalid pattern: %s at offset "
		    "%zu of the pattern", (const char *)msg, (size_t)off);
	}
	return 0;
}

static int
c_suppress(struct ydoc *d, yaml_node_t *n, void *o, struct gl_error *err)
{
	struct cstate *c = o;
	yaml_node_item_t *it;

	if (n->type != YAML_SEQUENCE_NODE)
		return ydoc_error(d, n, err, "expected a list of suppressions");
	for (it = n->data.sequence.items.start;
	    it < n->data.sequence.items.top; it++) {
		yaml_node_t *e = ydoc_node(d, *it);
		struct suppression *s;
		const char *item;
		yaml_node_pair_t *p;

		c->pol->sup = xreallocarray(c->pol->sup, c->pol->n_sup + 1,
		    sizeof *c->pol->sup);
		s = &c->pol->sup[c->pol->n_sup++];
		memset(s, 0, sizeof *s);
		if (ydoc_fields(d, e, sup_fields, sizeof sup_fields /
		    sizeof sup_fields[0], s, err) < 0)
			return -1;
		for (p = e->data.mapping.pairs.start;
		    p < e->data.mapping.pairs.top; p++) {
			const char *k = ydoc_scalar(ydoc_node(d, p->key));
			yaml_node_t *v = ydoc_node(d, p->value);

			if (strcmp(k, "rule") == 0 && rule_item(d, v, c->cat,
			    &item, err) < 0)
				return -1;
			if (strcmp(k, "tensor-pattern") == 0 &&
			    sup_pattern(d, v, s, err) < 0)
				return -1;
		}
		if ((s->tensor != NULL) + (s->key != NULL) +
		    (s->pattern != NULL) > 1)
			return ydoc_error(d, e, err, "a suppression names a "
			    "tensor, a tensor-pattern or a key, only one");
	}
	return 0;
}

/* The objects the configuration's fields are stored in. */
static void *
cfg_of(void *o)
{
	return ((struct cstate *)o)->cfg;
}

static void *
pol_of(void *o)
{
	return ((struct cstate *)o)->pol;
}

static const struct ydoc_field config_fields[] = {
	{ "profile", false, .set = c_profile },
	{ "ctx", false, .at = cfg_of, YDOC_UINT_AT(struct config, ctx),
	    .min = 1, .max = UINT32_MAX,
	    .expect = "expected a context length from 1 to 4294967295" },
	{ "kv", false, .set = c_kv },
	{ "cache_type_k", false, .set = c_kv_k },
	{ "cache_type_v", false, .set = c_kv_v },
	{ "flash_attn", false, .set = c_flash_attn },
	{ "ubatch_size", false, .at = cfg_of,
	    YDOC_UINT_AT(struct config, ubatch), .min = 1, .max = UINT32_MAX,
	    .expect = "expected a batch size from 1 to 4294967295" },
	{ "batch_size", false, .at = cfg_of,
	    YDOC_UINT_AT(struct config, batch), .min = 1, .max = UINT32_MAX,
	    .expect = "expected a batch size from 1 to 4294967295" },
	{ "parallel", false, .at = cfg_of, YDOC_UINT_AT(struct config, n_seq),
	    .min = 1, .max = 256,
	    .expect = "expected a number of sequences from 1 to 256" },
	{ "n_gpu_layers", false, .set = c_ngl },
	{ "n_cpu_moe", false, .set = c_ncmoe },
	{ "no_mmap", false, .at = cfg_of, YDOC_BOOL_AT(struct config,
	    no_mmap) },
	{ "swa_full", false, .at = cfg_of, YDOC_BOOL_AT(struct config,
	    swa_full) },
	{ "timeout", false, .at = cfg_of, YDOC_UINT_AT(struct config,
	    timeout), .min = 1, .max = 86400,
	    .expect = "expected seconds from 1 to 86400" },
	{ "connect_timeout", false, .at = cfg_of, YDOC_UINT_AT(struct config,
	    connect_timeout), .min = 1, .max = 86400,
	    .expect = "expected seconds from 1 to 86400" },
	{ "cacert", false, .set = c_cacert },
	{ "strict", false, .set = c_strict },
	{ "select", false, .set = c_select },
	{ "ignore", false, .set = c_ignore },
	{ "severity", false, .set = c_severity },
	{ "per-file-ignores", false, .set = c_per_file },
	{ "suppress", false, .set = c_suppress },
	{ "rules", false, .kind = YDOC_IGNORE },	/* load_rule_files() */
	{ "fail-on", false, .at = pol_of, YDOC_ENUM_AT(struct policy, fail_on),
	    .names = severity_names,
	    .expect = "expected error, warning or info" },
	{ "max-warnings", false, .at = pol_of,
	    YDOC_UINT_AT(struct policy, max_warnings), .max = 1000000000,
	    .expect = "expected at most 1000000000" },
	{ "exit-zero", false, .kind = YDOC_BOOL, .at = cfg_of,
	    YDOC_AT(struct config, exit_zero) },
	{ "baseline", false, .set = c_baseline },
	{ "max-per-rule", false, .set = c_max_per_rule },
};

/* rules: [paths] first, so that the other keys may name their rules. */
static int
load_rule_files(struct ydoc *d, yaml_node_t *root, struct cstate *c,
    struct gl_error *err)
{
	yaml_node_pair_t *p;
	yaml_node_item_t *it;

	if (root == NULL || root->type != YAML_MAPPING_NODE)
		return 0;	/* ydoc_fields reports it */
	for (p = root->data.mapping.pairs.start;
	    p < root->data.mapping.pairs.top; p++) {
		yaml_node_t *v = ydoc_node(d, p->value);
		const char *k = ydoc_scalar(ydoc_node(d, p->key));

		if (k == NULL || strcmp(k, "rules") != 0)
			continue;
		if (v->type != YAML_SEQUENCE_NODE)
			return ydoc_error(d, v, err, "expected a list of rule "
			    "files");
		for (it = v->data.sequence.items.start;
		    it < v->data.sequence.items.top; it++) {
			yaml_node_t *e = ydoc_node(d, *it);
			const char *f = ydoc_scalar(e);
			char *path;
			int rc;

			if (f == NULL || *f == '\0')
				return ydoc_error(d, e, err, "expected a path");
			if (!c->load_rules)
				continue;
			path = f[0] == '/' ? xstrdup(f) :
			    xasprintf("%s/%s", c->dir, f);
			rc = declrule_load_file(c->cat, c->decls, path, err);
			free(path);
			if (rc < 0)
				return at_node(d, e, err);
		}
	}
	return 0;
}

int
config_parse(const char *origin, const char *dir, const char *text,
    size_t len, bool load_rules, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err)
{
	struct cstate c = { cat, decls, pol, cfg, NULL, load_rules };
	struct ydoc d;
	int rc;

	memset(cfg, 0, sizeof *cfg);
	cfg->path = xstrdup(origin);
	free(pol->base);
	pol->base = xstrdup(dir);
	c.dir = pol->base;
	if (ydoc_load(&d, origin, text, len, err) < 0)
		return -1;
	rc = load_rule_files(&d, ydoc_root(&d), &c, err);
	if (rc == 0 && ydoc_root(&d) != NULL)
		rc = ydoc_fields(&d, ydoc_root(&d), config_fields,
		    sizeof config_fields / sizeof config_fields[0], &c, err);
	ydoc_free(&d);
	return rc;
}

int
config_load(const char *path, struct catalog *cat, struct declset *decls,
    struct policy *pol, struct config *cfg, struct gl_error *err)
{
	char abs[PATH_MAX], *text, *slash;
	size_t len;
	int rc;

	memset(cfg, 0, sizeof *cfg);
	if (realpath(path, abs) == NULL)
		return gl_error_setk(err, GL_ERR_IO, "%s: %s", path,
		    strerror(errno));
	if ((slash = strrchr(abs, '/')) != NULL)
		*slash = '\0';
	if (read_whole_file(path, 1u << 20, &text, &len, err) < 0)
		return -1;
	rc = config_parse(path, *abs ? abs : "/", text, len, true, cat, decls,
	    pol, cfg, err);
	free(text);
	return rc;
}

void
config_free(struct config *cfg)
{
	free(cfg->path);
	free(cfg->profile);
	free(cfg->kv);
	free(cfg->kv_k);
	free(cfg->kv_v);
	free(cfg->flash_attn);
	free(cfg->baseline);
	free(cfg->cacert);
	free(cfg->cacert_at);
	memset(cfg, 0, sizeof *cfg);
}
