"""Notices: the short texts a change, a hand-over, a reminder or a timeout posts beside a board."""

from __future__ import annotations

from cogs.present.board_message import BoardMessages
from cogs.present.ui import (
    board_link,
    clip,
    public_prompt,
    seat_tag,
    where,
)
from engine.i18n import t
from store import GameRow
from tables import TurnRefused, TurnResult


class Notices(BoardMessages):
    """Wording notices."""

    # ------------------------------------------------------------ notes
    async def note_text(self, result: TurnResult, locale: str) -> str | None:
        """The notices a change owes the channel with its board (``TurnResult.notes``,
        recorded by the table service), worded in ``locale``; the members they are
        about are mentioned (and pinged with the board)."""
        lines = []
        for n in result.notes:
            kind, user = n.get("note"), n.get("user")
            if kind == "timeout":
                key = "core.ui.timed_out"
                if n.get("bank"):  # a time bank ran out
                    key = "asyncplay.expired_ai" if n.get("policy") == "ai" else "asyncplay.expired_default"
                seats = [(str(s), int(u)) for s, u in n.get("seats") or []]
                lines.append(await self.timeout_note(result, seats, key, locale))
            elif kind == "undone" and "agreed" in n:  # a passed vote: at whose request, who agreed, how much
                agreed = " ".join(f"<@{u}>" for u in n.get("agreed") or []) or "-"
                lines.append(t("play.vote.undone", locale, user=f"<@{user}>", agreed=agreed, steps=n.get("steps", 0)))
            elif kind == "undone":
                lines.append(t("core.ui.undone", locale, user=f"<@{user}>"))
            elif kind == "handover":
                lines.append(
                    await self.handover_note(result, str(n.get("seat")), n.get("to"), locale, n.get("previous"))
                )
            elif kind == "resigned":
                line = t("core.ui.resigned", locale, user=f"<@{user}>")
                lines.append(line + " " + t("core.ui.table_closed", locale) if n.get("closed") else line)
            elif kind == "abandoned":
                lines.append(t("core.ui.abandoned", locale, id=result.row.id, user=f"<@{user}>"))
        return clip("\n".join(lines), 1500) if lines else None

    async def handover_note(
        self, result: TurnResult, seat: str, to: int | None, locale: str, previous: int | None = None
    ) -> str:
        """ "🟦 Bob's seat in Thunder Road #12 now belongs to @Carol": the seat named by whoever
        held it before (``previous``; None: the AI), the new owner pinged."""
        import dataclasses

        row = result.row
        before = dataclasses.replace(
            row, seats=[dataclasses.replace(s, user_id=previous) if s.seat == seat else s for s in row.seats]
        )
        labels = await self.labels(before, locale)
        who = f"<@{to}>" if to else t("core.ui.ai", locale)
        at = where(result.row, result.game, None, locale, labels)
        return t("discord.ping.handed_over", locale, seat=seat_tag(before, labels, seat), who=who, where=at)

    # ------------------------------------------------------------ pings
    async def reminder_text(self, row: GameRow, users: list[int], hours: int) -> str:
        """ "@name, Thunder Road #12 (round 3) is waiting for you (5 h so far): move a car <link>"."""
        locale = await self.public_locale_of(row)
        try:
            loaded = await self.tables.load(row.id)
        except TurnRefused:
            return t("core.ui.reminder", locale, users=" ".join(f"<@{u}>" for u in users), id=row.id, hours=hours)
        labels = await self.labels(row, locale)
        at = where(row, loaded.game, loaded.state, locale, labels)
        lines = []
        for seat in loaded.game.to_act(loaded.state):
            uid = row.user_of(seat)
            if uid in users:
                what = public_prompt(loaded.game, loaded.state, seat, locale, labels)
                lines.append(
                    t(
                        "discord.ping.reminder",
                        locale,
                        user=f"<@{uid}>",
                        where=at,
                        hours=hours,
                        what=what,
                        link=board_link(row),
                    )
                )
        return clip("\n".join(lines), 2000)

    async def timeout_note(
        self, result: TurnResult, seats: list[tuple[str, int]], key: str = "", locale: str | None = None
    ) -> str:
        """ "⏰ Time ran out for @name in Thunder Road #12 ..." (``key``: a time bank's own wording)."""
        locale = locale or await self.public_locale_of(result.row)
        labels = await self.labels(result.row, locale)
        at = where(result.row, result.game, None, locale, labels)
        if key and key != "core.ui.timed_out":
            lines = [t(key, locale, user=f"<@{uid}>", seat=seat_tag(result.row, labels, seat)) for seat, uid in seats]
            return f"{at}: " + " ".join(lines)
        return " ".join(
            t("discord.ping.timed_out", locale, user=f"<@{uid}>", where=at, seat=seat_tag(result.row, labels, seat))
            for seat, uid in seats
        )
