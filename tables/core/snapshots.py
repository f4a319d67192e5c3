"""Rebuilding a table's state fast: snapshots, a cache in front of the replay.

The truth about a table is its seed and its action log: the state after the
first *n* actions is what ``Game.replay`` makes of them.  Replaying a long log
costs ~0.3-0.6 ms per action, so undo and ``/game replay <turn>`` start from a
cached state (a *snapshot*) instead:

* a turn whose actions cross a multiple of :data:`SNAPSHOT_EVERY` log positions
  stores its final state with it (the same JSON as the table's state, in the
  same transaction: ``GameChange.snapshot``);
* a snapshot is keyed by the action it follows and by :func:`snapshot_key`, the
  game's ``schema_version`` and a digest of the engine code and content that
  produced it: a new build never trusts an old build's cache;
* an undo that reverts actions drops the snapshots from the first of them on
  (the store does it with the revert); the action log stays append-only;
* a snapshot that does not load, does not stand at its position or does not
  lead to the stored state is ignored and the state is rebuilt from the seed;
  a rebuild that had to replay a long stretch caches what it passed
  (``Store.fill_snapshots``), so the cache rebuilds itself after a deploy.

Nothing here does I/O except reading the engine's source files once per game
(for the digest).
"""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Sequence
from pathlib import Path

from engine.base import BaseState, Game
from store import ActionRow, NewSnapshot, ReplaySource

#: a snapshot every this many log positions (at most this many actions, plus one
#: turn's AI moves, are replayed from the nearest one)
SNAPSHOT_EVERY = 25

_ENGINE = Path(inspect.getfile(Game)).resolve().parent


class SnapshotUnusable(Exception):
    """The cached state cannot serve (fall back to replaying from the seed)."""


_DIGESTS: dict[str, str] = {}


def _digest(game_cls: type[Game]) -> str:
    """A digest of the code and content a game's states come from: the engine's
    own modules, the game's package and its data files (catalogs left out);
    computed once per game class."""
    name = f"{game_cls.__module__}.{game_cls.__qualname__}"
    if name not in _DIGESTS:
        _DIGESTS[name] = _compute_digest(game_cls)
    return _DIGESTS[name]


def _compute_digest(game_cls: type[Game]) -> str:
    h = hashlib.sha256()
    here = Path(inspect.getfile(game_cls)).resolve().parent
    files = sorted(_ENGINE.glob("*.py")) + sorted(here.rglob("*.py"))
    data = game_cls.data_path()
    if data.is_dir():
        files += sorted(p for p in data.rglob("*") if p.is_file() and "locales" not in p.relative_to(data).parts)
    for path in dict.fromkeys(files):
        h.update(str(path.name).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]


def snapshot_key(game: Game) -> str:
    """The cache key of ``game``'s states: game, schema version and engine digest."""
    return f"{game.id}/s{game.schema_version}/{_digest(type(game))}"


def snapshot_due(game: Game, state: BaseState, entries: Sequence[ActionRow], every: int = SNAPSHOT_EVERY) -> bool:
    """Whether a turn that logged ``entries`` and reached ``state`` should cache it:
    when its actions crossed a multiple of ``every`` steps."""
    n = len(entries)
    return n > 0 and every > 0 and state.step // every > (state.step - n) // every


def rebuild(
    game: Game,
    seats: Sequence[str],
    options: dict,
    seed: int,
    src: ReplaySource,
    stop: int | None = None,
    *,
    key: str,
    every: int = SNAPSHOT_EVERY,
) -> tuple[BaseState, list[NewSnapshot]]:
    """The state after ``src.actions[:stop]`` (all of them when None), from the
    source's snapshot or from the seed, and the snapshots worth caching on the
    way (every ``every`` positions, when more than ``every`` actions were
    replayed).  Raises :class:`SnapshotUnusable` for a snapshot that cannot
    serve; ``GameError`` when the log does not replay."""
    if src.snapshot is not None:
        try:
            state = game.load(src.snapshot.state_json)
        except Exception as exc:  # noqa: BLE001 -- any failure: the cache is bad, not the table
            raise SnapshotUnusable(f"{type(exc).__name__}: {exc}") from None
        if state.step != src.snapshot.position:
            raise SnapshotUnusable(f"step {state.step} at log position {src.snapshot.position}")
    else:
        state = game.replay(seats, options, seed, [])
    actions = src.actions if stop is None else src.actions[:stop]
    fills: list[NewSnapshot] = []
    position = src.start
    for entry in actions:
        state, _ = game.apply(state, entry.seat, entry.action)
        position += 1
        if every > 0 and position % every == 0 and len(actions) > every:
            fills.append(NewSnapshot(key, state.model_dump_json(), entry.id))
    return state, fills
