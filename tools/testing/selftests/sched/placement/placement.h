/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Helpers shared by the task placement tests: files, time, the CPU
 * topology from sysfs, and the scheduler features in debugfs.
 */
#ifndef __SCHED_PLACEMENT_H
#define __SCHED_PLACEMENT_H

#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#define SCHED_DEBUGFS	"/sys/kernel/debug"
#define FEATURES	SCHED_DEBUGFS "/sched/features"
#define SIS_SCAN	SCHED_DEBUGFS "/sched/sis_scan"
#define SIS_WAKE	SCHED_DEBUGFS "/sched/sis_wake"
#define SIS_SMALL	SCHED_DEBUGFS "/sched/sis_small_llc"
#define SCHEDSTATS	"/proc/sys/kernel/sched_schedstats"
#define MAX_CPUS	256
#define BUF_SIZE	8192

/* Bytes read, NUL terminated, or -errno. */
int read_file(const char *path, char *buf, size_t len);
/* 0 or -errno. */
int write_file(const char *path, const char *s);
/* Two pipes, in @fds[0..1] and @fds[2..3]: 0, or -1 with none open. */
int pipe_pair(int fds[4]);
/* CLOCK_MONOTONIC in seconds. */
double now(void);
void spin_for(double sec);
void pin_self(int cpu);
/* Sorts @v. */
double median(double *v, int n);

/*
 * The topology, filled in by read_topology(): per CPU, its node, the
 * first CPU of its LLC and the first CPU of its core (its SMT siblings).
 */
extern int nr_cpus;
extern int cpu_node[MAX_CPUS];
extern int cpu_llc[MAX_CPUS];
extern int cpu_core[MAX_CPUS];

/* The number of CPUs with an L3 in sysfs, from CPU 0 on. */
int read_topology(void);
int nr_nodes(void);
/* CPUs and cores in the LLC of @cpu; its CPUs in @set. */
int llc_weight(int cpu);
void llc_cpus(int cpu, cpu_set_t *set);
int llc_cores(int cpu);
/* The size of the LLC of @cpu in bytes, 0 if sysfs does not say. */
long llc_bytes(int cpu);
/* True if the CPUs do not all have the same capacity. */
bool asym_capacity(void);
bool cpu_offline(int cpu);
/* 0 or -errno. */
int cpu_set_online(int cpu, bool on);

/*
 * One read of sis_scan: each LLC's first CPU and its depth
 * (nr_idle_scan), and the counts since the last clear.
 */
struct sis_scan {
	int nr_llc;
	int llc_cpu[MAX_CPUS];		/* the first CPU of the LLC */
	int llc_depth[MAX_CPUS];	/* its nr_idle_scan */
	unsigned long stopped;		/* wakeups stopped before any scan */
	unsigned long unscanned;	/* "scanned 0": no CPU of the LLC allowed */
	unsigned long scans;		/* wakeups that scanned one CPU or more */
	int deepest;			/* the deepest row with a count, 0 if none */
	unsigned long found;		/* scans that found an idle CPU */
};

/*
 * Parses @text, the contents of sis_scan, into @s: 0, or -1 when a line
 * is none of the file's, or the "scanned 0" row is missing.
 */
int sis_scan_parse(const char *text, struct sis_scan *s);
/* Reads sis_scan into @s: 0, or -1 if unreadable or it does not parse. */
int sis_scan_read(struct sis_scan *s);

/* One read of sis_wake: a count per decision, named as the file names it. */
#define SIS_WAKE_MAX	32
#define SIS_WAKE_NAME	32
struct sis_wake {
	int nr;
	char name[SIS_WAKE_MAX][SIS_WAKE_NAME];
	unsigned long count[SIS_WAKE_MAX];
	bool schedstats;	/* its comment line says "(schedstats on)" */
};

/*
 * Parses @text, the contents of sis_wake, into @w: 0, or -1 when a line
 * is neither the comment (the first line, and only it) nor "name count"
 * (a name of a-z and _, a count of digits).
 */
int sis_wake_parse(const char *text, struct sis_wake *w);
/* Reads sis_wake into @w: 0, or -1 if unreadable or it does not parse. */
int sis_wake_read(struct sis_wake *w);
/*
 * The count of @name in sis_wake, or of every line when @name is NULL;
 * -1 if unreadable or it does not parse.
 */
long sis_wake_counted(const char *name);

/* The series' switches and their defaults, from switches.h. */
struct placement_switch {
	const char *name;
	bool on;	/* its default */
};

extern const struct placement_switch placement_switches[];
extern const int nr_placement_switches;

/* 1 when @name is on, 0 when it is listed as NO_@name, -1 when absent. */
int feature_state(const char *name);
/* Its position in the features file, which is its bit; -1 when absent. */
int feature_bit(const char *name);
int set_feature(const char *name, bool on);
bool have_features(const char * const *names, int n);

/*
 * What a test may change, saved before it runs and put back after it:
 * the features, kernel.sched_schedstats, sis_small_llc and the CPUs it
 * took offline. Lives in memory shared with the test process and with
 * the guard of knobs_guard().
 */
struct sched_knobs {
	char features[BUF_SIZE];
	char schedstats[16];
	char sis_small_llc[16];
	int offline[MAX_CPUS];
	int nr_offline;
	bool mounted_debugfs;
	bool restored;	/* knobs_restore() has run */
	int lock_fd;	/* KNOBS_LOCK, held from knobs_save(); -1 if not */
};

/* One test's knobs at a time, until they are back (knobs_guard()). */
#define KNOBS_LOCK	"/tmp/sched_placement_knobs.lock"

/*
 * Takes KNOBS_LOCK, waiting while another test or its guard holds it,
 * mounts debugfs if it is not mounted, and saves the knobs. NULL, or why
 * the tests cannot run (debugfs and the lock are then left as they were).
 */
const char *knobs_save(struct sched_knobs *k);
/*
 * kselftest_harness.h restores in FIXTURE_TEARDOWN_PARENT, in the test's
 * process group leader, and on a timeout SIGKILLs that group, teardown
 * and all. knobs_guard() forks a guard into a session of its own, out of
 * that kill's reach, and hands it KNOBS_LOCK: it waits for @leader (the
 * teardown's process) to end, restores @k unless k->restored says the
 * teardown did, and exits, which lets the next test save. 0 or -errno.
 */
int knobs_guard(struct sched_knobs *k, pid_t leader);
/* Brings back the CPUs knobs_offline() took offline. */
void knobs_online_all(struct sched_knobs *k);
/* Takes @cpu offline, to be brought back by knobs_online_all(). */
int knobs_offline(struct sched_knobs *k, int cpu);
/*
 * Restores everything, unmounts debugfs if knobs_save() mounted it, and
 * sets k->restored: knobs_write_back(), then knobs_release().
 */
void knobs_restore(struct sched_knobs *k);
/* Writes back the saved knobs and brings back the CPUs. */
void knobs_write_back(struct sched_knobs *k);
/* Unmounts debugfs if knobs_save() mounted it, and sets k->restored. */
void knobs_release(struct sched_knobs *k);

#endif /* __SCHED_PLACEMENT_H */
