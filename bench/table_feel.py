"""How a table feels to play: one scripted full game of each game through the
Discord stand-in (tests/fakediscord.py) with the real bot and discord.py
client, every seat a human member clicking the board's (or their private
panel's) components; the choices are the seat-filler AI's.

Prints exactly one line per game::

    feel <game_id> seats=<n> max_clicks_per_decision=<n> public_messages=<n> handoffs=<n> ephemerals_per_decision=<max> stale_answers=<n> pings_per_turn=<max>

* a *decision* is one saved choice of a player (one service call: a button or
  a select pick, which may be a chain of single steps, see tables/rules/choices.py);
  its clicks count every click since that player's previous decision (opening
  a private panel is a click);
* ``public_messages``: messages the bot posted in the channel after the lobby
  (boards and anything else public; reminders, votes and timer notices are
  counted apart, and a scripted game has none);
* a *handoff* is a saved action (a row of the action log, replayed) after
  which the seats to act include a human seat that was not among them before;
* ``ephemerals_per_decision``: the most private messages one decision caused
  (panels opened for it included);
* ``stale_answers``: private answers saying "out of date" to a click (the script
  only ever clicks a component of the newest message sent to that player, so
  every such answer is one a player would meet); every player a board calls to a
  private panel opens it at once and decides in it when their decision comes, as
  players do, so the others' decisions in between are what may stale it;
* ``pings_per_turn``: the most public messages that pinged one player between
  two of their decisions (a turn should ping its player once); a board that a
  decision posts counts for its player's next turn (the final board, which tells
  every player the game is over, for none).

Usage: ``python bench/table_feel.py [game ...] [--seed N]``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]
os.environ.setdefault("FAKEDISCORD_OPENAPI", str(ROOT.parent.parent / "shared" / "discord-api-spec" / "openapi.json"))

from conftest import Table  # noqa: E402
from fakediscord import FakeDiscord  # noqa: E402

from engine import get_game  # noqa: E402

SEATS = {"thunder_road": 4, "automobile": 3, "armor_clash": 2, "city_of_fury": 1}


def handoffs(table: Table, gid: int) -> int:
    """Replay the table's log and count the saved actions that bring a new human seat to act."""
    row = table.sql("SELECT game, options_json, seed FROM games WHERE id=?", gid)[0]
    game = get_game(row[0])
    import json

    seats = [s for s, _ in table.sql("SELECT seat, user_id FROM seats WHERE game_id=? ORDER BY rowid", gid)]
    humans = {s for s, u in table.seat_user(gid).items() if u is not None}
    state = game.new(seats, json.loads(row[1] or "{}"), row[2])
    before = {s for s in game.to_act(state) if s in humans}
    n = 0
    for seat, action in table.sql("SELECT seat, action_json FROM actions WHERE game_id=? ORDER BY id", gid):
        state, _ = game.apply(state, seat, game.parse_action(json.loads(action)))
        after = {s for s in game.to_act(state) if s in humans}
        if after - before:
            n += 1
        before = after
    return n


def live(msg, gid: int) -> bool:
    """Whether a message offers choices of table ``gid`` (action buttons or selects)."""
    return any(c.startswith((f"tg:a:{gid}:", f"tg:s:{gid}:")) for c in msg.custom_ids)


async def pick(table: Table, user, msg, gid: int, idx: int, version: int):
    """Click choice ``idx`` on ``msg`` whatever version its components were drawn for (a
    player clicks what they were sent); a panel that does not offer it (drawn for an
    earlier step): its first choice, as a player clicking an old panel would."""
    for cid in msg.custom_ids:
        parts = cid.split(":")
        if parts[:3] == ["tg", "a", str(gid)] and len(parts) > 4 and parts[4] == str(idx):
            return await table.fd.click(user, msg, cid)
    for cid in msg.custom_ids:
        if cid.startswith(f"tg:s:{gid}:"):
            if any(o["value"] == str(idx) for o in msg.component(cid).get("options", [])):
                return await table.fd.select(user, msg, cid, [str(idx)])
    first = next(c for c in msg.custom_ids if c.startswith((f"tg:a:{gid}:", f"tg:s:{gid}:")))
    if first.startswith("tg:s:"):
        return await table.fd.select(user, msg, first, [msg.component(first)["options"][0]["value"]])
    return await table.fd.click(user, msg, first)


async def play(game_id: str, seed: int) -> str:
    n = SEATS[game_id]
    with tempfile.TemporaryDirectory() as tmp:
        async with FakeDiscord(strict=True) as fd:
            table = Table(fd, Path(tmp) / "bot.db")
            users = [fd.add_user(900 + i, f"player{i}") for i in range(n)]
            await table.start()
            start = len(fd.messages())
            if n == 1:  # a solo game starts at once, without a lobby
                board = await table.wait_board(await fd.slash(users[0], "game new", {"game": game_id}))
                gid, lobby_end = table.sql("SELECT id FROM games ORDER BY id DESC LIMIT 1")[0][0], start
            else:
                gid, board = await table.open_table(users[0], game_id, users[1:])
                lobby_end = start + 1  # the lobby message itself
            game = get_game(game_id)
            seat_user = table.seat_user(gid)
            clicks: dict[int, int] = {}
            max_clicks = max_eph = stale = max_pings = 0
            seen_upto: dict[int, int] = {}  # member -> channel messages already counted for their pings
            out_of_date = "out of date"
            panels: dict[int, object] = {}
            opened: dict[int, int] = {}  # panels opened for a player's coming decision
            for _ in range(5000):
                row = table.row(gid)
                if row["status"] != "active":
                    break
                state = table.state(gid)
                seat = next(s for s in game.to_act(state) if seat_user[s] is not None)
                user = fd.users[seat_user[seat]]
                version = row["version"]
                idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
                mark = len(fd.messages())  # the channel before this decision's clicks
                panel = [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]
                if panel:
                    # everyone the board calls opens their private panel when it comes (as players
                    # do), and decides in it later: the others' decisions meanwhile must not stale it
                    for other in game.to_act(state):
                        uid = seat_user[other]
                        if uid is None or (panels.get(uid) is not None and live(panels[uid], gid)):
                            continue
                        ex = await fd.click(fd.users[uid], board, panel[0])
                        clicks[uid] = clicks.get(uid, 0) + 1
                        panels[uid] = await ex.wait(
                            lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel"
                        )
                        opened[uid] = opened.get(uid, 0) + 1
                eph = opened.pop(user.id, 0)
                mine = panels.get(user.id)
                # the newest message sent to that player that offers choices: a player clicks it
                target = mine if mine is not None and live(mine, gid) else board
                for _attempt in range(5):
                    ex = await pick(table, user, target, gid, idx, version)
                    clicks[user.id] = clicks.get(user.id, 0) + 1

                    def replied(e, v=version, target=target):
                        now = table.row(gid)["version"]
                        if now == v:  # refused: a private answer, or the panel redrawn in place
                            return any(m.ephemeral for m in e.followups) or bool(target.ephemeral and e.edits)
                        if table.new_board(e) or table.row(gid)["status"] != "active":
                            return True
                        if target.ephemeral:  # the private panel was edited: next step, or locked in
                            return bool(e.edits)
                        return e.edits and any(f":{gid}:{now}:" in c for c in target.custom_ids)

                    await ex.wait(replied, 30, "reply")
                    await ex.wait_idle(quiet=0.15, timeout=30)
                    eph += sum(1 for m in ex.followups if m.ephemeral)
                    stale += sum(1 for m in ex.messages if m.ephemeral and out_of_date in (m.content or ""))
                    fresh = [m for m in ex.messages if m.ephemeral and live(m, gid)]
                    if fresh:  # a new private panel came with the answer: the player's newest message
                        panels[user.id] = fresh[-1]
                    if table.row(gid)["version"] != version:
                        break
                    target = panels.get(user.id) or board  # refused: the player tries again where told
                else:
                    raise AssertionError(f"{game_id}: {seat}'s decision was refused five times")
                # the pings of this turn: since the player's previous decision, up to this one (the board
                # this decision posts belongs to their next turn: it may call them again, or end the game)
                channel = fd.messages()[:mark]
                pings = sum(
                    1 for m in channel[seen_upto.get(user.id, lobby_end) :] if not m.ephemeral and user.id in m.pinged
                )
                max_pings = max(max_pings, pings)
                seen_upto[user.id] = mark
                max_eph = max(max_eph, eph)
                max_clicks = max(max_clicks, clicks.pop(user.id))
                board = table.new_board(ex) or board
                if os.environ.get("FEEL_DEBUG"):
                    print(ex.describe(), file=sys.stderr)
            else:
                raise AssertionError(f"{game_id}: table {gid} still running")
            public = [m for m in fd.messages() if not m.ephemeral][lobby_end:]
            line = (
                f"feel {game_id} seats={n} max_clicks_per_decision={max_clicks} public_messages={len(public)} "
                f"handoffs={handoffs(table, gid)} ephemerals_per_decision={max_eph}"
                f" stale_answers={stale} pings_per_turn={max_pings}"
            )
            assert not fd.violations, fd.violations
            if os.environ.get("FEEL_DEBUG"):
                print(board.text, table.sql("SELECT COUNT(*) FROM actions WHERE game_id=?", gid), file=sys.stderr)
            await fd.stop(table.bot)
            return line


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", default=list(SEATS))
    parser.add_argument("--seed", type=int, default=None, help="(the table's seed is random; kept for symmetry)")
    args = parser.parse_args()
    for game_id in args.games:
        print(await play(game_id, args.seed or 0), flush=True)


if __name__ == "__main__":
    asyncio.run(main())
