# files/ holds labelled copies of real public programs: data for compare_real.py, never collected.
collect_ignore_glob = ["files/*"]
