# results/ directories, .partial until the run completes; for the scripts that write results/.
# shellcheck shell=bash

# results_begin NAME: start a results directory, results/NAME.partial, and set
# RESULTS to it (SP_RESULTS=DIR stands for results/). results_commit renames
# it to results/NAME once the run is complete. A run that is interrupted or fails leaves only a .partial
# directory (its raw data kept, never mistaken for a result); nothing reads
# those, and the next run starts under a new name.
results_begin() {
	RESULTS_FINAL=${SP_RESULTS:-$TOP/results}/$1
	RESULTS=$RESULTS_FINAL.partial
	mkdir -p "$RESULTS"
}
results_commit() {
	mv -T "$RESULTS" "$RESULTS_FINAL"
	RESULTS=$RESULTS_FINAL
}
