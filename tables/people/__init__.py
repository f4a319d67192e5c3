"""tables/people/mine/: members and servers: own tables, privacy, names, languages, sign-in, records.

Modules: community, flood, members, mine, names, privacy, standings, web_sessions.  What it may import: tests/test_architecture.py LAYERS."""
