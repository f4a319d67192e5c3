"""Privacy: every place the store keeps a member's Discord id (:data:`PERSONAL_DATA`),
counted by ``/privacy show`` and cleared by ``/privacy forget`` on both backends
(:meth:`store.ports.Store.footprint`, :meth:`store.ports.Store.forget_user`)."""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import StillSeated
from .rows import dumps, json_dict

if TYPE_CHECKING:
    from .sql import Conn


def replace_member(value: Any, user_id: int, anon_id: int) -> Any:
    """``value`` (parsed JSON) with every occurrence of a member's id, as a number
    or as an object key, replaced by ``anon_id`` (privacy: vote ballots, campaign members)."""
    if isinstance(value, bool):
        return value
    if isinstance(value, int):
        return anon_id if value == user_id else value
    if isinstance(value, list):
        return [replace_member(v, user_id, anon_id) for v in value]
    if isinstance(value, dict):
        return {
            (str(anon_id) if k == str(user_id) else k): replace_member(v, user_id, anon_id) for k, v in value.items()
        }
    return value


def anonymised(raw: str | None, user_id: int, anon_id: int) -> str | None:
    """Stored JSON text with the member replaced (None when nothing changed or it does not parse)."""
    if not raw or str(user_id) not in raw:
        return None
    try:
        value = json.loads(raw)
    except ValueError:
        return None
    out = dumps(replace_member(value, user_id, anon_id))
    return out if out != raw else None


# ------------------------------------------------------------------- privacy
@dataclass(frozen=True)
class PersonalData:
    """One place the store keeps a member's Discord id.  ``/privacy show`` counts
    these places and ``/privacy forget`` clears them: both walk :data:`PERSONAL_DATA`,
    so a new table that keeps member ids (a web companion's sessions, say) is covered
    by adding one entry there (tests/test_privacy.py fails for a schema column named
    like a member id that no entry covers).

    ``forget``: "delete" the rows, or "pseudonym" (put the forget's pseudonym in the
    member's place: logs, seats and rosters keep telling players apart, so replays and
    exports still work).  ``scope``: how a row belongs to a server ("guild_id": its own
    column; "game_id": its table's server); None: personal data of no server (settings,
    sessions): only the member's own forget touches it and an admin never sees it.
    ``json``: the column is JSON text that may name the member anywhere (as a number or
    an object key), rewritten row by row (``pk`` names the row)."""

    name: str  # what ``footprint`` counts it as
    table: str
    column: str
    forget: str = "pseudonym"
    scope: str | None = "game_id"
    json: bool = False
    pk: str = ""


PERSONAL_DATA: list[PersonalData] = [
    PersonalData("results", "results", "user_id", "delete", "guild_id"),
    PersonalData("ratings", "ratings", "user_id", "delete", "guild_id"),
    PersonalData("follows", "follows", "user_id", "delete"),
    PersonalData("tables", "seats", "user_id"),
    PersonalData("actions", "actions", "user_id"),
    PersonalData("records", "reverts", "by_user"),
    PersonalData("records", "turn_clocks", "user_id"),
    PersonalData("hosted", "games", "host_id", scope="guild_id"),
    PersonalData("votes", "votes", "created_by", pk="id"),
    PersonalData("votes", "votes", "payload_json", json=True, pk="id"),
    PersonalData("votes", "votes", "voters_json", json=True, pk="id"),
    PersonalData("votes", "votes", "yes_json", json=True, pk="id"),
    PersonalData("votes", "votes", "no_json", json=True, pk="id"),
    PersonalData("records", "outbox", "notes_json", json=True, pk="game_id"),  # a notice not yet posted
    PersonalData("records", "outbox_messages", "user_id", "delete", "game_id"),  # a private DM not yet sent
    PersonalData("campaigns", "campaigns", "created_by", scope="guild_id", pk="id"),
    PersonalData("campaigns", "campaigns", "progress_json", scope="guild_id", json=True, pk="id"),
    PersonalData("records", "rate_events", "user_id", "delete", "guild_id"),
    PersonalData("leagues", "leagues", "created_by", scope="guild_id", pk="id"),
    # league rosters, pairings, places and podiums (tables/leagues/rounds.py)
    PersonalData("leagues", "leagues", "state_json", scope="guild_id", json=True, pk="id"),
    PersonalData("prefs", "user_prefs", "user_id", "delete", None),
    PersonalData("web_sessions", "web_tokens", "user_id", "delete", None),  # the web companion's sign-ins
    PersonalData("names", "member_names", "user_id", "delete", "guild_id"),  # display names (tables/people/names.py)
    PersonalData("calendar", "calendar_feeds", "user_id", "delete", None),
    PersonalData(
        "records", "notify_sent", "user_id", "delete", None
    ),  # alerts and digests sent  # the calendar feed's secret
    # members' armed standing orders and their notices (store/orders.py): a forget drops them
    PersonalData("records", "games", "orders_json", scope="guild_id", json=True, pk="id"),
]


#: rows that keep a compare-and-swap ``version``: a forget that rewrites one moves it, so a
#: change decided on the row as it was before the forget fails and is decided again (else
#: it would write the member's id back: issue 28)
VERSIONED = {"votes", "campaigns", "leagues"}
#: a feature's own step on its JSON once the pseudonym is in, per (table, column):
#: ``step(value, anon_id) -> value`` (a forgotten member withdraws from a league; None: SQL NULL)
FORGET_STEPS: dict[tuple[str, str], Callable[[Any, int], Any]] = {}
#: the other columns of the same row a forget's step decides, per (table, column):
#: ``also(value) -> {column: value}`` (a table's orders and when their next step is due)
FORGET_ALSO: dict[tuple[str, str], Callable[[Any], dict[str, Any]]] = {}


def on_forget_json(
    table: str, column: str, step: Callable[[Any, int], Any], also: Callable[[Any], dict[str, Any]] | None = None
) -> None:
    """Run ``step`` on every ``table.column`` JSON a forget rewrites (in its transaction);
    ``also``: the row's other columns that follow from the value after it, written with it."""
    FORGET_STEPS[(table, column)] = step
    if also is not None:
        FORGET_ALSO[(table, column)] = also


def register_personal_data(entry: PersonalData) -> None:
    """Add a place that keeps member ids (a feature's own table); idempotent."""
    if entry not in PERSONAL_DATA:
        PERSONAL_DATA.append(entry)


def _scoped(e: PersonalData, guild_id: int | None) -> tuple[str, list[Any]]:
    if guild_id is None:
        return "", []
    if e.scope == "guild_id":
        return " AND guild_id=?", [guild_id]
    return f" AND {e.scope} IN (SELECT id FROM games WHERE guild_id=?)", [guild_id]


async def _json_hits(db: Conn, e: PersonalData, user_id: int, guild_id: int | None) -> list[tuple[Any, str]]:
    """(row key, the column's text) of the rows whose JSON names the member."""
    scope, args = _scoped(e, guild_id)
    rows = await db.fetch(
        f"SELECT {e.pk}, {e.column} FROM {e.table} WHERE {e.column} LIKE ?{scope}", [f"%{user_id}%", *args]
    )
    return [(k, raw) for k, raw in rows if anonymised(raw, user_id, 0) is not None]


async def personal_footprint(db: Conn, user_id: int, guild_id: int | None = None) -> dict[str, Any]:
    """Counts per :class:`PersonalData` name of what is kept about the member (one
    read snapshot); with ``guild_id`` only that server's data and no personal settings.
    Unscoped, ``prefs`` is the member's settings (a dict)."""
    counts: dict[str, int] = {}
    keyed: dict[tuple[str, str], set[Any]] = {}
    for e in PERSONAL_DATA:
        if e.scope is None and guild_id is not None:
            continue
        if e.table == "user_prefs":
            continue  # shown as the settings themselves
        counts.setdefault(e.name, 0)
        if e.json:
            keyed.setdefault((e.name, e.table), set()).update(k for k, _ in await _json_hits(db, e, user_id, guild_id))
            continue
        scope, args = _scoped(e, guild_id)
        if e.pk:
            rows = await db.fetch(f"SELECT {e.pk} FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args])
            keyed.setdefault((e.name, e.table), set()).update(r[0] for r in rows)
        elif e.name == "tables":
            rows = await db.fetch(
                f"SELECT COUNT(DISTINCT game_id) FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args]
            )
            counts[e.name] += int(rows[0][0])
        else:
            rows = await db.fetch(f"SELECT COUNT(*) FROM {e.table} WHERE {e.column}=?{scope}", [user_id, *args])
            counts[e.name] += int(rows[0][0])
    for (name, _), keys in keyed.items():
        counts[name] += len(keys)
    out: dict[str, Any] = dict(counts)
    if guild_id is None:
        rows = await db.fetch("SELECT prefs_json FROM user_prefs WHERE user_id=?", [user_id])
        out["prefs"] = json_dict(rows[0][0]) if rows else {}
    return out


async def forget_personal(db: Conn, user_id: int, anon_id: int, guild_id: int | None = None) -> dict[str, int]:
    """Inside one write transaction: refuse (:class:`StillSeated`) while the member sits
    at a lobby or running table (of that server), else clear every :data:`PERSONAL_DATA`
    place: rows deleted, or ``anon_id`` in the member's place.  Counts per name."""
    scope, args = ("", []) if guild_id is None else (" AND g.guild_id=?", [guild_id])
    seated = await db.fetch(
        "SELECT DISTINCT g.id FROM games g JOIN seats s ON s.game_id=g.id"
        f" WHERE s.user_id=? AND g.status IN ('lobby','active'){scope} ORDER BY g.id",
        [user_id, *args],
    )
    if seated:
        raise StillSeated([int(r[0]) for r in seated])
    done: dict[str, int] = {}
    keyed: dict[tuple[str, str], set[Any]] = {}
    for e in PERSONAL_DATA:
        if e.scope is None and guild_id is not None:
            continue
        done.setdefault(e.name, 0)
        if e.json:
            hits = await _json_hits(db, e, user_id, guild_id)
            step = FORGET_STEPS.get((e.table, e.column))
            bump = ", version=version+1" if e.table in VERSIONED else ""
            also = FORGET_ALSO.get((e.table, e.column))
            for k, raw in hits:
                new = anonymised(raw, user_id, anon_id)
                more: dict[str, Any] = {}
                if step is not None and new is not None:
                    value = step(json.loads(new), anon_id)
                    new = None if value is None else dumps(value)
                    more = also(value) if also is not None else {}
                sets = "".join(f", {col}=?" for col in more)
                await db.execute(
                    f"UPDATE {e.table} SET {e.column}=?{sets}{bump} WHERE {e.pk}=?", [new, *more.values(), k]
                )
            keyed.setdefault((e.name, e.table), set()).update(k for k, _ in hits)
            continue
        where, wargs = _scoped(e, guild_id)
        if e.pk:
            rows = await db.fetch(f"SELECT {e.pk} FROM {e.table} WHERE {e.column}=?{where}", [user_id, *wargs])
            keyed.setdefault((e.name, e.table), set()).update(r[0] for r in rows)
        if e.forget == "delete":
            n = await db.execute(f"DELETE FROM {e.table} WHERE {e.column}=?{where}", [user_id, *wargs])
        else:
            n = await db.execute(
                f"UPDATE {e.table} SET {e.column}=? WHERE {e.column}=?{where}", [anon_id, user_id, *wargs]
            )
        if not e.pk:
            done[e.name] += n
    for (name, _), keys in keyed.items():
        done[name] += len(keys)
    return done
