"""tables/rules/: pure rules and values every layer may read: no store, no kernel (choices, clocks, levels, limits, settings, text, ...).

Modules: choice_labels, choices, clocks, decisions, levels, limits, panels, preview, ratings, settings, text, undo_rule.  What it may import: tests/test_architecture.py LAYERS."""
