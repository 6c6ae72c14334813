"""The projects here are data for tests/cli/test_projects.py, not tests to collect
(some hold their own pytest suites, written as their users would)."""

collect_ignore_glob = ["p*"]
