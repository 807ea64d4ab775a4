// SPDX-License-Identifier: GPL-2.0
/*
 * The debugfs interface of the task placement switches: the features file,
 * whose bits no longer fit in 32, and the sis_small_llc, sis_scan and
 * sis_wake files.
 * Each write must do what it says, and a bad one must fail and change
 * nothing; a clear racing with reads shows no count below zero.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fixture.h"
#include "loads.h"

/*
 * True if the features file @after is @before with only @name changed, to
 * @on: a feature at bit 32 or above that landed on another bit, or was
 * lost, fails here.
 */
static bool only_changed(char *before, char *after, const char *name, bool on)
{
	char *save_b, *save_a, *b, *a;

	b = strtok_r(before, "\n ", &save_b);
	a = strtok_r(after, "\n ", &save_a);
	for (; b && a; b = strtok_r(NULL, "\n ", &save_b),
	     a = strtok_r(NULL, "\n ", &save_a)) {
		bool b_on = strncmp(b, "NO_", 3), a_on = strncmp(a, "NO_", 3);
		const char *b_name = b_on ? b : b + 3;

		if (strcmp(b_name, a_on ? a : a + 3))
			return false;
		if (!strcmp(b_name, name) ? a_on != on : a_on != b_on)
			return false;
	}
	return !a && !b;
}

#define MAX_FLIPS	16

/*
 * The features listed at bit 32 and above, which a 32-bit features word
 * could not hold; not those whose job is to warn. Returns how many were
 * copied to @names.
 */
static int high_features(char names[][64], int max)
{
	char buf[BUF_SIZE], *tok, *save;
	int bit = 0, n = 0;

	if (read_file(FEATURES, buf, sizeof(buf)) < 0)
		return 0;
	for (tok = strtok_r(buf, "\n ", &save); tok && n < max;
	     tok = strtok_r(NULL, "\n ", &save), bit++) {
		const char *name = strncmp(tok, "NO_", 3) ? tok : tok + 3;

		if (bit >= 32 && !strstr(name, "WARN"))
			snprintf(names[n++], sizeof(names[0]), "%s", name);
	}
	return n;
}

/*
 * Each placement switch, and each feature at bit 32 and above, turns off
 * and on, reads back, and changes no other feature. The features file
 * lists the features in bit order.
 */
TEST_F_TIMEOUT(placement, features_toggle, 60)
{
	char names[MAX_FLIPS][64], before[BUF_SIZE], after[BUF_SIZE];
	int n = 0, high;

	for (int i = 0; i < nr_placement_switches; i++) {
		if (feature_state(placement_switches[i].name) < 0)
			SKIP(return, "%s is missing from %s",
			     placement_switches[i].name, FEATURES);
		snprintf(names[n++], sizeof(names[0]), "%s",
			 placement_switches[i].name);
	}
	high = high_features(names + n, MAX_FLIPS - n);
	for (int i = n; i < n + high; i++)
		ksft_print_msg("%s is at bit %d\n", names[i], feature_bit(names[i]));
	n += high;

	for (int i = 0; i < n; i++) {
		int was = feature_state(names[i]);

		ASSERT_LE(0, was);
		for (int k = 0; k < 2; k++) {
			bool on = k ? was : !was;

			ASSERT_LT(0, read_file(FEATURES, before, sizeof(before)));
			ASSERT_EQ(0, set_feature(names[i], on));
			EXPECT_EQ(on, feature_state(names[i])) {
				TH_LOG("%s did not switch %s", names[i], on ? "on" : "off");
			}
			ASSERT_LT(0, read_file(FEATURES, after, sizeof(after)));
			EXPECT_TRUE(only_changed(before, after, names[i], on)) {
				TH_LOG("switching %s %s changed other features",
				       names[i], on ? "on" : "off");
			}
		}
	}
	if (!high)
		ksft_print_msg("no feature at bit 32 or above on this kernel\n");
}

/* Unknown and malformed names get EINVAL and leave the file as it was. */
TEST_F_TIMEOUT(placement, features_bad_input, 30)
{
	static const char * const bad[] = {
		"NO_SUCH_FEATURE", "NO_", "NO_NO_SIS_UTIL", "sis_util",
		"SIS_UTIL_", " ", "SIS UTIL", "NO_SIS_UTIL=1",
		"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	};
	char before[BUF_SIZE], after[BUF_SIZE];

	ASSERT_LT(0, read_file(FEATURES, before, sizeof(before)));
	for (unsigned int i = 0; i < ARRAY_SIZE(bad); i++) {
		EXPECT_EQ(-EINVAL, write_file(FEATURES, bad[i])) {
			TH_LOG("'%s' was not rejected with EINVAL", bad[i]);
		}
	}
	ASSERT_LT(0, read_file(FEATURES, after, sizeof(after)));
	EXPECT_STREQ(before, after);
}

struct bad_write {
	const char *s;
	int err;
};

/* The file without its "llc" lines, which follow the load by themselves. */
static int read_written(const char *path, char *out, size_t len)
{
	char buf[BUF_SIZE], *line, *save;
	size_t used = 0;

	if (read_file(path, buf, sizeof(buf)) < 0)
		return -1;
	out[0] = '\0';
	for (line = strtok_r(buf, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save))
		if (strncmp(line, "llc ", 4) && used < len)
			used += snprintf(out + used, len - used, "%s\n", line);
	return 0;
}

/* Each bad write fails with its errno and leaves the file as it was. */
static void bad_writes(struct __test_metadata *_metadata, const char *path,
		       const struct bad_write *bw, int n)
{
	char before[BUF_SIZE], after[BUF_SIZE];

	ASSERT_EQ(0, read_written(path, before, sizeof(before)));
	for (int i = 0; i < n; i++) {
		EXPECT_EQ(bw[i].err, write_file(path, bw[i].s)) {
			TH_LOG("%s: '%s' not rejected with %s", path, bw[i].s,
			       strerror(-bw[i].err));
		}
	}
	ASSERT_EQ(0, read_written(path, after, sizeof(after)));
	EXPECT_STREQ(before, after) {
		TH_LOG("%s changed after bad writes", path);
	}
}

/* A second write on one open file, appending to the first, fails. */
static void appended_write(struct __test_metadata *_metadata, const char *path,
			   const char *first, const char *second)
{
	int fd = open(path, O_WRONLY);

	ASSERT_LE(0, fd);
	EXPECT_EQ((ssize_t)strlen(first), write(fd, first, strlen(first)));
	EXPECT_EQ(-1, write(fd, second, strlen(second))) {
		TH_LOG("%s: '%s' then '%s' on one open: the second was not rejected",
		       path, first, second);
	}
	EXPECT_EQ(EINVAL, errno);
	close(fd);
}

/*
 * The wakeups sis_scan counts in its scanned lines and its stopped line;
 * -1 if unreadable or it does not parse.
 */
static long sis_counted(void)
{
	struct sis_scan s;

	if (sis_scan_read(&s))
		return -1;
	return s.stopped + s.unscanned + s.scans;
}

/*
 * sis_small_llc takes one decimal unsigned int per write, sis_scan and
 * sis_wake only 0, which clears their counts. Anything else gets EINVAL, or ERANGE above
 * UINT_MAX, and changes nothing.
 */
TEST_F_TIMEOUT(placement, debugfs_bad_input, 60)
{
	static const struct bad_write small[] = {
		{ "-1", -EINVAL }, { "abc", -EINVAL }, { "\n", -EINVAL },
		{ "8 9", -EINVAL }, { "0x10", -EINVAL }, { "1.5", -EINVAL },
		{ " 8", -EINVAL }, { "8abc", -EINVAL },
		{ "4294967296", -ERANGE }, { "99999999999", -ERANGE },
		{ "0000000000000000000000000000000000000016", -EINVAL },
	};
	static const struct bad_write scan[] = {
		{ "1", -EINVAL }, { "-1", -EINVAL }, { "abc", -EINVAL },
		{ "reset", -EINVAL }, { "4294967296", -ERANGE },
		{ "0000000000000000000000000000000000000000", -EINVAL },
	};
	char buf[BUF_SIZE];
	long counted;

	if (access(SIS_SMALL, W_OK) || access(SIS_SCAN, W_OK) ||
	    access(SIS_WAKE, W_OK))
		SKIP(return, "no %s, %s or %s", SIS_SMALL, SIS_SCAN, SIS_WAKE);
	if (write_file(SCHEDSTATS, "1"))
		SKIP(return, "cannot turn schedstats on (CONFIG_SCHEDSTATS=n?)");
	if (read_topology() < 2)
		SKIP(return, "no L3 (cache/index3) in sysfs, or one CPU");

	/* Good values land; the largest one too. */
	EXPECT_EQ(0, write_file(SIS_SMALL, "7\n"));
	ASSERT_LT(0, read_file(SIS_SMALL, buf, sizeof(buf)));
	EXPECT_STREQ("7\n", buf);
	EXPECT_EQ(0, write_file(SIS_SMALL, "4294967295"));
	ASSERT_LT(0, read_file(SIS_SMALL, buf, sizeof(buf)));
	EXPECT_STREQ("4294967295\n", buf);

	ASSERT_EQ(0, write_file(SIS_SMALL, "8"));
	bad_writes(_metadata, SIS_SMALL, small, ARRAY_SIZE(small));
	appended_write(_metadata, SIS_SMALL, "1", "6");
	ASSERT_LT(0, read_file(SIS_SMALL, buf, sizeof(buf)));
	EXPECT_STREQ("1\n", buf);

	/*
	 * Freeze the counts with some wakeups in them, then try to clear
	 * them. Two tasks per CPU of the LLC leave target and prev busy, so
	 * that the wakeups scan whatever the LLC size.
	 */
	llc_msg_run(100);
	ASSERT_EQ(0, write_file(SCHEDSTATS, "0"));
	counted = sis_counted();
	ksft_print_msg("sis_scan counted %ld wakeups of the load\n", counted);
	EXPECT_LT(0, counted);
	bad_writes(_metadata, SIS_SCAN, scan, ARRAY_SIZE(scan));
	appended_write(_metadata, SIS_SCAN, "0", "0");
	EXPECT_EQ(0, write_file(SIS_SCAN, "0"));
	EXPECT_EQ(0, sis_counted());

	/* sis_wake: bad writes fail, 0 clears. */
	bad_writes(_metadata, SIS_WAKE, scan, ARRAY_SIZE(scan));
	appended_write(_metadata, SIS_WAKE, "0", "0");
	EXPECT_EQ(0, write_file(SIS_WAKE, "0"));
	EXPECT_EQ(0, sis_wake_counted(NULL));
}

static atomic_bool clear_stop;
static atomic_long clear_reads, clear_bad;

/* Reads sis_scan and sis_wake until told to stop; counts the bad reads. */
static void *counts_reader(void *arg)
{
	(void)arg;
	while (!atomic_load(&clear_stop)) {
		long scan = sis_counted(), wake = sis_wake_counted(NULL);

		/* Unreadable (-1), or an unsigned count gone below zero. */
		if (scan < 0 || wake < 0)
			atomic_fetch_add(&clear_bad, 1);
		atomic_fetch_add(&clear_reads, 1);
	}
	return NULL;
}

/*
 * sis_scan and sis_wake cleared while another thread reads them and the
 * counted wakeups go on: every clear succeeds and every read parses with
 * no count below zero. A read that subtracted a newer clear's snapshot
 * from an older sum would show a count near 2^64, negative here.
 */
TEST_F_TIMEOUT(placement, debugfs_clear_while_read, 60)
{
	static const char * const wake[] = { "UTIL_FITS_CAPACITY", "SELECT_BIAS_PREV" };
	long clears = 0, failed = 0;
	pthread_t reader;
	int status;
	pid_t pid;

	if (access(SIS_SCAN, W_OK) || access(SIS_WAKE, W_OK))
		SKIP(return, "no %s or %s", SIS_SCAN, SIS_WAKE);
	if (write_file(SCHEDSTATS, "1"))
		SKIP(return, "cannot turn schedstats on (CONFIG_SCHEDSTATS=n?)");
	if (read_topology() < 2)
		SKIP(return, "no L3 (cache/index3) in sysfs, or one CPU");
	if (have_features(wake, 2))
		for (int i = 0; i < 2; i++)
			ASSERT_EQ(0, set_feature(wake[i], true));

	pid = fork();
	ASSERT_LE(0, pid);
	if (!pid) {
		llc_msg_run(100);
		_exit(0);
	}
	ASSERT_EQ(0, pthread_create(&reader, NULL, counts_reader, NULL));
	while (!waitpid(pid, &status, WNOHANG)) {
		failed += !!write_file(SIS_SCAN, "0");
		failed += !!write_file(SIS_WAKE, "0");
		clears++;
	}
	atomic_store(&clear_stop, true);
	pthread_join(reader, NULL);
	ksft_print_msg("%ld clears and %ld reads during the load\n",
		       clears, atomic_load(&clear_reads));
	EXPECT_TRUE(WIFEXITED(status) && !WEXITSTATUS(status));
	EXPECT_EQ(0, failed);
	EXPECT_EQ(0, atomic_load(&clear_bad));
	EXPECT_LT(0, clears);
	EXPECT_LT(0, atomic_load(&clear_reads));
}

TEST_HARNESS_MAIN
