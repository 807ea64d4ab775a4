/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The cache ledger's model: a Zen-like hierarchy (L1d and L2 per core, shared
 * by its SMT threads; one L3 per LLC) fed with (vCPU, line, load/store) and
 * answering where each access was served from. Pure C, no QEMU: the plugin
 * (ledger.c) and the host test (test-model.c) both drive it.
 *
 * Coherence is a version per line: a store bumps the line's version and names
 * its core the writer; a cached copy whose version is older is a miss. Nothing
 * is broadcast. See README.md for the rules that class a miss.
 */
#ifndef LEDGER_MODEL_H
#define LEDGER_MODEL_H

#include <stdint.h>
#include <stdio.h>

/* Where an access was served from. L1 and L2 are hits; the rest are L2 misses. */
enum lg_class {
	LG_L1,		/* own core's L1d */
	LG_L2,		/* own core's L2 */
	LG_L3,		/* own LLC's L3 */
	LG_C2C_LLC,	/* dirty in another core's L1/L2 of the same LLC */
	LG_C2C_NODE,	/* dirty in another LLC of the same socket */
	LG_C2C_REMOTE,	/* dirty in a cache of the other socket */
	LG_DRAM_LOCAL,	/* memory of the accessing socket's node */
	LG_DRAM_REMOTE,	/* memory of another node */
	LG_NCLASS
};

extern const char *const lg_class_name[LG_NCLASS];

/* The numbers of a machine, from one `key value # source` file. */
struct lg_params {
	unsigned line;			/* bytes */
	unsigned l1_bytes, l1_ways;
	unsigned l2_bytes, l2_ways;
	unsigned l3_bytes, l3_ways;
	double ghz;			/* converts ns to cycles */
	double lat[LG_NCLASS];		/* cycles; lat[LG_L1] is not charged */
};

/* Topology, in QEMU's order: vCPU i is thread i % threads of core
 * (i / threads) % cores of die (i / (threads * cores)) % dies of socket
 * i / (threads * cores * dies). One die is one LLC; one socket one node. */
struct lg_topo {
	unsigned sockets, dies, cores, threads;
};

struct lg_model;

/*
 * lg_params_load: parse PATH into *p. Every key must appear once with a
 * valid value; on error returns -1 and writes a one-line message that names
 * the file, line and the fix into err.
 */
int lg_params_load(const char *path, struct lg_params *p, char *err, size_t errlen);

/*
 * lg_model_new: a cold model for TOPO over NLINES lines of memory split into
 * `sockets` equal homes (line l's home node is l / (nlines / sockets)).
 * NULL with a message in err on bad input or no memory.
 */
struct lg_model *lg_model_new(const struct lg_params *p, const struct lg_topo *t,
			      uint64_t nlines, char *err, size_t errlen);
void lg_model_free(struct lg_model *m);

/* lg_access: vCPU VCPU loads (store = 0) or stores LINE; returns the class. */
enum lg_class lg_access(struct lg_model *m, unsigned vcpu, uint64_t line, int store);

/* Counters since the last lg_reset_counts. */
uint64_t lg_count(const struct lg_model *m, unsigned vcpu, enum lg_class c);
void lg_reset_counts(struct lg_model *m);
unsigned lg_nvcpus(const struct lg_model *m);
unsigned lg_nllcs(const struct lg_model *m);
unsigned lg_llc_of(const struct lg_model *m, unsigned vcpu);
/* Sum of count x latency over the classes past L1, in cycles. */
double lg_stall_cycles(const struct lg_model *m, int vcpu_or_all);

/*
 * lg_write_window: one line, `window=N label=L vcpus=V llcs=L insns=I EXTRA
 * k=v ...` (README.md): totals per class, then the same per LLC and per
 * vCPU, to F. EXTRA is written as given (e.g. "unmodelled=0"); NULL for none.
 */
void lg_write_window(const struct lg_model *m, FILE *f, unsigned window, unsigned label,
		     uint64_t insns, const char *extra);

#endif
