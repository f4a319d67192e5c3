"""How a table feels to play: one scripted full game of each game through the
Discord stand-in (tests/fakediscord.py) with the real bot and discord.py
client, every seat a human member clicking the board's (or their private
panel's) components; the choices are the seat-filler AI's.

Prints exactly one line per game::

    feel <game_id> seats=<n> max_clicks_per_decision=<n> public_messages=<n> handoffs=<n> ephemerals_per_decision=<max> stale_answers=<n> pings_per_turn=<max>

* a *decision* is one saved choice of a player (one service call: a button or
  a select pick, which may be a chain of single steps, see tables/choices.py);
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
  every such answer is one a player would meet);
* ``pings_per_turn``: the most public messages that pinged one player between
  two of their decisions (a turn should ping its player once).

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
            for _ in range(5000):
                row = table.row(gid)
                if row["status"] != "active":
                    break
                state = table.state(gid)
                seat = next(s for s in game.to_act(state) if seat_user[s] is not None)
                user = fd.users[seat_user[seat]]
                version = row["version"]
                idx = table.choice_for(gid, seat, table.ai_index(gid, seat))
                eph = 0
                target = board
                mine = panels.get(user.id)
                if mine is not None and any(
                    c.startswith((f"tg:a:{gid}:{version}:", f"tg:s:{gid}:{version}:")) for c in mine.custom_ids
                ):
                    target = mine
                else:
                    panel = [c for c in board.custom_ids if c.startswith(f"tg:p:{gid}:")]
                    if panel:
                        ex = await fd.click(user, board, panel[0])
                        clicks[user.id] = clicks.get(user.id, 0) + 1
                        target = await ex.wait(
                            lambda e: next((m for m in e.messages if m.ephemeral and m.custom_ids), None), 20, "panel"
                        )
                        panels[user.id] = target
                        eph += 1
                ex = await table.choose(user, target, gid, idx, version)
                clicks[user.id] = clicks.get(user.id, 0) + 1

                def replied(e, v=version, target=target):
                    now = table.row(gid)["version"]
                    if now == v:
                        return False
                    if table.new_board(e) or table.row(gid)["status"] != "active":
                        return True
                    if target.ephemeral:  # the private panel was edited: next step, or locked in
                        return bool(e.edits)
                    return e.edits and any(f":{gid}:{now}:" in c for c in target.custom_ids)

                await ex.wait(replied, 30, "reply")
                await ex.wait_idle(quiet=0.15, timeout=30)
                eph += sum(1 for m in ex.followups if m.ephemeral)
                stale += sum(1 for m in ex.messages if m.ephemeral and out_of_date in (m.content or ""))
                channel = fd.messages()
                pings = sum(
                    1 for m in channel[seen_upto.get(user.id, lobby_end) :] if not m.ephemeral and user.id in m.pinged
                )
                max_pings = max(max_pings, pings)
                seen_upto[user.id] = len(channel)
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
