// SPDX-License-Identifier: GPL-2.0
/*
 * sp-ledger-known: loads whose cache traffic is known, to check the cache
 * ledger inside a guest (ledger/README.md, "Known answers").
 *
 *   sp-ledger-known [-m move|share|triad] -a CPU -b CPU -k KIB -n PASSES
 *
 * Every load touches one 64-bit word per 64-byte line, so that it makes one
 * access a line and the model's counts are lines.
 *
 * move (the default): pins itself to CPU a, writes a buffer of KIB KiB once,
 * then makes PASSES passes over it, each a read-modify-write of every
 * 64-byte line, moving before each pass to the other of CPU a and CPU b.
 * Every line is then dirty in the cache of the CPU that made the last pass,
 * so each move that changes core costs one miss per line (KIB * 16), served
 * by that core's cache: from the same LLC, another LLC of the socket or the
 * other socket, by where b is. With a == b nothing moves: the baseline,
 * which the caller subtracts, so that what the kernel and the tool
 * themselves touch in a window cancels. A buffer larger than the caches
 * thrashes them instead (LRU on a cyclic pattern): every pass misses every
 * line, from memory.
 *
 * share: a writer pinned to CPU a and a reader pinned to CPU b (a thread)
 * share a buffer of KIB KiB for PASSES rounds. In each round the writer
 * stores the round's number into every line, then hands over; the reader
 * loads every line (and checks the number: a broken handshake exits 1),
 * then hands back. The handshake is one flag on a line of its own, spun on
 * with PAUSE (which also makes QEMU's TCG run another vCPU at once). Each
 * store makes the reader's copy of the line stale, so each round the reader
 * misses on every line and is served from the writer's cache, by the
 * distance from a to b; the reader's loads leave the writer's copies
 * current, so the writer misses only on its first round.
 *
 * triad: pinned to CPU a (b must be a), STREAM's triad over three arrays of
 * KIB KiB each: writes a, b and c once, then PASSES passes of
 * a[i] = b[i] + 3 * c[i]. Three arrays that fit one L3 are served from it
 * on every pass; three that do not go to memory on every pass.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		fprintf(stderr, "sp-ledger-known: cannot run on CPU %d: ", cpu);
		perror(NULL);
		exit(1);
	}
}

static long number(const char *opt, const char *s, long min)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (end == s || *end || v < min) {
		fprintf(stderr, "sp-ledger-known: -%s %s: want a whole number >= %ld\n", opt, s, min);
		exit(2);
	}
	return v;
}

static volatile uint64_t *alloc_lines(size_t lines)
{
	void *p;

	if (posix_memalign(&p, 4096, lines * 64)) {
		fprintf(stderr, "sp-ledger-known: no memory for %zu KiB\n", lines * 64 / 1024);
		exit(1);
	}
	return p;
}

static void move(long a, long b, size_t lines, long passes)
{
	volatile uint64_t *buf = alloc_lines(lines);
	size_t i;
	long p;

	pin(a);
	for (i = 0; i < lines; i++)
		buf[i * 8] = i;
	for (p = 0; p < passes; p++) {
		pin(p % 2 ? a : b);
		for (i = 0; i < lines; i++)
			buf[i * 8] += 1;
	}
}

/* share: the flag says whose turn it is; it has a line to itself. */
static struct {
	int turn;		/* 0: the writer's, 1: the reader's */
	char pad[60];
} flag __attribute__((aligned(64)));

static struct share {
	volatile uint64_t *buf;
	size_t lines;
	long rounds, cpu, bad;
} sh;

static void wait_turn(int me)
{
	while (__atomic_load_n(&flag.turn, __ATOMIC_ACQUIRE) != me)
		__builtin_ia32_pause();
}

static void *reader(void *arg)
{
	volatile uint64_t *buf = sh.buf;
	size_t i, lines = sh.lines;
	long r, rounds = sh.rounds, bad = 0;

	(void)arg;
	pin(sh.cpu);
	for (r = 1; r <= rounds; r++) {
		wait_turn(1);
		for (i = 0; i < lines; i++)
			if (buf[i * 8] != (uint64_t)r)
				bad++;
		__atomic_store_n(&flag.turn, 0, __ATOMIC_RELEASE);
	}
	sh.bad = bad;
	return NULL;
}

static int share(long a, long b, size_t lines, long rounds)
{
	volatile uint64_t *buf;
	pthread_t t;
	size_t i;
	long r;
	int e;

	pin(a);
	sh.buf = buf = alloc_lines(lines);
	sh.lines = lines;
	sh.rounds = rounds;
	sh.cpu = b;
	flag.turn = 0;
	e = pthread_create(&t, NULL, reader, NULL);
	if (e) {
		fprintf(stderr, "sp-ledger-known: cannot start the reader: %s\n", strerror(e));
		return 1;
	}
	for (r = 1; r <= rounds; r++) {
		wait_turn(0);
		for (i = 0; i < lines; i++)
			buf[i * 8] = r;
		__atomic_store_n(&flag.turn, 1, __ATOMIC_RELEASE);
	}
	pthread_join(t, NULL);
	if (sh.bad) {
		fprintf(stderr, "sp-ledger-known: the reader saw %ld lines not of its round: the handshake is broken\n",
			sh.bad);
		return 1;
	}
	return 0;
}

static void triad(long a, size_t lines, long passes)
{
	volatile uint64_t *x = alloc_lines(lines), *y = alloc_lines(lines), *z = alloc_lines(lines);
	size_t i;
	long p;

	pin(a);
	for (i = 0; i < lines; i++)
		x[i * 8] = 0;
	for (i = 0; i < lines; i++)
		y[i * 8] = i;
	for (i = 0; i < lines; i++)
		z[i * 8] = 2 * i;
	for (p = 0; p < passes; p++)
		for (i = 0; i < lines; i++)
			x[i * 8] = y[i * 8] + 3 * z[i * 8];
}

int main(int argc, char **argv)
{
	long a = -1, b = -1, kib = 0, passes = 0;
	const char *mode = "move";
	size_t lines;
	int o;

	while ((o = getopt(argc, argv, "m:a:b:k:n:")) != -1) {
		switch (o) {
		case 'm': mode = optarg; break;
		case 'a': a = number("a", optarg, 0); break;
		case 'b': b = number("b", optarg, 0); break;
		case 'k': kib = number("k", optarg, 1); break;
		case 'n': passes = number("n", optarg, 1); break;
		default: a = -1; break;
		}
	}
	if (a < 0 || b < 0 || !kib || !passes || optind != argc) {
		fprintf(stderr, "usage: sp-ledger-known [-m move|share|triad] -a CPU -b CPU -k KIB -n PASSES\n");
		return 2;
	}
	lines = (size_t)kib * 1024 / 64;
	if (!strcmp(mode, "move")) {
		move(a, b, lines, passes);
		return 0;
	}
	if (!strcmp(mode, "share")) {
		if (a == b) {
			fprintf(stderr, "sp-ledger-known: -m share: the writer (-a) and the reader (-b) must be two CPUs\n");
			return 2;
		}
		return share(a, b, lines, passes);
	}
	if (!strcmp(mode, "triad")) {
		if (a != b) {
			fprintf(stderr, "sp-ledger-known: -m triad runs on one CPU: give -b the same as -a\n");
			return 2;
		}
		triad(a, lines, passes);
		return 0;
	}
	fprintf(stderr, "sp-ledger-known: -m %s: want move, share or triad\n", mode);
	return 2;
}
