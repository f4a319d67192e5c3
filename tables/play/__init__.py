"""tables/play/: the rooms that change a table: lobby, turns, seats, votes, timers, delivery, history.

Modules: campaigns, delivery, facade (the play verbs of the facade), history, lobby, refusals, schedule, seats, turns, views, votes.  What it may import: tests/test_architecture.py LAYERS."""
