// SPDX-License-Identifier: GPL-2.0
/*
 * stats: compare the two sides of an interleaved A/B run, mmtests style.
 *
 * Reads "SIDE METRIC VALUE" lines (SIDE is A or B) on stdin, as bench/ab-run.sh
 * prints them, and writes one row per metric: the arithmetic mean and the
 * coefficient of variation of each side, the change of A against B in percent
 * (positive = A is better; a metric is lower-is-better unless -H names it:
 * bench/sets says which are higher-is-better), the two-sided p-value of Welch's
 * t-test (Student's t distribution from GSL; "-" where a side has one run or
 * no spread to test against) and a '*' where p < 0.05. Then the same rows normalized to B, in the form the scheduler
 * reports on LKML use: "1.00 [ -0.00]( CV)  0.95 [  5.00]( CV)", the mean
 * as a ratio to B's, [the change in percent, positive = better] and (CV).
 *
 *   stats [-a LABEL_A] [-b LABEL_B] [-c CSV_FILE] [-H [~]METRIC,...] [-m MIN_RUNS] [-r CASE]
 *
 * -r CASE labels the normalized rows "CASE METRIC" (e.g. "4-groups time_s"),
 * so that the rows of a sweep can be collected into one table.
 *
 * Exits 1 when the input is malformed or a side has fewer than MIN_RUNS
 * (default 2) values of a metric: a table without spread is no result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

#define MAX_METRICS 64
#define MAX_RUNS 1024

struct side {
	double v[MAX_RUNS];
	int n;
};

struct metric {
	char name[64];
	struct side s[2];	/* 0 = A, 1 = B */
	double chg, cva, cvb, ratio, mb;	/* as printed in the Amean row */
	int neutral;				/* -H ~NAME: no better or worse */
	int zero;				/* 0 in every run of both sides */
};

static struct metric metrics[MAX_METRICS];
static int nr_metrics;

static struct metric *metric_get(const char *name)
{
	int i;

	for (i = 0; i < nr_metrics; i++)
		if (!strcmp(metrics[i].name, name))
			return &metrics[i];
	if (nr_metrics == MAX_METRICS)
		return NULL;
	snprintf(metrics[nr_metrics].name, sizeof(metrics[0].name), "%s", name);
	return &metrics[nr_metrics++];
}

static double mean(const struct side *s)
{
	double sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += s->v[i];
	return sum / s->n;
}

static double var(const struct side *s)
{
	double m = mean(s), sum = 0;
	int i;

	for (i = 0; i < s->n; i++)
		sum += (s->v[i] - m) * (s->v[i] - m);
	return s->n > 1 ? sum / (s->n - 1) : 0;
}

/*
 * Welch's t-test: the two-sided p-value of the difference of the means, or
 * NAN where there is nothing to test: a side with a single run, or no spread
 * at all on either side and different means.
 */
static double p_value(const struct side *a, const struct side *b)
{
	double va, vb, se, df;

	if (a->n < 2 || b->n < 2)
		return NAN;
	va = var(a) / a->n;
	vb = var(b) / b->n;
	se = sqrt(va + vb);
	if (se == 0)
		return mean(a) == mean(b) ? 1 : NAN;
	df = (va + vb) * (va + vb) /
	     (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return 2 * gsl_cdf_tdist_Q(fabs(mean(a) - mean(b)) / se, df);
}

/*
 * -H's comma-separated list: the metrics where higher is better, and, with a
 * leading '~', those that are neither better nor worse either way (a share
 * of wakeups, say): their change has no sign of better, and prints as "-".
 * An entry ending in '*' names every metric that starts with what is before
 * it (~wake_*: the wakeup decisions ab-run.sh counts).
 */
static const char *higher = "";

static int listed(const char *name, int tilde)
{
	const char *p = higher;

	while (*p) {
		size_t len = strcspn(p, ","), n = len;
		int t = *p == '~';
		const char *e = p + t;

		n -= t;
		if (t == tilde) {
			if (n && e[n - 1] == '*') {
				if (!strncmp(name, e, n - 1))
					return 1;
			} else if (strlen(name) == n && !strncmp(name, e, n)) {
				return 1;
			}
		}
		p += len + (p[len] == ',');
	}
	return 0;
}

/* True if every run of both sides is 0: a decision never taken. */
static int all_zero(const struct metric *m)
{
	int s, i;

	for (s = 0; s < 2; s++)
		for (i = 0; i < m->s[s].n; i++)
			if (m->s[s].v[i])
				return 0;
	return 1;
}

static int higher_is_better(const char *name)
{
	return listed(name, 0);
}

static int neutral(const char *name)
{
	return listed(name, 1);
}

int main(int argc, char **argv)
{
	const char *la = "A", *lb = "B", *csv = NULL, *rcase = NULL;
	int min_runs = 2, line = 0, opt, i, bad = 0, nr_zero = 0;
	char side[16], name[64];
	double val;
	FILE *c = NULL;

	/* GSL aborts on a domain error by default; p_value() avoids them. */
	gsl_set_error_handler_off();
	while ((opt = getopt(argc, argv, "a:b:c:H:m:r:")) != -1) {
		switch (opt) {
		case 'a': la = optarg; break;
		case 'b': lb = optarg; break;
		case 'c': csv = optarg; break;
		case 'H': higher = optarg; break;
		case 'm': min_runs = atoi(optarg); break;
		case 'r': rcase = optarg; break;
		default:
			fprintf(stderr, "usage: stats [-a LABEL_A] [-b LABEL_B] [-c CSV] [-H METRIC,...] [-m MIN_RUNS] [-r CASE]\n");
			return 2;
		}
	}

	for (;;) {
		char buf[256];
		struct metric *m;
		int s;

		if (!fgets(buf, sizeof(buf), stdin))
			break;
		line++;
		if (buf[0] == '#' || buf[0] == '\n')
			continue;
		if (sscanf(buf, "%15s %63s %lf", side, name, &val) != 3 ||
		    (strcmp(side, "A") && strcmp(side, "B"))) {
			fprintf(stderr, "stats: line %d is not 'A|B METRIC VALUE': %s", line, buf);
			return 1;
		}
		m = metric_get(name);
		s = side[0] == 'B';
		if (!m || m->s[s].n == MAX_RUNS) {
			fprintf(stderr, "stats: too many metrics or runs\n");
			return 1;
		}
		m->s[s].v[m->s[s].n++] = val;
	}
	if (!nr_metrics) {
		fprintf(stderr, "stats: no samples on stdin\n");
		return 1;
	}
	if (csv && !(c = fopen(csv, "w"))) {
		perror(csv);
		return 1;
	}
	if (c)
		fprintf(c, "metric,side,n,amean,cv_pct,change_pct,p,significant\n");

	printf("%-16s %22s %22s %10s %7s\n", "", lb, la, "change", "p");
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];
		struct side *a = &m->s[0], *b = &m->s[1];
		double ma, mb, cva, cvb, chg, p;

		if (a->n < min_runs || b->n < min_runs) {
			fprintf(stderr, "stats: %s has %d/%d runs, need %d per side\n",
				m->name, a->n, b->n, min_runs);
			bad = 1;
			m->name[0] = 0;	/* left out of the normalized rows too */
			continue;
		}
		ma = mean(a);
		mb = mean(b);
		cva = ma ? 100 * sqrt(var(a)) / fabs(ma) : 0;
		cvb = mb ? 100 * sqrt(var(b)) / fabs(mb) : 0;
		chg = mb ? 100 * (ma - mb) / fabs(mb) : 0;
		if (!higher_is_better(m->name))
			chg = -chg;
		if (fabs(chg) < 0.005)
			chg = 0;	/* no "-0.00%" */
		p = p_value(a, b);
		m->chg = chg;
		m->cva = cva;
		m->cvb = cvb;
		m->ratio = mb ? ma / mb : 0;
		m->mb = mb;
		m->neutral = neutral(m->name);
		m->zero = all_zero(m);
		if (m->zero)
			nr_zero++;
		else if (m->neutral)
			printf("Amean %-10s %12.4f (%6.2f%%) %12.4f (%6.2f%%) %9s ",
			       m->name, mb, cvb, ma, cva, "-");
		else
			printf("Amean %-10s %12.4f (%6.2f%%) %12.4f (%6.2f%%) %8.2f%% ",
			       m->name, mb, cvb, ma, cva, chg);
		if (m->zero)
			;
		else if (isnan(p))
			printf("%7s \n", "-");
		else
			printf("%7.4f %s\n", p, p < 0.05 ? "*" : "");
		if (c) {
			fprintf(c, "%s,B,%d,%g,%.2f,,,\n", m->name, b->n, mb, cvb);
			char ch[32] = "";

			if (!m->neutral)
				snprintf(ch, sizeof(ch), "%.2f", chg);
			if (isnan(p))
				fprintf(c, "%s,A,%d,%g,%.2f,%s,,\n", m->name, a->n, ma,
					cva, ch);
			else
				fprintf(c, "%s,A,%d,%g,%.2f,%s,%.6f,%d\n", m->name, a->n,
					ma, cva, ch, p, p < 0.05);
		}
	}
	printf("(n=%d and %d runs of %s and %s; change: positive = %s better; p: Welch's t-test, two-sided; * = p<0.05)\n",
	       metrics[0].s[1].n, metrics[0].s[0].n, lb, la, la);
	if (nr_zero) {
		printf("(0 in every run of both, not shown:");
		for (i = 0; i < nr_metrics; i++)
			if (metrics[i].name[0] && metrics[i].zero)
				printf(" %s", metrics[i].name);
		printf(")\n");
	}
	printf("Normalized to %s: mean ratio [%% improvement](CV)\n", lb);
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];
		int w;

		if (!m->name[0] || m->zero)
			continue;
		w = printf("  %s%s%s", rcase ? rcase : "", rcase ? " " : "", m->name);
		if (!m->mb) {	/* no ratio to a mean of 0 */
			printf("%*s    - [%6s](%6.2f)       - [%6s](%6.2f)\n", w < 26 ? 26 - w : 0, "",
			       "-", m->cvb, "-", m->cva);
			continue;
		}
		if (m->neutral)
			printf("%*s 1.00 [%6s](%6.2f)   %5.2f [%6s](%6.2f)\n", w < 26 ? 26 - w : 0, "",
			       "-", m->cvb, m->ratio, "-", m->cva);
		else
			printf("%*s 1.00 [%6.2f](%6.2f)   %5.2f [%6.2f](%6.2f)\n", w < 26 ? 26 - w : 0, "",
			       0.0, m->cvb, m->ratio, m->chg, m->cva);
	}
	if (c)
		fclose(c);
	return bad;
}
