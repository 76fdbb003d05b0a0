/*
 * tests/oracle/llama-oracle.cpp - the test oracle: asks llama.cpp itself
 * what it allocates for a model and a context, and prints it as one JSON
 * object (every buffer type with its model, context and compute bytes,
 * the context size and flash attention llama.cpp settled on, and the KV
 * and output sizes from its log). Test-only: built by make check when a
 * C++ compiler and llama.cpp's headers exist, never part of gguflint.
 * C++ because llama_get_memory_breakdown (llama-ext.h) returns a std::map.
 *
 * Usage: llama-oracle MODEL [key=value ...], keys: ctx ubatch batch
 * fa=on|off|auto ctk ctv np ngl mmap=on|off alloc=on|off swa_full=on|off
 * cpumoe=N (the experts' weights of the first N layers on the CPU, as
 * llama-cli's --n-cpu-moe N overrides them) dir=BACKEND_DIR
 * cpu=VARIANT (loads DIR/libggml-cpu-VARIANT.so and, for a Vulkan dir,
 * libggml-vulkan.so, instead of every library in DIR); dir=linked for
 * a build whose backends are linked into libggml (no GGML_BACKEND_DL,
 * tests/oracle/measure-cuda.sh's), which loads nothing.
 * footprint=on (with alloc=on) reads each GPU's free memory
 * (ggml_backend_dev_memory) at the start, after the model, after the
 * context and after one decode of a full ubatch: what the device loses
 * beyond llama.cpp's buffers (the CUDA context, cuBLAS's workspace,
 * ggml-cuda's pool).
 * --batch: the cases come on stdin, one a line (MODEL key=value ...),
 * and each answer is one line on stdout, flushed, so that the libraries
 * and the device start once for many cases; the backends are those of
 * the first line's dir= and cpu=.
 * alloc=off is llama.cpp's no_alloc mode (sizes only; needs mmap=off).
 * graph=FILE (with alloc=on) also decodes worst-case ubatches (ubatch
 * tokens over np sequences, every one an output, as the reservation
 * sizes them) until the cache is full, and writes to FILE, of the last
 * one, each node the scheduler computes, in its order, and each input
 * before its first reader (graph_line): ggml-alloc's placement, node by
 * node, for the whole cache (the reservation's n_kv).
 * Exit 0 and the JSON on stdout, or exit 1 with {"error": ...}.
 */
#include "ggml-backend.h"
#include "ggml-cpu.h"
#include "ggml.h"
#include "llama-ext.h"
#include "llama.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

struct oracle_opts {
	std::string model;
	unsigned ctx = 4096, ubatch = 512, batch = 2048, np = 1;
	int ngl = 0, cpumoe = 0;
	llama_flash_attn_type fa = LLAMA_FLASH_ATTN_TYPE_AUTO;
	ggml_type ctk = GGML_TYPE_F16, ctv = GGML_TYPE_F16;
	bool mmap = false, alloc = false, swa_full = false, footprint = false;
	std::string dir, cpu, graph;
};

/* What the log told: summed over every cache llama.cpp made. */
struct oracle_log {
	std::string pending, first_error;
	bool pending_error = false;
	double k_mib = 0, v_mib = 0, r_mib = 0, s_mib = 0, out_mib = 0;
	int fa_auto = -1; /* 1 enabled, 0 disabled, -1 not resolved */
	bool fa_forced = false;
};

static oracle_log g_log;

static void
oracle_line(const std::string &l, bool is_error)
{
	const char *s = l.c_str();
	const char *p;
	double a = 0, b = 0;
	char ta[32], tb[32];
	if ((p = strstr(s, "), K (")) != nullptr &&
	    sscanf(p, "), K (%31[^)]): %lf MiB, V (%31[^)]): %lf MiB", ta, &a,
		   tb, &b) == 4) {
		g_log.k_mib += a;
		g_log.v_mib += b;
	}
	if ((p = strstr(s, "), R (")) != nullptr &&
	    sscanf(p, "), R (%31[^)]): %lf MiB, S (%31[^)]): %lf MiB", ta, &a,
		   tb, &b) == 4) {
		g_log.r_mib += a;
		g_log.s_mib += b;
	}
	if ((p = strstr(s, "output buffer size =")) != nullptr &&
	    sscanf(p, "output buffer size = %lf", &a) == 1)
		g_log.out_mib += a;
	if (strstr(s, "Flash Attention enabled"))
		g_log.fa_auto = 1;
	if (strstr(s, "Flash Attention not supported"))
		g_log.fa_auto = 0;
	if (strstr(s, "enabling flash_attn since"))
		g_log.fa_forced = true;
	if (g_log.first_error.empty() && is_error)
		g_log.first_error = l;
	if (getenv("LLAMA_ORACLE_LOG"))
		fprintf(stderr, "%s\n", s);
}

static void
oracle_log_cb(ggml_log_level level, const char *text, void *ud)
{
	(void)ud;
	if (level != GGML_LOG_LEVEL_CONT)
		g_log.pending_error = level == GGML_LOG_LEVEL_ERROR;
	g_log.pending += text;
	size_t nl;
	while ((nl = g_log.pending.find('\n')) != std::string::npos) {
		oracle_line(g_log.pending.substr(0, nl), g_log.pending_error);
		g_log.pending.erase(0, nl + 1);
	}
}

static void
json_str(const std::string &s)
{
	putchar('"');
	for (unsigned char c : s) {
		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20)
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}

static int
fail(const std::string &what)
{
	printf("{\"error\": ");
	json_str(what + (g_log.first_error.empty()
				 ? std::string()
				 : ": " + g_log.first_error));
	printf("}\n");
	return 1;
}

static bool
parse_type(const char *v, ggml_type *out)
{
	for (int t = 0; t < GGML_TYPE_COUNT; t++) {
		const char *n = ggml_type_name((ggml_type)t);
		if (n && strcmp(n, v) == 0) {
			*out = (ggml_type)t;
			return true;
		}
	}
	return false;
}

static bool
parse_onoff(const char *v, bool *out)
{
	if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
		return false;
	*out = strcmp(v, "on") == 0;
	return true;
}

static bool
parse_arg(oracle_opts &o, const char *k, const char *v)
{
	std::string key(k);
	if (key == "ctx")
		return (o.ctx = (unsigned)strtoul(v, nullptr, 10)) > 0;
	if (key == "ubatch")
		return (o.ubatch = (unsigned)strtoul(v, nullptr, 10)) > 0;
	if (key == "batch")
		return (o.batch = (unsigned)strtoul(v, nullptr, 10)) > 0;
	if (key == "np")
		return (o.np = (unsigned)strtoul(v, nullptr, 10)) > 0;
	if (key == "ngl")
		return (o.ngl = atoi(v)), true;
	if (key == "cpumoe")
		return (o.cpumoe = atoi(v)) >= 0;
	if (key == "ctk")
		return parse_type(v, &o.ctk);
	if (key == "ctv")
		return parse_type(v, &o.ctv);
	if (key == "mmap")
		return parse_onoff(v, &o.mmap);
	if (key == "alloc")
		return parse_onoff(v, &o.alloc);
	if (key == "swa_full")
		return parse_onoff(v, &o.swa_full);
	if (key == "footprint")
		return parse_onoff(v, &o.footprint);
	if (key == "dir")
		return o.dir = v, true;
	if (key == "cpu")
		return o.cpu = v, true;
	if (key == "graph")
		return o.graph = v, true;
	if (key == "fa") {
		std::string s(v);
		o.fa = s == "on"    ? LLAMA_FLASH_ATTN_TYPE_ENABLED
		       : s == "off" ? LLAMA_FLASH_ATTN_TYPE_DISABLED
				    : LLAMA_FLASH_ATTN_TYPE_AUTO;
		return s == "on" || s == "off" || s == "auto";
	}
	return false;
}

static bool
load_backends(const oracle_opts &o)
{
	if (o.dir == "linked")
		return ggml_backend_dev_count() > 0;
	if (o.cpu.empty()) {
		ggml_backend_load_all_from_path(o.dir.c_str());
		return ggml_backend_dev_count() > 0;
	}
	std::string cpu = o.dir + "/libggml-cpu-" + o.cpu + ".so";
	if (!ggml_backend_load(cpu.c_str()))
		return false;
	std::string vk = o.dir + "/libggml-vulkan.so";
	FILE *f = fopen(vk.c_str(), "rb");
	if (f) {
		fclose(f);
		ggml_backend_load(vk.c_str());
	}
	return true;
}

static void
print_buffers(const llama_context *lctx)
{
	llama_memory_breakdown mb = llama_get_memory_breakdown(lctx);
	bool first = true;
	printf("\"buffers\": [");
	for (const auto &kv : mb) {
		printf("%s{\"name\": ", first ? "" : ", ");
		json_str(ggml_backend_buft_name(kv.first));
		printf(", \"model\": %zu, \"context\": %zu, \"compute\": %zu}",
		       kv.second.model, kv.second.context, kv.second.compute);
		first = false;
	}
	printf("]");
}

/* One tensor's line: buffer (with * when not a compute buffer: the KV
 * cache's), offset, bytes, op (or "input"), name, ne0..ne3, its id, its
 * view source's id, flags, layout (type:nb0:nb1:nb2:nb3), and the
 * sources' ids. */
static void
graph_line(FILE *f, const ggml_tensor *t, const char *op)
{
	fprintf(f, "%s%s\t%zu\t%zu\t%s\t%s\t%lld\t%lld\t%lld\t%lld",
		ggml_backend_buffer_name(t->buffer),
		ggml_backend_buffer_get_usage(t->buffer) ==
				GGML_BACKEND_BUFFER_USAGE_COMPUTE
			? ""
			: "*",
		(size_t)((char *)t->data -
			 (char *)ggml_backend_buffer_get_base(t->buffer)),
		ggml_backend_buffer_get_alloc_size(t->buffer,
						   (ggml_tensor *)t),
		op, t->name, (long long)t->ne[0], (long long)t->ne[1],
		(long long)t->ne[2], (long long)t->ne[3]);
	fprintf(f, "\t%p\t%p\t%d\t%s:%zu:%zu:%zu:%zu", (const void *)t,
		(const void *)t->view_src, t->flags, ggml_type_name(t->type),
		t->nb[0], t->nb[1], t->nb[2], t->nb[3]);
	if (op[0] != 'i') /* a node: its sources */
		for (int i = 0; i < GGML_MAX_SRC; i++)
			if (t->src[i] != nullptr)
				fprintf(f, "\t%p", (const void *)t->src[i]);
	fputc('\n', f);
}

/* A source in a compute buffer that no node made (an input, or the
 * scheduler's copy of one): its line, op "input", once. */
static void
graph_source(FILE *f, const ggml_tensor *s)
{
	static std::set<const ggml_tensor *> seen;
	if (s == nullptr || s->buffer == nullptr || s->op != GGML_OP_NONE ||
	    ggml_backend_buffer_get_usage(s->buffer) !=
		    GGML_BACKEND_BUFFER_USAGE_COMPUTE ||
	    !seen.insert(s).second)
		return;
	graph_line(f, s, "input");
}

/* cb_eval: each node once, as the scheduler reaches it */
struct graph_dump {
	FILE *f;
	bool on; /* the last ubatch only */
};

static bool
graph_node(ggml_tensor *t, bool ask, void *ud)
{
	graph_dump *gd = (graph_dump *)ud;
	FILE *f = gd->f;
	if (!ask || !gd->on || t->buffer == nullptr)
		return false;
	for (int i = 0; i < GGML_MAX_SRC; i++)
		graph_source(f, t->src[i]);
	graph_line(f, t, ggml_op_desc(t));
	return false;
}

/* Ubatches of o.ubatch tokens, np sequences of equal length, every
 * token an output, until each sequence's cells are full: the last one
 * sees the whole cache, as the reservation does, and is dumped. */
static bool
decode_worst(const oracle_opts &o, llama_context *c, graph_dump *gd)
{
	llama_batch b = llama_batch_init((int32_t)o.ubatch, 0, 1);
	unsigned per = o.ubatch / o.np, rounds = 1, r;
	int rc = 0;
	if (per > 0 && llama_n_ctx_seq(c) / per > 1)
		rounds = llama_n_ctx_seq(c) / per;
	for (r = 0; r < rounds && rc == 0; r++) {
		for (unsigned i = 0; i < per * o.np; i++) {
			b.token[i] = 0;
			b.pos[i] = (llama_pos)(r * per + i % per);
			b.n_seq_id[i] = 1;
			b.seq_id[i][0] = (llama_seq_id)(i / per);
			b.logits[i] = 1;
		}
		b.n_tokens = (int32_t)(per * o.np);
		gd->on = r + 1 == rounds;
		rc = llama_decode(c, b);
	}
	llama_batch_free(b);
	return rc == 0;
}

/* footprint=on: each GPU's free bytes at the start, after the model,
 * after the context and after one decode (the readings, in order) */
struct footprint {
	std::vector<ggml_backend_dev_t> devs;
	std::vector<std::vector<size_t> > free;
	std::vector<size_t> total;
};

static void
footprint_read(footprint &fp)
{
	for (size_t i = 0; i < fp.devs.size(); i++) {
		size_t fr = 0, tot = 0;
		ggml_backend_dev_memory(fp.devs[i], &fr, &tot);
		fp.free[i].push_back(fr);
		fp.total[i] = tot;
	}
}

static void
footprint_init(footprint &fp)
{
	for (size_t i = 0; i < ggml_backend_dev_count(); i++) {
		ggml_backend_dev_t d = ggml_backend_dev_get(i);
		if (ggml_backend_dev_type(d) == GGML_BACKEND_DEVICE_TYPE_GPU)
			fp.devs.push_back(d);
	}
	fp.free.resize(fp.devs.size());
	fp.total.resize(fp.devs.size());
	footprint_read(fp);
}

static void
footprint_print(const footprint &fp)
{
	printf(", \"devices\": [");
	for (size_t i = 0; i < fp.devs.size(); i++) {
		printf("%s{\"name\": ", i ? ", " : "");
		json_str(ggml_backend_dev_name(fp.devs[i]));
		printf(", \"description\": ");
		json_str(ggml_backend_dev_description(fp.devs[i]));
		printf(", \"total\": %zu, \"free\": [", fp.total[i]);
		for (size_t k = 0; k < fp.free[i].size(); k++)
			printf("%s%zu", k ? ", " : "", fp.free[i][k]);
		printf("]}");
	}
	printf("]");
}

/* One ubatch of one sequence, the last token an output: the first use
 * of the products' workspace and of the backend's pool. */
static bool
decode_one(const oracle_opts &o, llama_context *c)
{
	llama_batch b = llama_batch_init((int32_t)o.ubatch, 0, 1);
	for (unsigned i = 0; i < o.ubatch; i++) {
		b.token[i] = 0;
		b.pos[i] = (llama_pos)i;
		b.n_seq_id[i] = 1;
		b.seq_id[i][0] = 0;
		b.logits[i] = i + 1 == o.ubatch;
	}
	b.n_tokens = (int32_t)o.ubatch;
	int rc = llama_decode(c, b);
	llama_batch_free(b);
	return rc == 0;
}

static int
run(const oracle_opts &o)
{
	footprint fp;
	if (o.footprint) {
		if (!o.alloc)
			return fail("footprint= needs alloc=on");
		footprint_init(fp);
	}
	llama_model_params mp = llama_model_default_params();
	mp.load_mode = o.mmap ? LLAMA_LOAD_MODE_MMAP : LLAMA_LOAD_MODE_NONE;
	mp.no_alloc = !o.alloc;
	mp.n_gpu_layers = o.ngl;
	/* llama-cli's --n-cpu-moe: one pattern a layer (common.h's) */
	std::vector<std::string> pats;
	std::vector<llama_model_tensor_buft_override> ov;
	for (int i = 0; i < o.cpumoe; i++)
		pats.push_back("blk\\." + std::to_string(i) +
			       "\\.ffn_(up|down|gate|gate_up)_(ch|)exps");
	for (const auto &p : pats)
		ov.push_back({ p.c_str(), ggml_backend_cpu_buffer_type() });
	ov.push_back({ nullptr, nullptr });
	if (o.cpumoe > 0)
		mp.tensor_buft_overrides = ov.data();
	llama_model *m = llama_model_load_from_file(o.model.c_str(), mp);
	if (!m)
		return fail("llama.cpp refused to load the model");
	if (o.footprint)
		footprint_read(fp);
	llama_context_params cp = llama_context_default_params();
	cp.n_ctx = o.ctx;
	cp.n_batch = o.batch;
	cp.n_ubatch = o.ubatch;
	cp.n_seq_max = o.np;
	cp.flash_attn_type = o.fa;
	cp.type_k = o.ctk;
	cp.type_v = o.ctv;
	cp.swa_full = o.swa_full;
	cp.n_threads = cp.n_threads_batch = 1;
	FILE *gf = nullptr;
	graph_dump gd = { nullptr, false };
	if (!o.graph.empty()) {
		if (!o.alloc || (gf = fopen(o.graph.c_str(), "w")) == nullptr) {
			llama_model_free(m);
			return fail("graph= needs alloc=on and a writable file");
		}
		gd.f = gf;
		cp.cb_eval = graph_node;
		cp.cb_eval_user_data = &gd;
	}
	llama_context *c = llama_init_from_model(m, cp);
	if (!c) {
		llama_model_free(m);
		return fail("llama.cpp refused the context");
	}
	if (o.footprint) {
		footprint_read(fp);
		if (!decode_one(o, c)) {
			llama_free(c);
			llama_model_free(m);
			return fail("the footprint's ubatch did not decode");
		}
		footprint_read(fp);
	}
	if (gf != nullptr) {
		bool ok = decode_worst(o, c, &gd);
		fclose(gf);
		if (!ok) {
			llama_free(c);
			llama_model_free(m);
			return fail("the worst-case ubatch did not decode");
		}
	}
	bool fa = o.fa == LLAMA_FLASH_ATTN_TYPE_ENABLED || g_log.fa_forced ||
		  (o.fa == LLAMA_FLASH_ATTN_TYPE_AUTO && g_log.fa_auto == 1);
	char arch[64] = "";
	llama_model_meta_val_str(m, "general.architecture", arch,
				 sizeof arch);
	printf("{\"arch\": ");
	json_str(arch);
	printf(", \"n_ctx\": %u, \"n_ctx_seq\": %u, \"n_ubatch\": %u, "
	       "\"n_batch\": %u, \"n_seq_max\": %u, \"flash_attn\": %s, ",
	       llama_n_ctx(c), llama_n_ctx_seq(c), llama_n_ubatch(c),
	       llama_n_batch(c), llama_n_seq_max(c), fa ? "true" : "false");
	printf("\"k_mib\": %.2f, \"v_mib\": %.2f, \"r_mib\": %.2f, "
	       "\"s_mib\": %.2f, \"output_mib\": %.2f, \"model_size\": %llu, ",
	       g_log.k_mib, g_log.v_mib, g_log.r_mib, g_log.s_mib,
	       g_log.out_mib, (unsigned long long)llama_model_size(m));
	print_buffers(c);
	if (o.footprint)
		footprint_print(fp);
	printf("}\n");
	llama_free(c);
	llama_model_free(m);
	return 0;
}

/* A case's arguments: the model, then key=value pairs. */
static bool
parse_case(const std::vector<std::string> &args, oracle_opts &o)
{
	if (args.empty())
		return false;
	o.model = args[0];
	for (size_t i = 1; i < args.size(); i++) {
		const std::string &a = args[i];
		size_t eq = a.find('=');
		if (eq == std::string::npos ||
		    !parse_arg(o, a.substr(0, eq).c_str(),
			       a.c_str() + eq + 1)) {
			fprintf(stderr, "llama-oracle: bad argument %s\n",
				a.c_str());
			return false;
		}
	}
	if (o.dir.empty()) {
		fprintf(stderr, "llama-oracle: dir= is required\n");
		return false;
	}
	return true;
}

static std::vector<std::string>
split_words(const char *line)
{
	std::vector<std::string> w;
	std::string cur;
	for (const char *p = line; *p; p++) {
		if (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') {
			if (!cur.empty())
				w.push_back(cur);
			cur.clear();
		} else {
			cur += *p;
		}
	}
	if (!cur.empty())
		w.push_back(cur);
	return w;
}

/* --batch: one case a line on stdin, one answer a line on stdout */
static int
batch_main(void)
{
	char buf[8192];
	bool loaded = false;
	std::string dir, cpu;
	while (fgets(buf, sizeof buf, stdin) != nullptr) {
		std::vector<std::string> args = split_words(buf);
		oracle_opts o;
		if (args.empty())
			continue;
		g_log = oracle_log();
		if (!parse_case(args, o)) {
			fail("bad case: " + std::string(buf));
		} else if (!loaded) {
			if (!load_backends(o)) {
				fail("no backend could be loaded from " +
				     o.dir);
				return 1;
			}
			llama_backend_init();
			loaded = true;
			dir = o.dir;
			cpu = o.cpu;
			run(o);
		} else if (o.dir != dir || o.cpu != cpu) {
			fail("a batch keeps the first case's dir= and cpu=");
		} else {
			run(o);
		}
		fflush(stdout);
	}
	if (loaded)
		llama_backend_free();
	return 0;
}

int
main(int argc, char **argv)
{
	oracle_opts o;
	llama_log_set(oracle_log_cb, nullptr);
	if (argc == 2 && strcmp(argv[1], "--batch") == 0)
		return batch_main();
	if (argc < 2) {
		fprintf(stderr, "usage: llama-oracle MODEL [key=value ...]\n"
				"       llama-oracle --batch < CASES\n");
		return 2;
	}
	if (!parse_case(std::vector<std::string>(argv + 1, argv + argc), o))
		return 2;
	if (!load_backends(o))
		return fail("no backend could be loaded from " + o.dir);
	llama_backend_init();
	int rc = run(o);
	llama_backend_free();
	return rc;
}
