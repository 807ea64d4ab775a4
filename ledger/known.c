// SPDX-License-Identifier: GPL-2.0
/*
 * sp-ledger-known: loads whose cache traffic is known, to check the cache
 * ledger inside a guest (ledger/README.md, "Known answers").
 *
 *   sp-ledger-known -a CPU -b CPU -k KIB -n PASSES
 *
 * Pins itself to CPU a, writes a buffer of KIB KiB once, then makes PASSES
 * passes over it, each a read-modify-write of every 64-byte line, moving
 * before each pass to the other of CPU a and CPU b. Every line is then dirty
 * in the cache of the CPU that made the last pass, so each move that changes
 * core costs one miss per line (KIB * 16), served by that core's cache: from
 * the same LLC, another LLC of the socket or the other socket, by where b is.
 * With a == b nothing moves: the baseline, which the caller subtracts, so
 * that what the kernel and the tool themselves touch in a window cancels.
 * A buffer larger than the caches thrashes them instead (LRU on a cyclic
 * pattern): every pass misses every line, from memory.
 */
#define _GNU_SOURCE
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

int main(int argc, char **argv)
{
	long a = -1, b = -1, kib = 0, passes = 0, i, p;
	volatile uint64_t *buf;
	size_t lines;
	int o;

	while ((o = getopt(argc, argv, "a:b:k:n:")) != -1) {
		switch (o) {
		case 'a': a = number("a", optarg, 0); break;
		case 'b': b = number("b", optarg, 0); break;
		case 'k': kib = number("k", optarg, 1); break;
		case 'n': passes = number("n", optarg, 1); break;
		default: a = -1; break;
		}
	}
	if (a < 0 || b < 0 || !kib || !passes || optind != argc) {
		fprintf(stderr, "usage: sp-ledger-known -a CPU -b CPU -k KIB -n PASSES\n");
		return 2;
	}
	lines = (size_t)kib * 1024 / 64;
	if (posix_memalign((void **)&buf, 4096, lines * 64)) {
		fprintf(stderr, "sp-ledger-known: no memory for %ld KiB\n", kib);
		return 1;
	}
	pin(a);
	for (i = 0; i < (long)lines; i++)
		buf[i * 8] = i;
	for (p = 0; p < passes; p++) {
		pin(p % 2 ? a : b);
		for (i = 0; i < (long)lines; i++)
			buf[i * 8] += 1;
	}
	return 0;
}
