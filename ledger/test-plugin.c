// SPDX-License-Identifier: GPL-2.0
/*
 * A stand-in for QEMU 7.2's plugin host, to test libledger.so on the host
 * without booting anything: this program defines the qemu_plugin_* calls the
 * plugin makes (exported with -rdynamic), loads the plugin, and plays
 * translations and executions at it.
 *
 *   test-plugin SO ARG...          install with ARGs (QEMU's arg=...) on 64
 *                                  vCPUs; exit with the install's result
 *   test-plugin SO --run CONF OUT  the window sequence below; OUT gets its lines
 *
 * The sequence: plain code translated before any marker gets no callbacks;
 * the first start marker (label 3) asks for one reset, the "flush" then
 * re-registers and opens the window; 256 KiB read on vCPU 0 (4096 local
 * DRAM misses); the end marker writes window 1. Accesses between windows are
 * not counted; window 2 (label 4) has vCPU 32 read 4 KiB that vCPU 0 wrote
 * in window 2 (64 c2c_remote), then 4 KiB of the second node, which QEMU 7.2
 * reports at 2 GiB + offset (64 local DRAM misses on LLC 2, ledger.c), one
 * access in the gap between the nodes' reports and one I/O access
 * (unmodelled=2). TP_VERSION=N installs as a QEMU of plugin API version N.
 */
#include <qemu-plugin.h>

#include "mark.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct qemu_plugin_insn {
	uint8_t b[8];
	size_t size;
	qemu_plugin_vcpu_udata_cb_t exec;
	void *exec_ud;
	qemu_plugin_vcpu_mem_cb_t mem;
};

struct qemu_plugin_tb {
	size_t n;
	struct qemu_plugin_insn *insn;
	uint64_t *inl;
	uint64_t imm;
};

struct qemu_plugin_hwaddr {
	uint64_t pa;
	bool io;
};

static qemu_plugin_vcpu_tb_trans_cb_t trans;
static qemu_plugin_udata_cb_t atexit_cb;
static void *atexit_ud;
static qemu_plugin_simple_cb_t reset_cb;
static int resets;
static struct qemu_plugin_hwaddr hw;

void qemu_plugin_register_vcpu_tb_trans_cb(qemu_plugin_id_t id, qemu_plugin_vcpu_tb_trans_cb_t cb)
{
	(void)id;
	trans = cb;
}

void qemu_plugin_register_atexit_cb(qemu_plugin_id_t id, qemu_plugin_udata_cb_t cb, void *ud)
{
	(void)id;
	atexit_cb = cb;
	atexit_ud = ud;
}

void qemu_plugin_reset(qemu_plugin_id_t id, qemu_plugin_simple_cb_t cb)
{
	(void)id;
	resets++;
	reset_cb = cb;
}

void qemu_plugin_register_vcpu_insn_exec_cb(struct qemu_plugin_insn *insn,
					    qemu_plugin_vcpu_udata_cb_t cb,
					    enum qemu_plugin_cb_flags flags, void *ud)
{
	(void)flags;
	insn->exec = cb;
	insn->exec_ud = ud;
}

void qemu_plugin_register_vcpu_mem_cb(struct qemu_plugin_insn *insn, qemu_plugin_vcpu_mem_cb_t cb,
				      enum qemu_plugin_cb_flags flags, enum qemu_plugin_mem_rw rw,
				      void *ud)
{
	(void)flags, (void)rw, (void)ud;
	insn->mem = cb;
}

void qemu_plugin_register_vcpu_tb_exec_inline(struct qemu_plugin_tb *tb, enum qemu_plugin_op op,
					      void *ptr, uint64_t imm)
{
	(void)op;
	tb->inl = ptr;
	tb->imm = imm;
}

size_t qemu_plugin_tb_n_insns(const struct qemu_plugin_tb *tb)
{
	return tb->n;
}

struct qemu_plugin_insn *qemu_plugin_tb_get_insn(const struct qemu_plugin_tb *tb, size_t i)
{
	return &tb->insn[i];
}

const void *qemu_plugin_insn_data(const struct qemu_plugin_insn *insn)
{
	return insn->b;
}

size_t qemu_plugin_insn_size(const struct qemu_plugin_insn *insn)
{
	return insn->size;
}

/* meminfo here: bits 0-3 the size shift, bit 4 store. */
unsigned int qemu_plugin_mem_size_shift(qemu_plugin_meminfo_t info)
{
	return info & 15;
}

bool qemu_plugin_mem_is_store(qemu_plugin_meminfo_t info)
{
	return info >> 4 & 1;
}

struct qemu_plugin_hwaddr *qemu_plugin_get_hwaddr(qemu_plugin_meminfo_t info, uint64_t vaddr)
{
	(void)info;
	hw.pa = vaddr;
	return &hw;
}

bool qemu_plugin_hwaddr_is_io(const struct qemu_plugin_hwaddr *h)
{
	return h->io;
}

uint64_t qemu_plugin_hwaddr_phys_addr(const struct qemu_plugin_hwaddr *h)
{
	return h->pa;
}

static int (*install)(qemu_plugin_id_t, const qemu_info_t *, int, char **);

static void load(const char *so)
{
	void *h = dlopen(so, RTLD_NOW);

	if (!h) {
		fprintf(stderr, "dlopen %s: %s\n", so, dlerror());
		exit(2);
	}
	install = (int (*)(qemu_plugin_id_t, const qemu_info_t *, int, char **))dlsym(h, "qemu_plugin_install");
	if (!install || !dlsym(h, "qemu_plugin_version")) {
		fprintf(stderr, "%s lacks qemu_plugin_install or qemu_plugin_version\n", so);
		exit(2);
	}
}

static int do_install(int argc, char **argv)
{
	qemu_info_t info;

	memset(&info, 0, sizeof(info));
	info.target_name = "x86_64";
	info.version.min = info.version.cur = QEMU_PLUGIN_VERSION;
	if (getenv("TP_VERSION"))
		info.version.cur = atoi(getenv("TP_VERSION"));
	info.system_emulation = true;
	info.system.smp_vcpus = info.system.max_vcpus = 64;
	return install(1, &info, argc, argv);
}

/* A TB of N instructions: a 3-byte mov, or the marker D at index 0 if D. */
static struct qemu_plugin_tb *tb_new(size_t n, uint32_t d)
{
	struct qemu_plugin_tb *tb = calloc(1, sizeof(*tb));
	size_t i;

	tb->n = n;
	tb->insn = calloc(n, sizeof(*tb->insn));
	for (i = 0; i < n; i++) {
		static const uint8_t mov[] = { 0x48, 0x8b, 0x07 };

		memcpy(tb->insn[i].b, mov, sizeof(mov));
		tb->insn[i].size = sizeof(mov);
	}
	if (d) {
		uint8_t m[7] = { 0x0f, 0x1f, 0x80, d & 0xff, d >> 8 & 0xff, d >> 16 & 0xff, d >> 24 };

		memcpy(tb->insn[0].b, m, 7);
		tb->insn[0].size = 7;
	}
	trans(1, tb);
	return tb;
}

static void exec_tb(struct qemu_plugin_tb *tb, unsigned vcpu)
{
	size_t i;

	if (tb->inl)
		*tb->inl += tb->imm;
	for (i = 0; i < tb->n; i++)
		if (tb->insn[i].exec)
			tb->insn[i].exec(vcpu, tb->insn[i].exec_ud);
}

static void mem(struct qemu_plugin_tb *tb, unsigned vcpu, uint64_t pa, int store)
{
	tb->insn[0].mem(vcpu, 3 | (store ? 16 : 0), pa, NULL);
}

static int failed;

static void check(int ok, const char *what)
{
	printf("%s - %s\n", ok ? "ok" : "not ok", what);
	failed |= !ok;
}

static void run(const char *conf, const char *outp)
{
	char a_conf[512], a_out[512];
	char *args[] = { "sockets=2", "dies=2", "cores=8", "threads=2", a_conf, a_out };
	struct qemu_plugin_tb *plain, *start, *load_tb, *end, *start4, *end4;
	uint64_t l;

	snprintf(a_conf, sizeof(a_conf), "cache=%s", conf);
	snprintf(a_out, sizeof(a_out), "out=%s", outp);
	check(do_install(6, args) == 0, "install with the zen3 topology");
	plain = tb_new(4, 0);
	check(!plain->insn[0].mem && !plain->inl, "before any marker: no memory callback, no counter");
	end = tb_new(2, LG_MARK(LG_MARK_END, 3));
	check(resets == 0, "an end marker does not arm the ledger");
	start = tb_new(2, LG_MARK(LG_MARK_START, 3));
	check(start->insn[0].exec && resets == 1, "the first start marker: exec callback, one reset asked");
	exec_tb(start, 0);
	/* QEMU's flush: callbacks dropped, the plugin's reset callback runs */
	trans = NULL;
	atexit_cb = NULL;
	reset_cb(1);
	check(trans && atexit_cb, "after the reset: translation and exit callbacks back");
	start = tb_new(2, LG_MARK(LG_MARK_START, 3));
	check(resets == 1, "a start marker after the reset asks for no other");
	load_tb = tb_new(1, 0);
	end = tb_new(2, LG_MARK(LG_MARK_END, 3));
	check(load_tb->insn[0].mem && load_tb->inl, "after the reset: memory callback and counter");
	exec_tb(load_tb, 0);	/* 1 instruction inside window 1 */
	for (l = 0; l < 4096; l++)
		mem(load_tb, 0, (1ULL << 26) + l * 64, 0);
	exec_tb(end, 0);
	/* between windows: not counted */
	for (l = 0; l < 100; l++)
		mem(load_tb, 5, (1ULL << 27) + l * 64, 1);
	start4 = tb_new(2, LG_MARK(LG_MARK_START, 4));
	end4 = tb_new(2, LG_MARK(LG_MARK_END, 4));
	exec_tb(start4, 0);
	for (l = 0; l < 64; l++)
		mem(load_tb, 0, (1ULL << 28) + l * 64, 1);
	for (l = 0; l < 64; l++)
		mem(load_tb, 32, (1ULL << 28) + l * 64, 0);
	for (l = 0; l < 64; l++)
		mem(load_tb, 32, (2ULL << 30) + (1ULL << 20) + l * 64, 0);
	mem(load_tb, 32, (1ULL << 30) + (1ULL << 20), 0);
	hw.io = true;
	mem(load_tb, 0, 0xfee00000, 0);
	hw.io = false;
	exec_tb(end4, 1);
	atexit_cb(1, atexit_ud);
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s SO ARG... | SO --run CONF OUT\n", argv[0]);
		return 2;
	}
	load(argv[1]);
	if (argc == 5 && !strcmp(argv[2], "--run")) {
		run(argv[3], argv[4]);
		return failed;
	}
	return do_install(argc - 2, argv + 2) ? 1 : 0;
}
