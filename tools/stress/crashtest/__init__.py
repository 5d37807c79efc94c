"""Lodestone's crash test (tools/stress/lodestone_crashtest.py): upstream's
db_crashtest.py with every Lodestone option randomized and each feature's
activity checked. One module per job: options (what a run randomizes),
sanitize, claims (what an invocation must show busy), child (one run of
upstream's crash test), activity and judge (reading and judging a run),
run, planted, rejudge, cli."""
