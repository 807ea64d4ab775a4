// SPDX-License-Identifier: GPL-2.0
/*
 * Known answers for the cache ledger's model (model.c), on the host, no QEMU.
 *
 *   test-model CONF            run the cases on zen3's topology with CONF's caches
 *   test-model --conf CONF     only parse CONF: exit 1 with the parser's message
 *   test-model --bench CONF N [SPREAD]
 *                              host ns per access over N synthetic accesses,
 *                              SPREAD% of them (default 10) spread widely
 *
 * Topology as the zen3 preset gives QEMU: 2 sockets x 2 LLCs x 8 cores x 2
 * threads. vCPU 0 and 1 are one core's threads; 2 is another core of LLC 0;
 * 16 is in LLC 1 (socket 0); 32 in LLC 2 (socket 1). Memory: 2 GiB, the
 * first half node 0's, as QEMU lays out two 1G nodes.
 *
 * The sets are read in line order. With true LRU a set larger than a cache
 * misses in it on every pass (each line is evicted before it comes back), so
 * each count below is exact unless a case says otherwise.
 */
#include "model.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

static const struct lg_topo zen3 = { 2, 2, 8, 2 };
#define NLINES (2ULL << 30 >> 6)
#define NODE1 (NLINES / 2)

static struct lg_params P;
static int failures, cases;

static struct lg_model *fresh(void)
{
	char err[512];
	struct lg_model *m = lg_model_new(&P, &zen3, NLINES, err, sizeof(err));

	if (!m) {
		fprintf(stderr, "%s\n", err);
		exit(2);
	}
	return m;
}

static void pass(struct lg_model *m, unsigned vcpu, uint64_t first, uint64_t n, int store)
{
	uint64_t l;

	for (l = first; l < first + n; l++)
		lg_access(m, vcpu, l, store);
}

/* expect: vCPU's counts since the last reset are exactly WANT (classes not
 * named are 0); prints one TAP-like line. */
static void expect(struct lg_model *m, const char *name, unsigned vcpu,
		   const uint64_t want[LG_NCLASS])
{
	char got[512] = "";
	int ok = 1;
	unsigned c;

	for (c = 0; c < LG_NCLASS; c++) {
		uint64_t k = lg_count(m, vcpu, c);

		if (k != want[c])
			ok = 0;
		if (k)
			snprintf(got + strlen(got), sizeof(got) - strlen(got), " %s=%llu",
				 lg_class_name[c], (unsigned long long)k);
	}
	cases++;
	if (!ok)
		failures++;
	printf("%s - %s:%s\n", ok ? "ok" : "not ok", name, got);
	if (!ok) {
		printf("#   want:");
		for (c = 0; c < LG_NCLASS; c++)
			if (want[c])
				printf(" %s=%llu", lg_class_name[c], (unsigned long long)want[c]);
		printf("\n");
	}
}

#define W(...) ((const uint64_t[LG_NCLASS]){ __VA_ARGS__ })

/* W KiB read, then moved: the reader's second-pass counts by destination. */
static void moves(void)
{
	const uint64_t base = 1 << 20, n = 256 * 1024 / 64;	/* 256 KiB: > L1, < L2 */
	struct lg_model *m;

	m = fresh();
	pass(m, 0, base, n, 0);
	expect(m, "256 KiB, first pass on CPU 0: all from local DRAM", 0, W([LG_DRAM_LOCAL] = n));
	lg_reset_counts(m);
	pass(m, 0, base, n, 0);
	expect(m, "256 KiB, second pass on CPU 0: all L2 hits (bigger than L1)", 0, W([LG_L2] = n));
	lg_reset_counts(m);
	pass(m, 1, base, n, 0);
	expect(m, "256 KiB re-read on the SMT sibling: all L2 hits (L1 and L2 shared by the core)",
	       1, W([LG_L2] = n));
	lg_reset_counts(m);
	pass(m, 2, base, n, 0);
	expect(m, "256 KiB only read, re-read on another core of the LLC: all L3", 2, W([LG_L3] = n));
	lg_reset_counts(m);
	pass(m, 16, base, n, 0);
	expect(m, "256 KiB only read, re-read in another LLC of the socket: local DRAM", 16,
	       W([LG_DRAM_LOCAL] = n));
	lg_reset_counts(m);
	pass(m, 32, base, n, 0);
	expect(m, "256 KiB only read, re-read on the other socket: remote DRAM", 32,
	       W([LG_DRAM_REMOTE] = n));
	lg_model_free(m);

	m = fresh();
	pass(m, 0, base, 16 * 1024 / 64, 0);
	lg_reset_counts(m);
	pass(m, 0, base, 16 * 1024 / 64, 0);
	expect(m, "16 KiB, second pass on CPU 0: all L1 hits", 0, W([LG_L1] = 256));
	lg_model_free(m);

	/* Written by CPU 0, then read elsewhere: the dirty lines come from its L2. */
	m = fresh();
	pass(m, 0, base, n, 1);
	expect(m, "256 KiB written on CPU 0: all from local DRAM (read for ownership)", 0,
	       W([LG_DRAM_LOCAL] = n));
	lg_reset_counts(m);
	pass(m, 1, base, n, 0);
	expect(m, "256 KiB written, read on the SMT sibling: all L2 hits", 1, W([LG_L2] = n));
	lg_reset_counts(m);
	pass(m, 2, base, n, 0);
	expect(m, "256 KiB written, read on another core of the LLC: all c2c_llc", 2,
	       W([LG_C2C_LLC] = n));
	lg_model_free(m);

	m = fresh();
	pass(m, 0, base, n, 1);
	lg_reset_counts(m);
	pass(m, 16, base, n, 0);
	expect(m, "256 KiB written, read in another LLC of the socket: all c2c_node", 16,
	       W([LG_C2C_NODE] = n));
	lg_model_free(m);

	m = fresh();
	pass(m, 0, base, n, 1);
	lg_reset_counts(m);
	pass(m, 32, base, n, 0);
	expect(m, "256 KiB written, read on the other socket: all c2c_remote", 32,
	       W([LG_C2C_REMOTE] = n));
	lg_model_free(m);
}

/* A writer and a reader sharing a 4 KiB buffer for R rounds. */
static void sharing(void)
{
	const uint64_t base = 3 << 20, b = 64, r = 10;
	unsigned readers[] = { 2, 16, 32 }, i, k;
	const enum lg_class want[] = { LG_C2C_LLC, LG_C2C_NODE, LG_C2C_REMOTE };
	const char *names[] = {
		"writer CPU 0, reader CPU 2 (same LLC), 10 rounds of 4 KiB: reader all c2c_llc",
		"writer CPU 0, reader CPU 16 (other LLC), 10 rounds of 4 KiB: reader all c2c_node",
		"writer CPU 0, reader CPU 32 (other socket), 10 rounds of 4 KiB: reader all c2c_remote",
	};

	for (i = 0; i < 3; i++) {
		struct lg_model *m = fresh();
		uint64_t wr[LG_NCLASS] = { 0 }, rd[LG_NCLASS] = { 0 };

		for (k = 0; k < r; k++) {
			pass(m, 0, base, b, 1);
			pass(m, readers[i], base, b, 0);
		}
		rd[want[i]] = b * r;
		expect(m, names[i], readers[i], rd);
		/* The writer's copies stay current (reads do not bump the
		 * version): one miss per line, then hits. Upgrades are free. */
		wr[LG_DRAM_LOCAL] = b;
		wr[LG_L1] = b * (r - 1);
		expect(m, "  ... the writer: first round from DRAM, then all L1 hits", 0, wr);
		lg_model_free(m);
	}
}

/*
 * known.c's share mode, access for access (one word a line): the writer (CPU
 * 0) sets the flag to 0, then each of R rounds: the writer loads the flag,
 * stores every line of 256 KiB and stores the flag; the reader loads the
 * flag, loads every line and stores the flag. (The kernel's zeroing of each
 * page at the first store costs the same miss as the store would; a reader's
 * extra spin on a flag it already holds hits.) Each store makes the other
 * core's copy stale, so by the model's rules:
 * - the reader, every round: the flag and every line from the writer's L2,
 *   in the class of the distance: R x (lines + 1); then its flag store hits
 *   its L2 (the sweep pushed the flag out of its L1);
 * - the writer: the flag's first store and round 1's lines from DRAM; from
 *   round 2 the flag from the reader's L2 (R - 1), and the lines hit its own
 *   L2 (reads do not make the writer's copies stale; 256 KiB > L1), as do
 *   its flag stores.
 */
static void share_known(void)
{
	const uint64_t base = 5 << 20, flag = 7 << 20, n = 256 * 1024 / 64, r = 20;
	unsigned readers[] = { 2, 16, 32 }, i, k;
	const enum lg_class want[] = { LG_C2C_LLC, LG_C2C_NODE, LG_C2C_REMOTE };
	const char *names[] = {
		"known.c share, writer CPU 0, reader CPU 2 (same LLC), 20 rounds of 256 KiB: reader",
		"known.c share, writer CPU 0, reader CPU 16 (other LLC), 20 rounds of 256 KiB: reader",
		"known.c share, writer CPU 0, reader CPU 32 (other socket), 20 rounds of 256 KiB: reader",
	};

	for (i = 0; i < 3; i++) {
		struct lg_model *m = fresh();
		uint64_t wr[LG_NCLASS] = { 0 }, rd[LG_NCLASS] = { 0 };

		lg_access(m, 0, flag, 1);
		for (k = 0; k < r; k++) {
			lg_access(m, 0, flag, 0);
			pass(m, 0, base, n, 1);
			lg_access(m, 0, flag, 1);
			lg_access(m, readers[i], flag, 0);
			pass(m, readers[i], base, n, 0);
			lg_access(m, readers[i], flag, 1);
		}
		rd[want[i]] = r * (n + 1);
		rd[LG_L2] = r;
		expect(m, names[i], readers[i], rd);
		wr[LG_DRAM_LOCAL] = n + 1;
		wr[LG_L1] = 1;
		wr[want[i]] = r - 1;
		wr[LG_L2] = 1 + (r - 1) * (n + 1);
		expect(m, "  ... the writer: round 1 from DRAM, then L2 hits; the flag from the reader",
		       0, wr);
		lg_model_free(m);
	}
}

/* known.c's triad on CPU 0: arrays of N lines at FIRST, FIRST + N, FIRST + 2N. */
static void triad(struct lg_model *m, uint64_t n, uint64_t first, unsigned passes)
{
	uint64_t l;
	unsigned p;

	for (l = 0; l < 3 * n; l++)
		lg_access(m, 0, first + l, 1);
	for (p = 0; p < passes; p++)
		for (l = 0; l < n; l++) {
			lg_access(m, 0, first + n + l, 0);
			lg_access(m, 0, first + 2 * n + l, 0);
			lg_access(m, 0, first + l, 1);
		}
}

/*
 * known.c's triad mode on CPU 0, access for access: arrays x, y, z of KIB
 * KiB each (one word a line), written once in that order, then PASSES passes
 * of x = y + 3 * z (load y, load z, store x, line by line). The first writes
 * miss to DRAM (3 x lines). Then, if the three fit one L3 (5461 KiB each,
 * 3 x 5461 KiB just under half of 32 MiB), every access of every pass misses
 * L2 and hits L3 (x's dirty lines were written back there); if they do not
 * (43690 KiB each, 4 x L3), every access goes to memory again (x's dirty
 * lines left the L3 and made memory current), local or remote by where the
 * pages are: known.c touches them first on CPU a, so they are its node's.
 */
static void triad_known(void)
{
	const uint64_t in = 5461 * 1024 / 64, out = 43690ULL * 1024 / 64;
	struct lg_model *m;

	m = fresh();
	triad(m, in, 1 << 20, 4);
	expect(m, "known.c triad, 3 x 5461 KiB (in one L3), 4 passes on CPU 0: first writes from DRAM, every pass from L3",
	       0, W([LG_DRAM_LOCAL] = 3 * in, [LG_L3] = 4 * 3 * in));
	lg_model_free(m);

	m = fresh();
	triad(m, out, 1 << 20, 2);
	expect(m, "known.c triad, 3 x 43690 KiB (4 x L3), 2 passes on CPU 0: first writes and every pass from local DRAM",
	       0, W([LG_DRAM_LOCAL] = 3 * 3 * out));
	lg_model_free(m);

	m = fresh();
	triad(m, out, NODE1, 2);
	expect(m, "  ... the same arrays on node 1 (first touched elsewhere): all from remote DRAM",
	       0, W([LG_DRAM_REMOTE] = 3 * 3 * out));
	lg_model_free(m);
}

/* Sets bigger than L3: every pass from DRAM, local or remote by home. */
static void streams(void)
{
	const uint64_t n = 64ULL << 20 >> 6;	/* 64 MiB: 2x L3 */
	struct lg_model *m = fresh();
	uint64_t l2m, k;

	pass(m, 0, 0, n, 0);
	lg_reset_counts(m);
	pass(m, 0, 0, n, 0);
	expect(m, "64 MiB streamed twice on CPU 0, second pass: all local DRAM", 0,
	       W([LG_DRAM_LOCAL] = n));
	lg_reset_counts(m);
	pass(m, 0, NODE1, n, 0);
	expect(m, "64 MiB of node 1 streamed on CPU 0: all remote DRAM", 0, W([LG_DRAM_REMOTE] = n));
	lg_reset_counts(m);
	pass(m, 32, NODE1, n, 0);
	expect(m, "  ... then on CPU 32, whose socket's node it is: all local DRAM", 32,
	       W([LG_DRAM_LOCAL] = n));
	lg_model_free(m);

	/* 64 MiB written on CPU 0 then read on CPU 16: what the writer's L2 and
	 * L3 still hold dirty comes cache to cache, the rest (written back when
	 * L3 evicted it) from DRAM. Bounded, not exact: at least the L2's 8192
	 * lines, at most L2 + L3 lines; the two classes cover every line. */
	m = fresh();
	pass(m, 0, 0, n, 1);
	lg_reset_counts(m);
	pass(m, 16, 0, n, 0);
	k = lg_count(m, 16, LG_C2C_NODE);
	l2m = k + lg_count(m, 16, LG_DRAM_LOCAL);
	cases++;
	if (l2m != n || k < P.l2_bytes / P.line || k > (P.l2_bytes + P.l3_bytes) / P.line) {
		failures++;
		printf("not ok - ");
	} else {
		printf("ok - ");
	}
	printf("64 MiB written on CPU 0, read on CPU 16: c2c_node %llu (want %u..%u), c2c_node + dram_local %llu (want %llu)\n",
	       (unsigned long long)k, P.l2_bytes / P.line, (P.l2_bytes + P.l3_bytes) / P.line,
	       (unsigned long long)l2m, (unsigned long long)n);
	lg_model_free(m);
}

/* The window line: keys and the stall sum for a known mix. */
static void window_line(void)
{
	struct lg_model *m = fresh();
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	const char *head = "window=7 label=3 vcpus=64 llcs=4 insns=12345 l1=10 l2=0 l3=0 ";
	char want[256];
	double stall;

	pass(m, 0, 0, 10, 0);		/* 10 local DRAM */
	pass(m, 0, 0, 10, 0);		/* 10 L1 */
	pass(m, 33, 0, 10, 0);		/* 10 remote DRAM: socket 1 */
	lg_write_window(m, f, 7, 3, 12345, NULL);
	fclose(f);
	stall = 10 * P.lat[LG_DRAM_LOCAL] + 10 * P.lat[LG_DRAM_REMOTE];
	snprintf(want, sizeof(want), " l2_miss=20 l3_miss=20 stall_cycles=%.0f ", stall);
	cases++;
	if (strncmp(buf, head, strlen(head)) ||
	    !strstr(buf, want) || !strstr(buf, " llc2.dram_remote=10 ") ||
	    !strstr(buf, " cpu33.l2_miss=10 ") || !strstr(buf, " llc1.l2_miss=0 ") ||
	    buf[len - 1] != '\n' || strchr(buf, '\n') != buf + len - 1) {
		failures++;
		printf("not ok - window line: %.300s\n#   want %s\n", buf, want);
	} else {
		printf("ok - window line: %.160s...\n", buf);
	}
	free(buf);
	lg_model_free(m);
}

/* Host cost (CPU time of this process): (100 - SPREAD)% of accesses to a
 * 64 KiB hot set per vCPU, SPREAD% over 256 MiB, 20% stores, the vCPUs in
 * turn every 1000 accesses. */
static void bench(uint64_t n, unsigned spread)
{
	struct lg_model *m = fresh();
	struct timespec a, b;
	uint64_t i, x = 88172645463325252ULL;
	unsigned vcpu = 0;
	double ns;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	for (i = 0; i < n; i++) {
		uint64_t line;

		x ^= x << 13, x ^= x >> 7, x ^= x << 17;
		if (i % 1000 == 0)
			vcpu = (vcpu + 17) % 64;
		line = (x >> 8) % 100 >= spread ? (1 << 20) + vcpu * 1024 + (x >> 20) % 1024
						: (x >> 24) % (256ULL << 20 >> 6);
		lg_access(m, vcpu, line, (x & 0xff) < 51);
	}
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	ns = ((b.tv_sec - a.tv_sec) * 1e9 + (b.tv_nsec - a.tv_nsec)) / (double)n;
	printf("%llu accesses, %u%% spread: %.1f ns per access (CPU time); l2_miss share %.3f\n",
	       (unsigned long long)n, spread, ns,
	       1 - (double)(lg_count(m, vcpu, LG_L1) + lg_count(m, vcpu, LG_L2)) /
			   (double)(lg_count(m, vcpu, LG_L1) + lg_count(m, vcpu, LG_L2) +
				    lg_count(m, vcpu, LG_L3) + lg_count(m, vcpu, LG_C2C_LLC) +
				    lg_count(m, vcpu, LG_C2C_NODE) + lg_count(m, vcpu, LG_C2C_REMOTE) +
				    lg_count(m, vcpu, LG_DRAM_LOCAL) + lg_count(m, vcpu, LG_DRAM_REMOTE) + 1));
	lg_model_free(m);
}

int main(int argc, char **argv)
{
	char err[512];
	const char *conf = argc == 2 ? argv[1] : argc >= 3 ? argv[2] : NULL;

	if (!conf || (argc >= 3 && strcmp(argv[1], "--conf") && strcmp(argv[1], "--bench")) ||
	    (argc == 3 && !strcmp(argv[1], "--bench")) || (argc >= 4 && strcmp(argv[1], "--bench")) ||
	    argc > 5) {
		fprintf(stderr, "usage: %s CONF | --conf CONF | --bench CONF N [SPREAD]\n", argv[0]);
		return 2;
	}
	if (lg_params_load(conf, &P, err, sizeof(err))) {
		fprintf(stderr, "error: %s\n", err);
		return 1;
	}
	if (argc == 3)
		return 0;
	if (argc >= 4) {
		unsigned spread = argc == 5 ? (unsigned)strtoul(argv[4], NULL, 10) : 10;

		if (spread > 100) {
			fprintf(stderr, "SPREAD %u: want a percentage, 0 to 100\n", spread);
			return 2;
		}
		bench(strtoull(argv[3], NULL, 10), spread);
		return 0;
	}
	moves();
	sharing();
	share_known();
	streams();
	triad_known();
	window_line();
	printf("%d of %d cases passed\n", cases - failures, cases);
	return failures ? 1 : 0;
}
