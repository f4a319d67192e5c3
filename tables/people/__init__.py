"""tables/people/: members and servers: own tables, privacy, names, languages, sign-in, records.

Modules: calendar, community, facade (the people verbs of the facade), flood, members, mine, names, privacy, standings, web_sessions.  What it may import: tests/test_architecture.py LAYERS."""
