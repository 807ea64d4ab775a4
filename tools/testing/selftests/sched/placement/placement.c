// SPDX-License-Identifier: GPL-2.0
/*
 * Helpers shared by the task placement tests.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mount.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <time.h>
#include <unistd.h>

#include "placement.h"

int nr_cpus;
int cpu_node[MAX_CPUS];
int cpu_llc[MAX_CPUS];
int cpu_core[MAX_CPUS];

int read_file(const char *path, char *buf, size_t len)
{
	ssize_t n;
	int fd;

	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	close(fd);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	return n;
}

int write_file(const char *path, const char *s)
{
	ssize_t n;
	int fd, err;

	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	n = write(fd, s, strlen(s));
	err = errno;
	close(fd);
	return n < 0 ? -err : 0;
}

int pipe_pair(int fds[4])
{
	if (pipe(fds))
		return -1;
	if (pipe(fds + 2)) {
		close(fds[0]);
		close(fds[1]);
		return -1;
	}
	return 0;
}

double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

void spin_for(double sec)
{
	double end = now() + sec;

	while (now() < end)
		;
}

void pin_self(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static int cmp_double(const void *x, const void *y)
{
	double d = *(const double *)x - *(const double *)y;

	return (d > 0) - (d < 0);
}

double median(double *v, int n)
{
	qsort(v, n, sizeof(*v), cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The first CPU of a CPU list file, or @cpu if it cannot be read. */
static int first_cpu_of(int cpu, const char *file)
{
	char path[128], buf[256];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return cpu;
	return atoi(buf);
}

int read_topology(void)
{
	char path[128];

	nr_cpus = 0;
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index3/shared_cpu_list", cpu);
		if (access(path, R_OK))
			break;
		cpu_llc[cpu] = first_cpu_of(cpu, "cache/index3/shared_cpu_list");
		cpu_core[cpu] = first_cpu_of(cpu, "topology/thread_siblings_list");
		cpu_node[cpu] = 0;
		for (int node = 0; node < MAX_CPUS; node++) {
			snprintf(path, sizeof(path),
				 "/sys/devices/system/cpu/cpu%d/node%d", cpu, node);
			if (!access(path, F_OK)) {
				cpu_node[cpu] = node;
				break;
			}
		}
		nr_cpus = cpu + 1;
	}
	return nr_cpus;
}

int nr_nodes(void)
{
	int nodes = 0;

	for (int c = 0; c < nr_cpus; c++)
		if (cpu_node[c] + 1 > nodes)
			nodes = cpu_node[c] + 1;
	return nodes;
}

int llc_weight(int cpu)
{
	int w = 0;

	for (int i = 0; i < nr_cpus; i++)
		w += cpu_llc[i] == cpu_llc[cpu];
	return w;
}

void llc_cpus(int cpu, cpu_set_t *set)
{
	CPU_ZERO(set);
	for (int i = 0; i < nr_cpus; i++)
		if (cpu_llc[i] == cpu_llc[cpu])
			CPU_SET(i, set);
}

int llc_cores(int cpu)
{
	int w = 0;

	for (int i = 0; i < nr_cpus; i++)
		w += cpu_llc[i] == cpu_llc[cpu] && cpu_core[i] == i;
	return w;
}

long llc_bytes(int cpu)
{
	char path[96], buf[32], *end;
	long v;

	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/cache/index3/size", cpu);
	if (read_file(path, buf, sizeof(buf)) < 0)
		return 0;
	v = strtol(buf, &end, 10);
	if (*end == 'K')
		v <<= 10;
	else if (*end == 'M')
		v <<= 20;
	return v;
}

/*
 * big.LITTLE and hybrid systems; no cpu_capacity file means a symmetric
 * system.
 */
bool asym_capacity(void)
{
	char path[96], buf[32];
	long first = -1;

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cpu_capacity", cpu);
		if (read_file(path, buf, sizeof(buf)) < 0)
			return false;
		if (first < 0)
			first = atol(buf);
		else if (atol(buf) != first)
			return true;
	}
	return false;
}

bool cpu_offline(int cpu)
{
	char path[64], buf[8];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return read_file(path, buf, sizeof(buf)) > 0 && buf[0] == '0';
}

int cpu_set_online(int cpu, bool on)
{
	char path[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/online", cpu);
	return write_file(path, on ? "1" : "0");
}

/*
 * Looks @name up in the features file: *@state 1 when on, 0 when listed
 * as NO_@name, -1 when absent; *@bit its position in the file.
 */
static void find_feature(const char *name, int *state, int *bit)
{
	char buf[BUF_SIZE], *tok, *save;
	int pos = 0;

	*state = -1;
	*bit = -1;
	if (read_file(FEATURES, buf, sizeof(buf)) < 0)
		return;
	for (tok = strtok_r(buf, "\n ", &save); tok;
	     tok = strtok_r(NULL, "\n ", &save), pos++) {
		bool off = !strncmp(tok, "NO_", 3);

		if (!strcmp(off ? tok + 3 : tok, name)) {
			*state = !off;
			*bit = pos;
			return;
		}
	}
}

#include "switches.h"

const int nr_placement_switches = sizeof(placement_switches) /
				  sizeof(placement_switches[0]);

int sis_scan_parse(const char *text, struct sis_scan *s)
{
	char buf[BUF_SIZE], list[128], *line, *save;
	bool row0 = false;
	unsigned long cnt;
	int nr;

	memset(s, 0, sizeof(*s));
	snprintf(buf, sizeof(buf), "%s", text);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		if (line[0] == '#' || !strncmp(line, "nollc ", 6))
			continue;
		if (sscanf(line, "llc %127s %d", list, &nr) == 2) {
			if (s->nr_llc == MAX_CPUS)
				return -1;
			s->llc_cpu[s->nr_llc] = atoi(list);
			s->llc_depth[s->nr_llc++] = nr;
		} else if (sscanf(line, "scanned %d %lu", &nr, &cnt) == 2) {
			if (!nr) {
				row0 = true;
				s->unscanned = cnt;
				continue;
			}
			s->scans += cnt;
			if (cnt && nr > s->deepest)
				s->deepest = nr;
		} else if (sscanf(line, "stopped %lu", &cnt) == 1) {
			s->stopped = cnt;
		} else if (sscanf(line, "found %lu", &cnt) == 1) {
			s->found = cnt;
		} else {
			return -1;
		}
	}
	return row0 ? 0 : -1;
}

int sis_scan_read(struct sis_scan *s)
{
	char buf[BUF_SIZE];

	if (read_file(SIS_SCAN, buf, sizeof(buf)) < 0)
		return -1;
	return sis_scan_parse(buf, s);
}

int sis_wake_parse(const char *text, struct sis_wake *w)
{
	char buf[BUF_SIZE], *line, *save;
	bool first = true;

	memset(w, 0, sizeof(*w));
	snprintf(buf, sizeof(buf), "%s", text);
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save), first = false) {
		char *sp = strchr(line, ' ');

		if (line[0] == '#') {
			if (!first)
				return -1;
			w->schedstats = !!strstr(line, "(schedstats on)");
			continue;
		}
		if (first || w->nr == SIS_WAKE_MAX || !sp || sp == line ||
		    sp - line >= SIS_WAKE_NAME || !sp[1] ||
		    strspn(sp + 1, "0123456789") != strlen(sp + 1) ||
		    strspn(line, "abcdefghijklmnopqrstuvwxyz_") != (size_t)(sp - line))
			return -1;
		memcpy(w->name[w->nr], line, sp - line);
		w->name[w->nr][sp - line] = '\0';
		w->count[w->nr++] = strtoul(sp + 1, NULL, 10);
	}
	return 0;
}

int sis_wake_read(struct sis_wake *w)
{
	char buf[BUF_SIZE];

	if (read_file(SIS_WAKE, buf, sizeof(buf)) < 0)
		return -1;
	return sis_wake_parse(buf, w);
}

long sis_wake_counted(const char *name)
{
	struct sis_wake w;
	long sum = 0;

	if (sis_wake_read(&w))
		return -1;
	for (int i = 0; i < w.nr; i++)
		if (!name || !strcmp(name, w.name[i]))
			sum += w.count[i];
	return sum;
}

int feature_state(const char *name)
{
	int state, bit;

	find_feature(name, &state, &bit);
	return state;
}

int feature_bit(const char *name)
{
	int state, bit;

	find_feature(name, &state, &bit);
	return bit;
}

int set_feature(const char *name, bool on)
{
	char word[128];

	snprintf(word, sizeof(word), "%s%s", on ? "" : "NO_", name);
	return write_file(FEATURES, word);
}

bool have_features(const char * const *names, int n)
{
	for (int i = 0; i < n; i++)
		if (feature_state(names[i]) < 0)
			return false;
	return true;
}

static bool debugfs_mounted(void)
{
	struct statfs sfs;

	return !statfs(SCHED_DEBUGFS, &sfs) && sfs.f_type == DEBUGFS_MAGIC;
}

static void knobs_unlock(struct sched_knobs *k)
{
	if (k->lock_fd >= 0)
		close(k->lock_fd);
	k->lock_fd = -1;
}

const char *knobs_save(struct sched_knobs *k)
{
	memset(k, 0, sizeof(*k));
	k->lock_fd = -1;
	if (geteuid())
		return "needs root for " FEATURES;
	k->lock_fd = open(KNOBS_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	if (k->lock_fd < 0)
		return "cannot open " KNOBS_LOCK;
	while (flock(k->lock_fd, LOCK_EX)) {
		if (errno != EINTR) {
			knobs_unlock(k);
			return "cannot lock " KNOBS_LOCK;
		}
	}
	if (!debugfs_mounted()) {
		if (mount("debugfs", SCHED_DEBUGFS, "debugfs", 0, NULL)) {
			knobs_unlock(k);
			return "cannot mount debugfs on " SCHED_DEBUGFS;
		}
		k->mounted_debugfs = true;
	}
	if (read_file(FEATURES, k->features, sizeof(k->features)) <= 0) {
		if (k->mounted_debugfs)
			umount(SCHED_DEBUGFS);
		k->mounted_debugfs = false;
		knobs_unlock(k);
		return "cannot read " FEATURES " (CONFIG_DEBUG_FS=n?)";
	}
	read_file(SCHEDSTATS, k->schedstats, sizeof(k->schedstats));
	read_file(SIS_SMALL, k->sis_small_llc, sizeof(k->sis_small_llc));
	return NULL;
}

int knobs_guard(struct sched_knobs *k, pid_t leader)
{
	struct pollfd pfd = { .events = POLLIN };
	pid_t pid;
	int err;

	pfd.fd = syscall(__NR_pidfd_open, leader, 0);
	if (pfd.fd < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(pfd.fd);
		return err;
	}
	if (!pid) {
		/* Out of the test's process group, which a timeout kills. */
		setsid();
		while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
			;
		if (!__atomic_load_n(&k->restored, __ATOMIC_ACQUIRE)) {
			knobs_restore(k);
			dprintf(STDOUT_FILENO, "# knobs restored after the test was killed\n");
		}
		_exit(0);
	}
	close(pfd.fd);
	/* The guard holds the lock now, and releases it when it exits. */
	knobs_unlock(k);
	return 0;
}

int knobs_offline(struct sched_knobs *k, int cpu)
{
	int err = cpu_set_online(cpu, false);

	if (!err)
		k->offline[k->nr_offline++] = cpu;
	return err;
}

void knobs_online_all(struct sched_knobs *k)
{
	while (k->nr_offline > 0)
		cpu_set_online(k->offline[--k->nr_offline], true);
}

/* Writes back a saved word of the features file if the feature changed. */
static void restore_feature(const char *word)
{
	bool on = strncmp(word, "NO_", 3);

	if (feature_state(on ? word : word + 3) != on)
		write_file(FEATURES, word);
}

void knobs_write_back(struct sched_knobs *k)
{
	char buf[BUF_SIZE], *tok, *save;

	knobs_online_all(k);
	if (k->features[0]) {
		snprintf(buf, sizeof(buf), "%s", k->features);
		for (tok = strtok_r(buf, "\n ", &save); tok;
		     tok = strtok_r(NULL, "\n ", &save))
			restore_feature(tok);
	}
	if (k->schedstats[0])
		write_file(SCHEDSTATS, k->schedstats);
	if (k->sis_small_llc[0])
		write_file(SIS_SMALL, k->sis_small_llc);
}

void knobs_release(struct sched_knobs *k)
{
	if (k->mounted_debugfs)
		umount(SCHED_DEBUGFS);
	k->mounted_debugfs = false;
	__atomic_store_n(&k->restored, true, __ATOMIC_RELEASE);
}

void knobs_restore(struct sched_knobs *k)
{
	knobs_write_back(k);
	knobs_release(k);
}
