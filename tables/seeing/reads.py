"""The rooms a board reads (issue 30 item 1): handed down, never the facade.

:class:`Reads` carries the three rooms a viewer's board, a past frame, the log's
words and a member's catch-up read from: the kernel (a stored row, its state,
the server's settings), the views (offers, numbers, the image, the time banks)
and the history (the log, replays).  The table service builds one and passes it
(through :class:`tables.seeing.verbs.Seeing`, its ``board``/``frame``/``public``/``catchup``)
to :mod:`tables.seeing.board`, :mod:`tables.seeing.logtext` and :mod:`tables.seeing.catchup`, so a
board reads down and never calls back up through :class:`tables.TableService`.
"""

from __future__ import annotations

from dataclasses import dataclass

from tables.core.kernel import Kernel
from tables.play.history import History
from tables.play.views import Views


@dataclass(frozen=True)
class Reads:
    kernel: Kernel  # a row and its state (quarantining a broken one), the settings, the store
    views: Views  # what a seat is offered and its numbers, the image, the time banks, step labels
    history: History  # the log (``actions``, ``count_actions``) and replays (``replay_state``)
