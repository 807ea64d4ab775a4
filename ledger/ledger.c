// SPDX-License-Identifier: GPL-2.0
/*
 * The cache ledger: a QEMU TCG plugin (QEMU 7.2's API) that feeds every guest
 * data access made inside a marked window to the cache model of model.c and
 * writes one line of counts per window. The model is an account, not
 * feedback: a modelled miss never slows the guest.
 *
 * Arguments (-plugin build/ledger/libledger.so,arg=KEY=VALUE,...; README.md):
 *   sockets=S,dies=D,cores=C,threads=T  the topology given to -smp, in the
 *                        preset's order; vCPU i is thread i%T of core
 *                        (i/T)%C of die (i/(T*C))%D of socket i/(T*C*D)
 *   cache=PATH           the machine's numbers (ledger/zen3.conf)
 *   out=PATH             the window lines are appended here
 *   node_mb=1024         guest RAM per node (one node per socket, in order,
 *                        each its own memory backend: vm.sh's --numa)
 *
 * Windows: the guest runs `sp-mark start|end LABEL` (sp-mark.c), which
 * executes `nopl DISP32(%rax)` (0f 1f 80 + DISP32) with DISP32 =
 * LG_MARK_SIG << 16 | kind << 14 | LABEL. Nothing is instrumented until the
 * translator first meets a start marker; the plugin then asks for one reset
 * (QEMU flushes its translations and drops the plugin's callbacks) and from
 * then on every instruction carries a memory callback that returns at once
 * outside a window. A reset per window aborts QEMU 7.2
 * (plugins/core.c:473, qemu_plugin_vcpu_mem_cb), hence one only.
 *
 * Assumes single-threaded TCG (vm.sh's -accel tcg,thread=single): the
 * callbacks share the model without locks.
 */
#include <qemu-plugin.h>

#include "model.h"
#include "mark.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

static struct lg_model *model;
static FILE *out;
static unsigned line_shift;
static unsigned node_shift;	/* log2(node_bytes): node_mb is a power of two */
static uint64_t ram_bytes, node_bytes;
static unsigned nodes;

static int armed;		/* the one reset is done: instrument everything */
static int reset_asked;
static int open_window;
static int pending_start = -1;	/* label of a start seen before the reset ended */
static unsigned window, label;
static uint64_t insns, insns_at_start;	/* insns: inline counter, all TBs */
static uint64_t unmodelled;		/* accesses to I/O or outside RAM, in windows */

static void begin(unsigned lbl)
{
	if (open_window)
		fprintf(stderr, "ledger: start marker (label %u) inside window %u: restarting it\n",
			lbl, window + 1);
	lg_reset_counts(model);
	unmodelled = 0;
	insns_at_start = insns;
	label = lbl;
	open_window = 1;
}

static void end(unsigned lbl)
{
	char extra[48];

	if (!open_window) {
		fprintf(stderr, "ledger: end marker (label %u) outside a window: ignored\n", lbl);
		return;
	}
	if (lbl != label)
		fprintf(stderr, "ledger: window %u started with label %u, ends with %u\n",
			window + 1, label, lbl);
	open_window = 0;
	window++;
	snprintf(extra, sizeof(extra), "unmodelled=%llu", (unsigned long long)unmodelled);
	lg_write_window(model, out, window, label, insns - insns_at_start, extra);
	fflush(out);
}

static void on_marker(unsigned int vcpu, void *udata)
{
	uint32_t d = (uint32_t)(uintptr_t)udata;

	(void)vcpu;
	if (!armed) {
		if (LG_MARK_KIND(d) == LG_MARK_START)
			pending_start = (int)LG_MARK_LABEL(d);
		return;
	}
	if (LG_MARK_KIND(d) == LG_MARK_START)
		begin(LG_MARK_LABEL(d));
	else
		end(LG_MARK_LABEL(d));
}

/*
 * Where in guest RAM an access lands. QEMU 7.2's qemu_plugin_hwaddr_phys_addr()
 * does not give RAM's guest-physical address: it gives the RAM block's
 * ram_addr_t offset, plus the block's place in the machine's RAM, plus the
 * offset in the block (plugins/api.c; later QEMUs return the address). vm.sh
 * gives each node its own memory backend (virtme-ng --numa makes one
 * memory-backend-memfd a node), and QEMU creates those before any other RAM
 * block and in node order, so node i's block is at i x N in both: offset O
 * of node i reads as 2 i N + O. Anything else (the other blocks: BIOS,
 * option ROMs, video RAM) is unmodelled, as is I/O. The known-answer loads
 * check this (ledger/known-check.sh): a task on the second node must see its
 * own node's memory as local. N is a power of two (the install refuses
 * another node_mb), so the node and the offset are a shift and a mask, not
 * a 64-bit division on every access.
 */
static inline void account(unsigned vcpu, uint64_t r, unsigned size, int store)
{
	uint64_t node = r >> (node_shift + 1), o = r & (2 * node_bytes - 1), off, first, last;

	if (node >= nodes || o >= node_bytes) {
		unmodelled++;
		return;
	}
	off = node << node_shift | o;
	first = off >> line_shift;
	last = (off + size - 1) >> line_shift;
	if (last >= ram_bytes >> line_shift)
		last = first;
	lg_access(model, vcpu, first, store);
	if (last != first)
		lg_access(model, vcpu, last, store);
}

static void on_mem(unsigned int vcpu, qemu_plugin_meminfo_t info, uint64_t vaddr, void *udata)
{
	struct qemu_plugin_hwaddr *hw;

	(void)udata;
	if (!open_window)
		return;
	hw = qemu_plugin_get_hwaddr(info, vaddr);
	if (!hw || qemu_plugin_hwaddr_is_io(hw) || vcpu >= lg_nvcpus(model)) {
		unmodelled++;
		return;
	}
	account(vcpu, qemu_plugin_hwaddr_phys_addr(hw), 1u << qemu_plugin_mem_size_shift(info),
		qemu_plugin_mem_is_store(info));
}

static void on_reset(qemu_plugin_id_t id);

/* The marker's DISP32 if INSN is one, else 0 (0 is never a marker). */
static uint32_t marker_of(const struct qemu_plugin_insn *insn)
{
	const uint8_t *b;
	uint32_t d;

	if (qemu_plugin_insn_size(insn) != 7)
		return 0;
	b = qemu_plugin_insn_data(insn);
	if (b[0] != 0x0f || b[1] != 0x1f || b[2] != 0x80)
		return 0;
	d = (uint32_t)b[3] | (uint32_t)b[4] << 8 | (uint32_t)b[5] << 16 | (uint32_t)b[6] << 24;
	if (LG_MARK_SIG_OF(d) != LG_MARK_SIG ||
	    (LG_MARK_KIND(d) != LG_MARK_START && LG_MARK_KIND(d) != LG_MARK_END))
		return 0;
	return d;
}

static void on_tb(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;

	if (armed)
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &insns, n);
	for (i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint32_t d = marker_of(insn);

		if (d) {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_marker, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)d);
			if (!armed && !reset_asked && LG_MARK_KIND(d) == LG_MARK_START) {
				reset_asked = 1;
				qemu_plugin_reset(id, on_reset);
			}
		}
		if (armed)
			qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_RW, NULL);
	}
}

static void on_atexit(qemu_plugin_id_t id, void *udata)
{
	(void)id;
	(void)udata;
	if (open_window)
		fprintf(stderr, "ledger: QEMU exits inside window %u (label %u): not written\n",
			window + 1, label);
	if (out)
		fclose(out);
	out = NULL;
}

/* After the one reset: translations are flushed and our callbacks gone. */
static void on_reset(qemu_plugin_id_t id)
{
	armed = 1;
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	if (pending_start >= 0)
		begin((unsigned)pending_start);
	pending_start = -1;
}

/* A refusal at load: one line on stderr; QEMU then says the install
 * returned an error and exits before the guest starts. */
static int __attribute__((format(printf, 1, 2))) bad(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ledger: ");
	vfprintf(stderr, fmt, ap);
	fprintf(stderr, "\n");
	va_end(ap);
	lg_model_free(model);
	model = NULL;
	if (out)
		fclose(out);
	out = NULL;
	return -1;
}

static int num(const char *v, unsigned *dst)
{
	char *end;
	unsigned long x;

	errno = 0;
	x = strtoul(v, &end, 10);
	if (errno || end == v || *end || *v == '-' || x == 0 || x > 1u << 20)
		return -1;
	*dst = (unsigned)x;
	return 0;
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	struct lg_topo t = { 0, 0, 0, 0 };
	struct lg_params p;
	const char *cache = NULL, *outp = NULL;
	unsigned node_mb = 1024, *dst;
	char err[512];
	int i;

	if (!info->system_emulation)
		return bad("needs full-system emulation (qemu-system-*)");
	for (i = 0; i < argc; i++) {
		const char *a = argv[i], *eq = strchr(a, '='), *v;
		char k[32];

		if (!eq || eq == a || eq - a >= (long)sizeof(k))
			return bad("argument '%s' is not KEY=VALUE", a);
		memcpy(k, a, eq - a);
		k[eq - a] = '\0';
		v = eq + 1;
		dst = !strcmp(k, "sockets") ? &t.sockets : !strcmp(k, "dies") ? &t.dies :
		      !strcmp(k, "cores") ? &t.cores : !strcmp(k, "threads") ? &t.threads :
		      !strcmp(k, "node_mb") ? &node_mb : NULL;
		if (dst) {
			if (num(v, dst))
				return bad("%s=%s: want a positive whole number", k, v);
			if (dst == &node_mb && (node_mb & (node_mb - 1)))
				return bad("node_mb=%s: want a power of two, e.g. 1024 (vm.sh's --numa 1G): the plugin places an address in its node by a shift; give the nodes such a size",
					   v);
		} else if (!strcmp(k, "cache")) {
			cache = v;
		} else if (!strcmp(k, "out")) {
			outp = v;
		} else {
			return bad("unknown argument '%s'; the arguments are sockets, dies, cores, threads, cache, out, node_mb",
				   k);
		}
	}
	if (!t.sockets || !t.dies || !t.cores || !t.threads)
		return bad("give the topology as -smp has it: sockets=S,dies=D,cores=C,threads=T");
	if (!cache || !outp)
		return bad("give cache=PATH (e.g. ledger/zen3.conf) and out=PATH");
	if ((long)t.sockets * t.dies * t.cores * t.threads != info->system.smp_vcpus)
		return bad("topology %u x %u x %u x %u does not match QEMU's %d vCPUs; pass the -smp numbers",
			   t.sockets, t.dies, t.cores, t.threads, info->system.smp_vcpus);
	if (lg_params_load(cache, &p, err, sizeof(err)))
		return bad("%s", err);
	if (info->version.cur != QEMU_PLUGIN_VERSION)
		return bad("built for QEMU 7.2's plugin API (version %d), this QEMU has version %d: its addresses differ (ledger/qemu-source)",
			   QEMU_PLUGIN_VERSION, info->version.cur);
	nodes = t.sockets;
	node_bytes = (uint64_t)node_mb << 20;
	node_shift = 20 + (unsigned)__builtin_ctz(node_mb);
	ram_bytes = node_bytes * nodes;
	line_shift = (unsigned)__builtin_ctz(p.line);
	model = lg_model_new(&p, &t, ram_bytes >> line_shift, err, sizeof(err));
	if (!model)
		return bad("%s", err);
	out = fopen(outp, "a");
	if (!out)
		return bad("cannot open out=%s: %s", outp, strerror(errno));
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_tb);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
