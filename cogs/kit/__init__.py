"""The Discord kit: routing of clicks (components, ids), flood and place checks, locale,
input parsing, who is who (names), what the cogs share (services).
Imports tables/ (and the kit); never presentation or a command module (tests/test_architecture.py)."""
