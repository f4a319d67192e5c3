"""tables/leagues/: seasons of tables the bot pairs, opens, referees and scores.

Modules: deadline, pairing, rounds, rules, setup.  What it may import: tests/test_architecture.py LAYERS."""
