# Collapse each run of sched_verbose's domain dump lines into one line.
function flush() { if (n) printf "[ %d lines of sched_verbose domain dumps left out: console-full.raw.xz ]\n", n; n = 0 }
/attaching (NULL )?sched-domain|^\[ *[0-9.]+\] +(domain-[0-9]+:|groups:)/ { n++; next }
{ flush(); print }
END { flush() }
