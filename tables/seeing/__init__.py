"""tables/seeing/: what a viewer sees: the board, catch-up, the log's words, secrecy, pings, live pages.

Modules: board, catchup, colours, facade (the seeing verbs of the facade), live, logtext, pings, reads, secrecy, verbs.  What it may import: tests/test_architecture.py LAYERS."""
