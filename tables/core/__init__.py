"""tables/core/: the kernel: loads, advances (the autopilot) and commits a table; the names every room shares.

Modules: autopilot, common, facade (the kernel's verbs of the facade), kernel, snapshots.  What it may import: tests/test_architecture.py LAYERS."""
