// SPDX-License-Identifier: GPL-2.0
/*
 * stats: compare the two sides of an interleaved A/B run, mmtests style.
 *
 * Reads "SIDE METRIC VALUE" lines (SIDE is A or B) on stdin, as bench/ab-run.sh
 * prints them, and writes one row per metric: the arithmetic mean and the
 * coefficient of variation of each side, the change of A against B in percent
 * (positive = A is better; every metric we collect is lower-is-better except
 * cpus_utilised, which is shown as a plain difference), and a '*' where Welch's
 * t-test finds the difference significant at the 5% level (two-sided).
 *
 *   stats [-a LABEL_A] [-b LABEL_B] [-c CSV_FILE] [-m MIN_RUNS]
 *
 * Exits 1 when the input is malformed or a side has fewer than MIN_RUNS
 * (default 2) values of a metric: a table without spread is no result.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAX_METRICS 32
#define MAX_RUNS 1024

struct side {
	double v[MAX_RUNS];
	int n;
};

struct metric {
	char name[64];
	struct side s[2];	/* 0 = A, 1 = B */
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

/* Two-sided 5% critical value of Student's t for df degrees of freedom. */
static double t_crit(double df)
{
	static const double t[] = { 0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447,
		2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120,
		2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
		2.052, 2.048, 2.045, 2.042 };
	int d = (int)floor(df);

	if (d < 1)
		return INFINITY;
	if (d <= 30)
		return t[d];
	return d <= 60 ? 2.000 : 1.960;
}

/* Welch's t-test: is the difference of the means significant at 5%? */
static int significant(const struct side *a, const struct side *b)
{
	double va = var(a) / a->n, vb = var(b) / b->n;
	double se = sqrt(va + vb), df;

	if (se == 0)
		return mean(a) != mean(b);
	df = (va + vb) * (va + vb) /
	     (va * va / (a->n - 1) + vb * vb / (b->n - 1));
	return fabs(mean(a) - mean(b)) / se > t_crit(df);
}

static int higher_is_better(const char *name)
{
	return !strcmp(name, "cpus_utilised");
}

int main(int argc, char **argv)
{
	const char *la = "A", *lb = "B", *csv = NULL;
	int min_runs = 2, line = 0, opt, i, bad = 0;
	char side[16], name[64];
	double val;
	FILE *c = NULL;

	while ((opt = getopt(argc, argv, "a:b:c:m:")) != -1) {
		switch (opt) {
		case 'a': la = optarg; break;
		case 'b': lb = optarg; break;
		case 'c': csv = optarg; break;
		case 'm': min_runs = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: stats [-a LABEL_A] [-b LABEL_B] [-c CSV] [-m MIN_RUNS]\n");
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
		fprintf(c, "metric,side,n,amean,cv_pct,change_pct,significant\n");

	printf("%-16s %22s %22s %10s\n", "", lb, la, "change");
	for (i = 0; i < nr_metrics; i++) {
		struct metric *m = &metrics[i];
		struct side *a = &m->s[0], *b = &m->s[1];
		double ma, mb, cva, cvb, chg;
		int sig;

		if (a->n < min_runs || b->n < min_runs) {
			fprintf(stderr, "stats: %s has %d/%d runs, need %d per side\n",
				m->name, a->n, b->n, min_runs);
			bad = 1;
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
		sig = significant(a, b);
		printf("Amean %-10s %12.4f (%6.2f%%) %12.4f (%6.2f%%) %8.2f%% %s\n",
		       m->name, mb, cvb, ma, cva, chg, sig ? "*" : "");
		if (c) {
			fprintf(c, "%s,B,%d,%g,%.2f,,\n", m->name, b->n, mb, cvb);
			fprintf(c, "%s,A,%d,%g,%.2f,%.2f,%d\n", m->name, a->n, ma, cva, chg, sig);
		}
	}
	printf("(n=%d per side; change: positive = %s better; * = Welch t-test p<0.05)\n",
	       metrics[0].s[0].n, la);
	if (c)
		fclose(c);
	return bad;
}
