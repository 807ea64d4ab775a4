/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ledger's window markers, shared by the guest tool (sp-mark.c) and the
 * plugin (ledger.c): `nopl DISP32(%rax)`, bytes 0f 1f 80 then DISP32 little
 * endian, a 7-byte NOP on every x86-64 CPU. DISP32 is
 *   bits 31-16  LG_MARK_SIG, so that no compiler's padding NOP is taken for one
 *   bits 15-14  the kind: 1 start, 2 end
 *   bits 13-0   the label, e.g. the run's index (0 to 16383)
 */
#ifndef LEDGER_MARK_H
#define LEDGER_MARK_H

#define LG_MARK_SIG		0x1ed6u
#define LG_MARK_START		1u
#define LG_MARK_END		2u
#define LG_MARK_LABEL_MAX	0x3fffu

#define LG_MARK(kind, label)	((LG_MARK_SIG << 16) | ((kind) << 14) | ((label) & LG_MARK_LABEL_MAX))
#define LG_MARK_SIG_OF(d)	((d) >> 16)
#define LG_MARK_KIND(d)		(((d) >> 14) & 3u)
#define LG_MARK_LABEL(d)	((d) & LG_MARK_LABEL_MAX)

#endif
