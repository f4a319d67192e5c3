"""Presentation: how a table looks and reaches Discord -- the board message, its delivery
from the outbox, notices, private messages, reposts, vote posts, the shared ui builders,
the one error hook (every refusal as one private reply) and the background loop base.
Imports the kit and tables/; never a command module (tests/test_architecture.py)."""
