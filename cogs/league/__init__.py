"""The league commands: /league and its scheduler pass (rounds and what they post)."""
