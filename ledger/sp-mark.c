// SPDX-License-Identifier: GPL-2.0
/*
 * sp-mark start|end [LABEL]: mark the start or end of a measured run for the
 * cache ledger. Executes the 7-byte NOP `nopl DISP32(%rax)` whose DISP32
 * (mark.h) carries the kind and LABEL (0 to 16383, default 0; e.g. the run's
 * index). On hardware, or under QEMU without the plugin, it does nothing.
 * The instruction is written to a fresh page at run time because the label
 * is an immediate: QEMU translates the page when it first runs it.
 */
#include "mark.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

int main(int argc, char **argv)
{
	unsigned long label = 0;
	unsigned kind;
	uint32_t d;
	uint8_t *p;
	char *end;

	if (argc < 2 || argc > 3 || (strcmp(argv[1], "start") && strcmp(argv[1], "end"))) {
		fprintf(stderr, "usage: sp-mark start|end [LABEL]  (LABEL 0 to %u)\n", LG_MARK_LABEL_MAX);
		return 2;
	}
	kind = strcmp(argv[1], "start") ? LG_MARK_END : LG_MARK_START;
	if (argc == 3) {
		label = strtoul(argv[2], &end, 10);
		if (end == argv[2] || *end || argv[2][0] == '-' || label > LG_MARK_LABEL_MAX) {
			fprintf(stderr, "sp-mark: label '%s': want a whole number 0 to %u\n", argv[2],
				LG_MARK_LABEL_MAX);
			return 2;
		}
	}
	d = LG_MARK(kind, (uint32_t)label);
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("sp-mark: mmap");
		return 1;
	}
	p[0] = 0x0f, p[1] = 0x1f, p[2] = 0x80;		/* nopl disp32(%rax) */
	p[3] = d & 0xff, p[4] = d >> 8 & 0xff, p[5] = d >> 16 & 0xff, p[6] = d >> 24;
	p[7] = 0xc3;					/* ret */
	if (mprotect(p, 4096, PROT_READ | PROT_EXEC)) {
		perror("sp-mark: mprotect");
		return 1;
	}
	((void (*)(void))(uintptr_t)p)();
	return 0;
}
