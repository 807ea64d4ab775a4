// SPDX-License-Identifier: GPL-2.0
/*
 * The cache ledger's model (model.h). Caches are set-associative with true
 * LRU (a 64-bit stamp per way, the oldest is evicted). Each line of memory
 * has a state: its current version, the core that wrote it last, and whether
 * memory is stale (the current version lives only in caches).
 */
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

const char *const lg_class_name[LG_NCLASS] = {
	[LG_L1] = "l1", [LG_L2] = "l2", [LG_L3] = "l3",
	[LG_C2C_LLC] = "c2c_llc", [LG_C2C_NODE] = "c2c_node",
	[LG_C2C_REMOTE] = "c2c_remote",
	[LG_DRAM_LOCAL] = "dram_local", [LG_DRAM_REMOTE] = "dram_remote",
};

struct way {
	uint64_t tag;		/* line + 1; 0 is an empty way */
	uint64_t stamp;		/* LRU: larger is more recent */
	uint32_t ver;		/* the line's version when this copy was made */
	uint32_t dirty;		/* this copy is newer than memory */
};

struct cache {
	struct way *w;
	uint64_t set_mask;
	unsigned ways;
	uint64_t clock;
};

struct line_state {
	uint32_t ver;
	uint16_t writer;	/* core + 1 of the last store; 0: none */
	uint16_t dirty;		/* memory does not hold version ver */
};

struct lg_model {
	struct lg_params p;
	struct lg_topo t;
	unsigned nvcpus, ncores, nllcs;
	uint64_t nlines, lines_per_node;
	struct cache *l1, *l2;	/* per core */
	struct cache *l3;	/* per LLC */
	struct line_state *ls;
	uint64_t *cnt;		/* [vcpu][class] */
};

static void msg(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	if (!errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

/* ---- the parameter file ---- */

enum kind { K_BYTES, K_WAYS, K_LAT, K_GHZ };

static const struct key {
	const char *name;
	enum kind kind;
	size_t off;		/* into struct lg_params */
} keys[] = {
	{ "line_bytes", K_BYTES, offsetof(struct lg_params, line) },
	{ "l1_bytes", K_BYTES, offsetof(struct lg_params, l1_bytes) },
	{ "l1_ways", K_WAYS, offsetof(struct lg_params, l1_ways) },
	{ "l2_bytes", K_BYTES, offsetof(struct lg_params, l2_bytes) },
	{ "l2_ways", K_WAYS, offsetof(struct lg_params, l2_ways) },
	{ "l3_bytes", K_BYTES, offsetof(struct lg_params, l3_bytes) },
	{ "l3_ways", K_WAYS, offsetof(struct lg_params, l3_ways) },
	{ "ghz", K_GHZ, offsetof(struct lg_params, ghz) },
	{ "lat_l2", K_LAT, offsetof(struct lg_params, lat[LG_L2]) },
	{ "lat_l3", K_LAT, offsetof(struct lg_params, lat[LG_L3]) },
	{ "lat_c2c_llc", K_LAT, offsetof(struct lg_params, lat[LG_C2C_LLC]) },
	{ "lat_c2c_node", K_LAT, offsetof(struct lg_params, lat[LG_C2C_NODE]) },
	{ "lat_c2c_remote", K_LAT, offsetof(struct lg_params, lat[LG_C2C_REMOTE]) },
	{ "lat_dram_local", K_LAT, offsetof(struct lg_params, lat[LG_DRAM_LOCAL]) },
	{ "lat_dram_remote", K_LAT, offsetof(struct lg_params, lat[LG_DRAM_REMOTE]) },
};
#define NKEYS (sizeof(keys) / sizeof(keys[0]))

static int is_pow2(uint64_t x)
{
	return x && !(x & (x - 1));
}

/* Sizes: a whole number with an optional K or M (powers of 1024). */
static int parse_bytes(const char *s, unsigned *out)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end == 'K')
		v <<= 10, end++;
	else if (*end == 'M')
		v <<= 20, end++;
	if (*end || v == 0 || v > (1ULL << 31))
		return -1;
	*out = (unsigned)v;
	return 0;
}

/* Latencies: a positive number with its unit, c (core cycles) or ns. The
 * ns ones are converted with ghz once the whole file is read. */
static int parse_lat(const char *s, double *v, int *is_ns)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	if (errno || end == s || !(*v > 0) || !isfinite(*v))
		return -1;
	if (!strcmp(end, "c"))
		*is_ns = 0;
	else if (!strcmp(end, "ns"))
		*is_ns = 1;
	else
		return -1;
	return 0;
}

int lg_params_load(const char *path, struct lg_params *p, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	char buf[1024];
	unsigned lineno = 0, i;
	int seen[NKEYS] = { 0 }, ns[NKEYS] = { 0 };
	double latv[NKEYS] = { 0 };

	if (!f) {
		msg(err, errlen, "ledger: cannot read the cache file %s: %s; give cache=PATH of a file like ledger/zen3.conf",
		    path, strerror(errno));
		return -1;
	}
	memset(p, 0, sizeof(*p));
	while (fgets(buf, sizeof(buf), f)) {
		char *hash, *k, *v, *rest;
		const struct key *key = NULL;

		lineno++;
		if (!strchr(buf, '\n') && !feof(f)) {
			msg(err, errlen, "%s:%u: line too long; keep each line under %zu characters",
			    path, lineno, sizeof(buf) - 1);
			goto bad;
		}
		hash = strchr(buf, '#');
		k = strtok_r(buf, " \t\r\n", &rest);
		if (!k || k == hash)
			continue;	/* blank or comment-only */
		if (hash)
			*hash = '\0';
		v = strtok_r(NULL, " \t\r\n", &rest);
		for (i = 0; i < NKEYS; i++)
			if (!strcmp(k, keys[i].name))
				key = &keys[i];
		if (!key) {
			msg(err, errlen, "%s:%u: unknown key '%s'; the keys are line_bytes, l{1,2,3}_bytes, l{1,2,3}_ways, ghz and lat_{l2,l3,c2c_llc,c2c_node,c2c_remote,dram_local,dram_remote}",
			    path, lineno, k);
			goto bad;
		}
		i = key - keys;
		if (!v) {
			msg(err, errlen, "%s:%u: %s has no value; write '%s VALUE # source'",
			    path, lineno, k, k);
			goto bad;
		}
		if (strtok_r(NULL, " \t\r\n", &rest)) {
			msg(err, errlen, "%s:%u: %s: more than one value; write '%s VALUE # source'",
			    path, lineno, k, k);
			goto bad;
		}
		if (!hash || !strpbrk(hash + 1, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")) {
			msg(err, errlen, "%s:%u: %s has no source; every number needs one: '%s %s # where it comes from'",
			    path, lineno, k, k, v);
			goto bad;
		}
		if (seen[i]) {
			msg(err, errlen, "%s:%u: %s given twice (first on line %d); keep one",
			    path, lineno, k, seen[i]);
			goto bad;
		}
		seen[i] = (int)lineno;
		switch (key->kind) {
		case K_BYTES:
			if (parse_bytes(v, (unsigned *)((char *)p + key->off))) {
				msg(err, errlen, "%s:%u: %s '%s': want a size in bytes, e.g. 64, 32K or 32M",
				    path, lineno, k, v);
				goto bad;
			}
			break;
		case K_WAYS: {
			char *end;
			long w = strtol(v, &end, 10);

			if (*end || end == v || w < 1 || w > 64) {
				msg(err, errlen, "%s:%u: %s '%s': want a whole number of ways, 1 to 64",
				    path, lineno, k, v);
				goto bad;
			}
			*(unsigned *)((char *)p + key->off) = (unsigned)w;
			break;
		}
		case K_GHZ: {
			char *end;

			p->ghz = strtod(v, &end);
			if (*end || end == v || !(p->ghz > 0.1 && p->ghz < 20)) {
				msg(err, errlen, "%s:%u: ghz '%s': want the core clock in GHz, e.g. 3.5",
				    path, lineno, v);
				goto bad;
			}
			break;
		}
		case K_LAT:
			if (parse_lat(v, &latv[i], &ns[i])) {
				msg(err, errlen, "%s:%u: %s '%s': want a positive latency with its unit, e.g. 46c (cycles) or 80ns",
				    path, lineno, k, v);
				goto bad;
			}
			break;
		}
	}
	fclose(f);
	for (i = 0; i < NKEYS; i++)
		if (!seen[i]) {
			msg(err, errlen, "%s: %s is missing; add a line '%s VALUE # source' (see ledger/zen3.conf)",
			    path, keys[i].name, keys[i].name);
			return -1;
		}
	for (i = 0; i < NKEYS; i++)
		if (keys[i].kind == K_LAT)
			*(double *)((char *)p + keys[i].off) = ns[i] ? latv[i] * p->ghz : latv[i];
	if (!is_pow2(p->line) || p->line < 8) {
		msg(err, errlen, "%s: line_bytes %u: want a power of two, at least 8, e.g. 64 (lines and sets are found by shifts and masks)",
		    path, p->line);
		return -1;
	}
	{
		const char *lv[3] = { "l1", "l2", "l3" };
		unsigned b[3] = { p->l1_bytes, p->l2_bytes, p->l3_bytes };
		unsigned w[3] = { p->l1_ways, p->l2_ways, p->l3_ways };

		for (i = 0; i < 3; i++) {
			uint64_t per = (uint64_t)w[i] * p->line;

			if (b[i] % per || !is_pow2(b[i] / per)) {
				msg(err, errlen, "%s: %s_bytes %u / (%s_ways %u x line_bytes %u) is not a power-of-two number of sets; fix the size or the ways",
				    path, lv[i], b[i], lv[i], w[i], p->line);
				return -1;
			}
		}
	}
	return 0;
bad:
	fclose(f);
	return -1;
}

/* ---- caches ---- */

static int cache_init(struct cache *c, unsigned bytes, unsigned ways, unsigned line)
{
	uint64_t sets = bytes / ((uint64_t)ways * line);

	c->w = calloc(sets * ways, sizeof(*c->w));
	c->set_mask = sets - 1;
	c->ways = ways;
	c->clock = 0;
	return c->w ? 0 : -1;
}

static inline struct way *cache_set(const struct cache *c, uint64_t line)
{
	return &c->w[(line & c->set_mask) * c->ways];
}

static inline struct way *cache_find(const struct cache *c, uint64_t line)
{
	struct way *s = cache_set(c, line);
	unsigned i;

	for (i = 0; i < c->ways; i++)
		if (s[i].tag == line + 1)
			return &s[i];
	return NULL;
}

/* Put LINE at VER into C (in place if a copy is there); the copy it pushes
 * out, if any, is returned in *out (out->tag 0 when none). */
static struct way *cache_fill(struct cache *c, uint64_t line, uint32_t ver, int dirty,
			      struct way *out)
{
	struct way *s = cache_set(c, line), *v = NULL;
	unsigned i;

	out->tag = 0;
	for (i = 0; i < c->ways; i++) {
		if (s[i].tag == line + 1) {
			v = &s[i];
			break;
		}
		if (!v || s[i].stamp < v->stamp)
			v = &s[i];	/* empty ways have stamp 0: taken first */
	}
	if (v->tag != line + 1) {
		*out = *v;
		v->tag = line + 1;
		v->dirty = 0;
	}
	v->ver = ver;
	v->dirty |= dirty;
	v->stamp = ++c->clock;
	return v;
}

static inline void touch(struct cache *c, struct way *w)
{
	w->stamp = ++c->clock;
}

/* ---- the model ---- */

struct lg_model *lg_model_new(const struct lg_params *p, const struct lg_topo *t,
			      uint64_t nlines, char *err, size_t errlen)
{
	struct lg_model *m;
	unsigned i;

	if (!t->sockets || !t->dies || !t->cores || !t->threads ||
	    (uint64_t)t->sockets * t->dies * t->cores * t->threads > 4096) {
		msg(err, errlen, "ledger: topology %ux%ux%ux%u: want sockets, dies, cores, threads each at least 1 and at most 4096 CPUs",
		    t->sockets, t->dies, t->cores, t->threads);
		return NULL;
	}
	if (!nlines || nlines % t->sockets || nlines >= (1ULL << 40)) {
		msg(err, errlen, "ledger: %llu lines of memory cannot be split into %u equal nodes",
		    (unsigned long long)nlines, t->sockets);
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		goto nomem;
	m->p = *p;
	m->t = *t;
	m->ncores = t->sockets * t->dies * t->cores;
	m->nvcpus = m->ncores * t->threads;
	m->nllcs = t->sockets * t->dies;
	m->nlines = nlines;
	m->lines_per_node = nlines / t->sockets;
	m->l1 = calloc(m->ncores, sizeof(*m->l1));
	m->l2 = calloc(m->ncores, sizeof(*m->l2));
	m->l3 = calloc(m->nllcs, sizeof(*m->l3));
	/* calloc of this size is mmap'ed: pages are only backed once touched */
	m->ls = calloc(nlines, sizeof(*m->ls));
	m->cnt = calloc((size_t)m->nvcpus * LG_NCLASS, sizeof(*m->cnt));
	if (!m->l1 || !m->l2 || !m->l3 || !m->ls || !m->cnt)
		goto nomem;
	for (i = 0; i < m->ncores; i++)
		if (cache_init(&m->l1[i], p->l1_bytes, p->l1_ways, p->line) ||
		    cache_init(&m->l2[i], p->l2_bytes, p->l2_ways, p->line))
			goto nomem;
	for (i = 0; i < m->nllcs; i++)
		if (cache_init(&m->l3[i], p->l3_bytes, p->l3_ways, p->line))
			goto nomem;
	return m;
nomem:
	msg(err, errlen, "ledger: out of memory for the model (%u LLCs of %u bytes, %llu lines of state)",
	    t->sockets * t->dies, p->l3_bytes, (unsigned long long)nlines);
	lg_model_free(m);
	return NULL;
}

void lg_model_free(struct lg_model *m)
{
	unsigned i;

	if (!m)
		return;
	for (i = 0; m->l1 && i < m->ncores; i++)
		free(m->l1[i].w);
	for (i = 0; m->l2 && i < m->ncores; i++)
		free(m->l2[i].w);
	for (i = 0; m->l3 && i < m->nllcs; i++)
		free(m->l3[i].w);
	free(m->l1);
	free(m->l2);
	free(m->l3);
	free(m->ls);
	free(m->cnt);
	free(m);
}

static inline unsigned llc_of_core(const struct lg_model *m, unsigned core)
{
	return core / m->t.cores;
}

static inline unsigned socket_of_llc(const struct lg_model *m, unsigned llc)
{
	return llc / m->t.dies;
}

/* A copy pushed out of a cache: a dirty L2 copy that is still current goes
 * to its LLC's L3 (write-back); a dirty L3 copy that is current goes to
 * memory, which is then current. Stale copies are dropped. */
static void evicted(struct lg_model *m, unsigned llc, const struct way *v, int from_l2)
{
	struct line_state *s;
	struct way out;

	if (!v->tag || !v->dirty)
		return;
	s = &m->ls[v->tag - 1];
	if (v->ver != s->ver)
		return;
	if (from_l2) {
		cache_fill(&m->l3[llc], v->tag - 1, v->ver, 1, &out);
		evicted(m, llc, &out, 0);
	} else {
		s->dirty = 0;
	}
}

/* LINE's home is node SOCKET (line / lines_per_node == socket), compared
 * without a 64-bit division: below the node's first line the unsigned
 * difference wraps and exceeds lines_per_node. */
static inline int is_home(const struct lg_model *m, uint64_t line, unsigned socket)
{
	return line - (uint64_t)socket * m->lines_per_node < m->lines_per_node;
}

static inline enum lg_class by_distance(const struct lg_model *m, unsigned llc, unsigned wllc)
{
	if (wllc == llc)
		return LG_C2C_LLC;
	return socket_of_llc(m, wllc) == socket_of_llc(m, llc) ? LG_C2C_NODE : LG_C2C_REMOTE;
}

/* Where an L2 miss of CORE (in LLC) on LINE is served from. */
static enum lg_class classify_miss(struct lg_model *m, unsigned core, unsigned llc,
				   uint64_t line, const struct line_state *s)
{
	struct way *w = cache_find(&m->l3[llc], line);

	if (w && w->ver == s->ver) {
		touch(&m->l3[llc], w);
		return LG_L3;
	}
	if (s->dirty && s->writer) {
		unsigned wc = s->writer - 1, wllc = llc_of_core(m, wc);

		if (wc != core) {
			w = cache_find(&m->l2[wc], line);
			if (w && w->ver == s->ver)
				return by_distance(m, llc, wllc);
		}
		if (wllc != llc) {
			w = cache_find(&m->l3[wllc], line);
			if (w && w->ver == s->ver)
				return by_distance(m, llc, wllc);
		}
	}
	return is_home(m, line, socket_of_llc(m, llc)) ? LG_DRAM_LOCAL : LG_DRAM_REMOTE;
}

enum lg_class lg_access(struct lg_model *m, unsigned vcpu, uint64_t line, int store)
{
	unsigned core = vcpu / m->t.threads, llc = llc_of_core(m, core);
	struct line_state *s = &m->ls[line];
	struct cache *l1 = &m->l1[core], *l2 = &m->l2[core];
	struct way *w, out;
	enum lg_class c;

	w = cache_find(l1, line);
	if (w && w->ver == s->ver) {
		touch(l1, w);
		c = LG_L1;
	} else {
		w = cache_find(l2, line);
		if (w && w->ver == s->ver) {
			touch(l2, w);
			c = LG_L2;
		} else {
			c = classify_miss(m, core, llc, line, s);
			if (c != LG_L3) {
				cache_fill(&m->l3[llc], line, s->ver, 0, &out);
				evicted(m, llc, &out, 0);
			}
			cache_fill(l2, line, s->ver, 0, &out);
			evicted(m, llc, &out, 1);
		}
		cache_fill(l1, line, s->ver, 0, &out);	/* L1 is write-through: never dirty */
	}
	if (store) {
		s->ver++;
		s->writer = (uint16_t)(core + 1);
		s->dirty = 1;
		w = cache_find(l1, line);
		w->ver = s->ver;
		cache_fill(l2, line, s->ver, 1, &out);
		evicted(m, llc, &out, 1);
	}
	m->cnt[(size_t)vcpu * LG_NCLASS + c]++;
	return c;
}

uint64_t lg_count(const struct lg_model *m, unsigned vcpu, enum lg_class c)
{
	return m->cnt[(size_t)vcpu * LG_NCLASS + c];
}

void lg_reset_counts(struct lg_model *m)
{
	memset(m->cnt, 0, (size_t)m->nvcpus * LG_NCLASS * sizeof(*m->cnt));
}

unsigned lg_nvcpus(const struct lg_model *m)
{
	return m->nvcpus;
}

unsigned lg_nllcs(const struct lg_model *m)
{
	return m->nllcs;
}

unsigned lg_llc_of(const struct lg_model *m, unsigned vcpu)
{
	return llc_of_core(m, vcpu / m->t.threads);
}

double lg_stall_cycles(const struct lg_model *m, int vcpu_or_all)
{
	double sum = 0;
	unsigned v, c;

	for (v = 0; v < m->nvcpus; v++) {
		if (vcpu_or_all >= 0 && v != (unsigned)vcpu_or_all)
			continue;
		for (c = LG_L2; c < LG_NCLASS; c++)
			sum += (double)lg_count(m, v, c) * m->p.lat[c];
	}
	return sum;
}

/* Sums of one group of vCPUs: every class, l2_miss, l3_miss, stall_cycles. */
static void write_group(const struct lg_model *m, FILE *f, const char *prefix,
			unsigned first, unsigned n)
{
	uint64_t sum[LG_NCLASS] = { 0 }, l2m = 0, l3m = 0;
	double stall = 0;
	unsigned v, c;

	for (v = first; v < first + n; v++)
		for (c = 0; c < LG_NCLASS; c++) {
			uint64_t k = lg_count(m, v, c);

			sum[c] += k;
			if (c >= LG_L3)
				l2m += k;
			if (c >= LG_C2C_LLC)
				l3m += k;
			if (c >= LG_L2)
				stall += (double)k * m->p.lat[c];
		}
	for (c = 0; c < LG_NCLASS; c++)
		fprintf(f, " %s%s=%llu", prefix, lg_class_name[c], (unsigned long long)sum[c]);
	fprintf(f, " %sl2_miss=%llu %sl3_miss=%llu %sstall_cycles=%.0f", prefix,
		(unsigned long long)l2m, prefix, (unsigned long long)l3m, prefix, stall);
	if (!*prefix)
		fprintf(f, " stall_ms=%.6f", stall / (m->p.ghz * 1e6));
}

void lg_write_window(const struct lg_model *m, FILE *f, unsigned window, unsigned label,
		     uint64_t insns, const char *extra)
{
	unsigned per_llc = m->t.cores * m->t.threads, i;
	char pfx[32];

	fprintf(f, "window=%u label=%u vcpus=%u llcs=%u insns=%llu", window, label,
		m->nvcpus, m->nllcs, (unsigned long long)insns);
	if (extra)
		fprintf(f, " %s", extra);
	write_group(m, f, "", 0, m->nvcpus);
	for (i = 0; i < m->nllcs; i++) {
		snprintf(pfx, sizeof(pfx), "llc%u.", i);
		write_group(m, f, pfx, i * per_llc, per_llc);
	}
	for (i = 0; i < m->nvcpus; i++) {
		snprintf(pfx, sizeof(pfx), "cpu%u.", i);
		write_group(m, f, pfx, i, 1);
	}
	fputc('\n', f);
}
