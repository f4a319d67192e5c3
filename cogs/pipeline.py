"""The old name of the table service, kept for modules written against it
(cogs/game_commands.py on the engine-base branch).  New code uses ``tables``
and the shared instance ``services.tables``."""

from tables import Loaded, TurnRefused, TurnResult
from tables import TableService as Pipeline

__all__ = ["Loaded", "Pipeline", "TurnRefused", "TurnResult"]
