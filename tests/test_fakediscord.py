"""Proves the Discord stand-in (tests/fakediscord.py) with a small discord.py bot defined here.

The bot below is deliberately not the project's: it only exercises what the project's
end-to-end tests will rely on (slash commands with subcommands and options, defer plus
followup with an embed and a PNG, ephemeral replies, autocomplete, persistent dynamic
buttons across a restart, selects, modals, channel messages, threads, spec validation).
"""

from __future__ import annotations

import asyncio
import gc
import io
import json
import re
import warnings

import aiohttp
import discord
import pytest
from discord import app_commands
from fakediscord import FakeDiscord, FakeTimeout, load_spec
from PIL import Image

GAMES = ["city_of_fury", "thunder_road", "automobile", "armor_clash"]


def _png(text: str) -> bytes:
    img = Image.new("RGB", (64, 32), (20, 30, 40))
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


class PlayButton(discord.ui.DynamicItem[discord.ui.Button], template=r"play:(?P<game>\d+):(?P<move>[a-z]+)"):
    """Persistent button: the custom_id carries the ids, the state lives elsewhere."""

    def __init__(self, game: int, move: str) -> None:
        super().__init__(
            discord.ui.Button(label=move, style=discord.ButtonStyle.primary, custom_id=f"play:{game}:{move}")
        )
        self.game, self.move = game, move

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button, match: re.Match[str]):
        return cls(int(match["game"]), match["move"])

    async def callback(self, interaction: discord.Interaction) -> None:
        interaction.client.clicks.append((interaction.client.generation, self.game, self.move, interaction.user.id))
        text = f"{interaction.user.name} played {self.move} in game {self.game}"
        if interaction.message is not None and interaction.message.flags.components_v2:
            # a Components V2 message has no content: its text lives in text displays
            view = discord.ui.LayoutView()
            view.add_item(discord.ui.TextDisplay(text))
            await interaction.response.edit_message(view=view)
        else:
            await interaction.response.edit_message(content=text)


class SkillSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"skill:(?P<game>\d+)"):
    def __init__(self, game: int) -> None:
        options = [discord.SelectOption(label=s.title(), value=s) for s in ("punch", "kick", "jump")]
        super().__init__(discord.ui.Select(custom_id=f"skill:{game}", options=options, placeholder="skill"))
        self.game = game

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select, match: re.Match[str]):
        return cls(int(match["game"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await interaction.response.defer(ephemeral=True, thinking=True)
        await interaction.followup.send(f"you chose {self.item.values[0]}")


class NameModal(discord.ui.Modal, title="Name your hero"):
    hero = discord.ui.TextInput(label="Hero", custom_id="hero_name", max_length=20)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"hero is {self.hero.value}", ephemeral=True)


class ZhTranslator(app_commands.Translator):
    async def translate(self, string: app_commands.locale_str, locale: discord.Locale, context) -> str | None:
        if locale is discord.Locale.chinese and string.message == "game":
            return "游戏"
        return None


class TinyBot(discord.Client):
    def __init__(self, generation: int = 1) -> None:
        super().__init__(intents=discord.Intents.default())
        self.generation = generation
        self.clicks: list[tuple] = []
        self.notes: dict[str, object] = {}
        self.tree = app_commands.CommandTree(self)
        game = app_commands.Group(name="game", description="Play a game")

        @game.command(name="new", description="Open a table")
        @app_commands.describe(name="which game", seats="number of seats")
        async def new(interaction: discord.Interaction, name: str, seats: app_commands.Range[int, 1, 4] = 1) -> None:
            await interaction.response.defer()
            view = discord.ui.View(timeout=None)
            view.add_item(PlayButton(7, "punch"))
            view.add_item(PlayButton(7, "kick"))
            view.add_item(SkillSelect(7))
            embed = discord.Embed(title=f"{name} for {seats}", description=f"locale {interaction.locale.value}")
            embed.set_image(url="attachment://board.png")
            await interaction.followup.send(
                embed=embed, file=discord.File(io.BytesIO(_png(name)), "board.png"), view=view
            )

        @new.autocomplete("name")
        async def new_name(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
            return [app_commands.Choice(name=g.replace("_", " "), value=g) for g in GAMES if current in g][:25]

        @game.command(name="secret", description="Only you can see this")
        async def secret(interaction: discord.Interaction) -> None:
            perms = interaction.permissions.manage_guild
            await interaction.response.send_message(
                f"secret for {interaction.user.name}, manage={perms}", ephemeral=True
            )

        @game.command(name="announce", description="Post in the channel and open a thread")
        async def announce(interaction: discord.Interaction, text: str) -> None:
            await interaction.response.send_message("announcing", ephemeral=True)
            msg = await interaction.channel.send(
                f"{text} <@{interaction.user.id}>", allowed_mentions=discord.AllowedMentions(users=True)
            )
            thread = await interaction.channel.create_thread(
                name=f"table {text}", type=discord.ChannelType.public_thread
            )
            await thread.send("table opened")
            await msg.edit(content=f"{text} (thread {thread.id})")

        @game.command(name="hero", description="Name your hero")
        async def hero(interaction: discord.Interaction) -> None:
            await interaction.response.send_modal(NameModal())

        @game.command(name="shout", description="Posts an embed with a title that is too long")
        async def shout(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(embed=discord.Embed(title="A" * 300))

        @game.command(name="broken", description="Raises")
        async def broken(interaction: discord.Interaction) -> None:
            raise RuntimeError("kaboom in the command")

        @game.command(name="twice", description="Answers twice")
        async def twice(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("one")
            try:
                await interaction.client.http.request(
                    discord.http.Route("POST", "/interactions/{i}/{t}/callback", i=interaction.id, t=interaction.token),
                    json={"type": 4, "data": {"content": "two"}},
                )
            except discord.HTTPException as exc:
                interaction.client.notes["second_ack_error"] = exc.code

        @game.command(name="slow", description="Acknowledges late")
        async def slow(interaction: discord.Interaction) -> None:
            await asyncio.sleep(0.05)
            try:
                await interaction.response.send_message("late")
            except discord.NotFound:
                interaction.client.notes["late"] = True

        @game.command(name="where", description="Where am I")
        async def where(interaction: discord.Interaction) -> None:
            await interaction.channel.add_user(interaction.user) if isinstance(
                interaction.channel, discord.Thread
            ) else None
            await interaction.response.send_message(f"{type(interaction.channel).__name__} {interaction.channel.id}")

        @game.command(name="inspect", description="Every option type")
        async def inspect(
            interaction: discord.Interaction,
            who: discord.Member,
            where: discord.TextChannel,
            role: discord.Role,
            file: discord.Attachment,
            ratio: float,
            flag: bool,
        ) -> None:
            data = await file.read()
            await interaction.response.send_message(
                f"{who.name}|{who.guild_permissions.manage_guild}|{where.name}|{role.name}|{file.filename}:{data.decode()}|{ratio}|{flag}"
            )

        @game.command(name="pick", description="A user select")
        async def pick(interaction: discord.Interaction) -> None:
            view = discord.ui.View()
            select = discord.ui.UserSelect(custom_id="pick_user", max_values=2)

            async def chosen(inner: discord.Interaction) -> None:
                await inner.response.send_message(",".join(sorted(u.name for u in select.values)))

            select.callback = chosen
            view.add_item(select)
            await interaction.response.send_message("pick someone", view=view)

        @game.command(name="dm", description="Whisper")
        async def dm(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            await interaction.user.send("psst")
            await interaction.followup.send("sent")

        @game.command(name="card", description="Initial response with a file")
        async def card(interaction: discord.Interaction) -> None:
            embed = discord.Embed(title="card").set_thumbnail(url="attachment://card.png")
            await interaction.response.send_message(
                embed=embed, file=discord.File(io.BytesIO(_png("card")), "card.png")
            )

        @game.command(name="open", description="Try to open a thread")
        async def open_(interaction: discord.Interaction) -> None:
            await interaction.response.defer(ephemeral=True)
            interaction.client.notes["pending"] = interaction
            try:
                await interaction.channel.create_thread(name="t", type=discord.ChannelType.public_thread)
            except discord.Forbidden as exc:
                await interaction.followup.send(
                    f"no thread ({exc.code}), app can: {interaction.app_permissions.create_public_threads}"
                )
            else:
                await interaction.followup.send("thread ok")

        @game.command(name="edits", description="Edits, followups, deletes")
        async def edits(interaction: discord.Interaction) -> None:
            await interaction.response.send_message("v1")
            await interaction.edit_original_response(
                content="v2", attachments=[discord.File(io.BytesIO(_png("v2")), "v2.png")]
            )
            kept = (await interaction.original_response()).attachments[0]
            await interaction.edit_original_response(attachments=[kept, discord.File(io.BytesIO(b"notes"), "v3.txt")])
            f1 = await interaction.followup.send("f1", ephemeral=True, wait=True)
            await f1.edit(content="f1b")
            f2 = await interaction.followup.send("f2", wait=True)
            await f2.delete()
            interaction.client.notes["orig"] = (await interaction.original_response()).content

        @game.command(name="later", description="Public defer, then 'ephemeral' followups")
        async def later(interaction: discord.Interaction) -> None:
            await interaction.response.defer()
            me = interaction.user.mention
            await interaction.followup.send(f"first {me}", ephemeral=True)
            await interaction.followup.send(f"second {me}", ephemeral=True)
            await interaction.followup.send(f"third {me}")

        @game.command(name="layout", description="Components v2 board")
        async def layout(interaction: discord.Interaction) -> None:
            view = discord.ui.LayoutView(timeout=None)
            row = discord.ui.ActionRow()
            row.add_item(PlayButton(9, "jump"))
            view.add_item(discord.ui.Container(discord.ui.TextDisplay("## Board"), row))
            await interaction.response.send_message(view=view)

        self.tree.add_command(game)

        @app_commands.command(name="admin", description="Managers only")
        @app_commands.default_permissions(manage_guild=True)
        async def admin(interaction: discord.Interaction) -> None:
            await interaction.response.send_message(
                f"admin ok in guild scope={interaction.command.guild_only}", ephemeral=True
            )

        self.tree.add_command(admin)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        pass  # discord.py sleeps 5 s before every re-IDENTIFY; not needed against FakeDiscord

    async def note(self, key: str, timeout: float = 2.0) -> object:
        for _ in range(int(timeout / 0.005)):
            if key in self.notes:
                return self.notes[key]
            await asyncio.sleep(0.005)
        raise AssertionError(f"the bot never noted {key!r}")

    async def setup_hook(self) -> None:
        await self.tree.set_translator(ZhTranslator())
        self.add_dynamic_items(PlayButton, SkillSelect)


async def test_login_ready_and_clean_stop():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async with FakeDiscord() as fd:
            bot = TinyBot()
            await fd.start(bot)
            assert bot.user.id == fd.bot_user_id == fd.application_id
            guild = bot.get_guild(fd.guild_id)
            assert guild is not None and guild.get_channel(fd.channel_id).name == "general"
            assert guild.me.guild_permissions.send_messages and guild.preferred_locale.value == "en-US"
            assert guild.get_role(fd.manager_role_id).permissions.manage_guild and guild.owner_id == fd.owner.id
            assert guild.get_member(fd.owner.id) is None  # no members intent: only the bot's own member
            assert [r.path for r in fd.requests][:2] == ["/users/@me", "/oauth2/applications/@me"]
            await fd.stop(bot)
            assert bot.is_closed()
        others = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        assert others == []
        gc.collect()
    assert [str(w.message) for w in caught if "nclosed" in str(w.message) or "never awaited" in str(w.message)] == []
    import discord.http as dh

    assert dh.Route.BASE == "https://discord.com/api/v10"


async def test_slash_subcommand_defer_followup_embed_png():
    async with FakeDiscord(strict=True) as fd:
        alice = fd.add_user(1001, "alice", locale="zh-CN")
        await fd.start(TinyBot(), sync=True)
        put = [r for r in fd.requests if r.method == "PUT"]
        assert put and put[0].path == f"/applications/{fd.application_id}/commands"
        assert put[0].route in (None, "/applications/{application_id}/commands")  # None without the spec

        ex = await fd.slash(alice, "游戏 new", {"name": "city_of_fury", "seats": 3})  # localised group name
        cb = await ex.wait_ack()
        assert cb.type == 5 and ex.ack_seconds < 3.0 and not ex.ephemeral
        msg = await ex.wait_response()
        assert msg is ex.original and not msg.loading  # first followup replaced the "thinking" message
        assert msg.embed["title"] == "city_of_fury for 3" and msg.embed["description"] == "locale zh-CN"
        png = msg.png()
        assert fd.attachment(msg.attachments[0]) == fd.attachment(msg.attachments[0]["url"]) == png
        assert Image.open(io.BytesIO(png)).size == (64, 32)
        assert msg.embed["image"]["url"] == msg.attachments[0]["url"]  # attachment:// resolved
        assert set(msg.custom_ids) == {"play:7:punch", "play:7:kick", "skill:7"}
        followup = [r for r in fd.requests if r.path.startswith("/webhooks/")][0]
        assert followup.files[0].filename == "board.png" and followup.files[0].data == png
        assert followup.json["attachments"][0]["filename"] == "board.png"
        # discord.py sends an integer placeholder id (the spec says string): normalised, not a violation
        assert followup.json["attachments"][0]["id"] == 0
        if load_spec()[0] is not None:
            assert fd.spec_status.startswith("validating")
            assert followup.route == "/webhooks/{webhook_id}/{webhook_token}"
            assert all(r.route for r in fd.requests), [r for r in fd.requests if not r.route]
        # the message is public and listed in the channel
        assert fd.messages() == [msg]

        with pytest.raises(ValueError, match="seats"):
            await fd.slash(alice, "game new", {"name": "x", "seats": 9})
        with pytest.raises(KeyError, match="no subcommand 'nope'"):
            await fd.slash(alice, "game nope")
        assert fd.violations == []


async def test_ephemeral_reply_and_manage_guild_flag():
    async with FakeDiscord(strict=True) as fd:
        bob = fd.add_user(1002, "bob")
        boss = fd.add_user(1003, "boss", manage_guild=True)
        await fd.start(TinyBot(), sync=True)
        ex = await fd.slash(bob, "game secret")
        msg = await ex.wait_response()
        assert ex.callback.type == 4 and ex.ephemeral and msg.flags & 64
        assert msg.content == "secret for bob, manage=False"
        assert fd.messages() == [] and fd.messages(ephemeral=True) == [msg]
        async with aiohttp.ClientSession() as s:  # ephemeral messages are not in the channel
            async with s.get(f"{fd.base_url}/api/v10/channels/{fd.channel_id}/messages/{msg.id}") as r:
                assert r.status == 404
        msg2 = await (await fd.slash(boss, "game secret")).wait_response()
        assert msg2.content == "secret for boss, manage=True"


async def test_autocomplete_returns_choices():
    async with FakeDiscord(strict=True) as fd:
        await fd.start(TinyBot(), sync=True)
        choices = await fd.autocomplete(fd.owner, "game new", {"name": "ro"}, focused="name")
        assert choices == [{"name": "thunder road", "value": "thunder_road"}]
        ac = [r for r in fd.requests if r.path.endswith("/callback")][-1]
        assert ac.json["type"] == 8


async def test_guild_commands_and_default_member_permissions():
    async with FakeDiscord(strict=True) as fd:
        pleb = fd.add_user(1011, "pleb")
        boss = fd.add_user(1012, "boss", manage_guild=True)
        bot = await fd.start(TinyBot())
        guild = discord.Object(fd.guild_id)
        bot.tree.copy_global_to(guild=guild)
        await bot.tree.sync(guild=guild)  # development-guild sync: PUT .../guilds/{id}/commands
        assert set(c["name"] for c in fd.commands[fd.guild_id].values()) == {"game", "admin"}
        ex = await fd.slash(boss, "admin")
        assert ex.payload["data"]["guild_id"] == str(fd.guild_id)
        assert (await ex.wait_response()).content.startswith("admin ok")
        with pytest.raises(PermissionError, match="default_member_permissions"):
            await fd.slash(pleb, "admin")
        ids = {c["name"]: c["id"] for c in fd.commands[fd.guild_id].values()}
        await bot.tree.sync(guild=guild)  # re-sync keeps the command ids, like Discord
        assert {c["name"]: c["id"] for c in fd.commands[fd.guild_id].values()} == ids


async def test_validation_can_be_absent_with_a_clear_status(tmp_path):
    async with FakeDiscord(spec_file=tmp_path / "missing.json") as fd:
        assert "skipped" in fd.spec_status and "missing.json" in fd.spec_status
        async with aiohttp.ClientSession() as s:
            async with s.post(
                f"{fd.base_url}/api/v10/channels/{fd.channel_id}/messages", json={"content": "hi", "tts": "x"}
            ) as r:
                assert r.status == 200
        assert fd.violations == [] and fd.messages()[0].content == "hi"


async def test_dynamic_button_survives_restart_and_select_and_modal():
    async with FakeDiscord(strict=True) as fd:
        carol = fd.add_user(1004, "carol")
        bot1 = await fd.start(TinyBot(generation=1), sync=True)
        board = await (await fd.slash(carol, "game new", {"name": "automobile"})).wait_response()
        await fd.stop(bot1)

        bot2 = await fd.start(TinyBot(generation=2))  # no sync: Discord keeps the commands
        click = await fd.click(carol, board, "play:7:kick")
        cb = await click.wait_ack()
        assert cb.type == 7 and bot2.clicks == [(2, 7, "kick", carol.id)] and bot1.clicks == []
        assert board.content == "carol played kick in game 7"
        assert [v["flags"] & 128 for v in board.versions] == [128, 0]  # loading, then the followup
        assert board.custom_ids  # components kept by the update

        # a client that had not refreshed clicks the board as it was before that edit
        stale = await fd.click(carol, board.versions[-1], "play:7:punch")
        await stale.wait_ack()
        assert stale.payload["message"]["content"] == "" and board.content == "carol played punch in game 7"
        # two clicks at once both reach the bot
        dave = fd.add_user(1010, "dave")
        both = await asyncio.gather(fd.click(carol, board, "play:7:kick"), fd.click(dave, board, "play:7:punch"))
        await asyncio.gather(*(ex.wait_ack() for ex in both))
        assert sorted(c[3] for c in bot2.clicks[-2:]) == [carol.id, dave.id]

        sel = await fd.select(carol, board, "skill:7", ["jump"])
        reply = await sel.wait_message(lambda m: m.ephemeral)
        assert sel.callback.type == 5 and reply.ephemeral and reply.content == "you chose jump"
        with pytest.raises(ValueError, match="not among options"):
            await fd.select(carol, board, "skill:7", ["fly"])
        with pytest.raises(KeyError, match="has no component"):
            await fd.click(carol, board, "play:8:kick")

        ask = await fd.slash(carol, "game hero")
        await ask.wait_ack()
        assert ask.modal["custom_id"] and ask.modal["title"] == "Name your hero"
        answer = await fd.submit_modal(carol, ask, {"hero_name": "Mei"})
        done = await answer.wait_response()
        assert done.content == "hero is Mei" and done.ephemeral


async def test_channel_message_and_thread():
    async with FakeDiscord(strict=True) as fd:
        dan = fd.add_user(1005, "dan")
        bot = await fd.start(TinyBot(), sync=True)
        ex = await fd.slash(dan, "game announce", {"text": "hello"})
        post = await fd.wait_message(predicate=lambda m: "thread" in m.content)
        assert post.content.startswith("hello (thread ") and post.versions[0]["content"] == f"hello <@{dan.id}>"
        assert post.mentions == [] and post.pinged == [dan.id]  # pinged when posted, the edit removed the mention
        await ex.wait_idle()
        assert len(fd.threads) == 1
        thread_id = int(fd.threads[0]["id"])
        assert [m.content for m in fd.messages(thread_id)] == ["table opened"]
        assert bot.get_channel(thread_id) is not None  # THREAD_CREATE reached the bot
        assert ex.ephemeral and ex.original.content == "announcing"
        assert fd.dm_channel(dan) is None
        assert (await (await fd.slash(dan, "game dm")).wait_response()).content == "sent"
        assert [m.content for m in fd.messages(fd.dm_channel(dan))] == ["psst"]
        if fd.spec_status.startswith("validating"):  # discord.py's integer recipient_id is accepted
            assert fd.int_snowflakes == [f"POST /users/@me/channels: $.recipient_id = {dan.id}"]
        here = await (await fd.slash(dan, "game where", channel=thread_id)).wait_response()
        assert here.content == f"Thread {thread_id}" and here.channel_id == thread_id
        assert fd.thread_members[thread_id] == {fd.bot_user_id, dan.id}
        assert [m.content for m in fd.messages(thread_id)] == ["table opened", here.content]


async def test_spec_violation_is_detected_and_strict_fails():
    if load_spec()[0] is None:
        pytest.skip(load_spec()[1])
    with pytest.raises(AssertionError, match=r"maxLength|too long"):
        async with FakeDiscord(strict=True) as fd:
            await fd.start(TinyBot(), sync=True)
            ex = await fd.slash(fd.owner, "game shout")
            await ex.wait_response()
            assert len(fd.violations) == 1
            assert "/interactions/{interaction_id}/{interaction_token}/callback" in fd.violations[0]
            assert "$.data.embeds[0].title" in fd.violations[0]


async def test_validation_of_raw_requests_and_unknown_routes():
    if load_spec()[0] is None:
        pytest.skip(load_spec()[1])
    async with FakeDiscord() as fd:
        async with aiohttp.ClientSession() as s:
            url = f"{fd.base_url}/api/v10/channels/{fd.channel_id}/messages"
            async with s.post(url, json={"content": 5}) as r:
                assert r.status == 200 and r.headers["Content-Type"] == "application/json"
            async with s.post(url, json={"content": "x" * 2001}) as r:
                assert r.status == 200
            fields = [{"name": "n" * 200, "value": "v" * 1000} for _ in range(5)]
            async with s.post(url, json={"embeds": [{"title": "t", "fields": fields}]}) as r:
                assert r.status == 200
            async with s.post(f"{fd.base_url}/api/v10/channels/{fd.channel_id}/nonsense", json={}) as r:
                assert r.status == 404
        assert any("$.content" in v for v in fd.violations)
        assert any("2001 characters" in v for v in fd.violations)
        assert any("6001 characters in total" in v for v in fd.violations)
        assert any("no such path" in v for v in fd.violations)
        assert [r.path for r in fd.unhandled] == [f"/channels/{fd.channel_id}/nonsense"]


async def test_timeouts_explain_what_happened_and_ack_rules():
    with pytest.raises(AssertionError, match=r"the bot logged errors:\n.*RuntimeError: kaboom"):
        await _timeouts_and_ack_rules()


async def _timeouts_and_ack_rules():
    async with FakeDiscord(fail_on_bot_errors=True) as fd:
        bot = await fd.start(TinyBot(), sync=True)
        ex = await fd.slash(fd.owner, "game broken")
        with pytest.raises(FakeTimeout) as info:
            await ex.wait_ack(timeout=0.3)
        text = str(info.value)
        assert "the initial interaction callback" in text and "kaboom in the command" in text

        twice = await fd.slash(fd.owner, "game twice")
        await twice.wait(lambda e: e.errors, timeout=2, what="the second ack to be refused")
        assert twice.errors[0][0] == 400 and await bot.note("second_ack_error") == 40060

        fd.ack_deadline = 0.01  # instead of Discord's 3 s, to keep the test fast
        slow = await fd.slash(fd.owner, "game slow")
        await slow.wait(lambda e: e.errors, timeout=2, what="late ack refused")
        assert slow.callback is None and await bot.note("late")
        assert json.dumps(fd.requests[-1].json)  # recorded


async def test_edits_followups_deletes_and_deferred_followup_flags():
    async with FakeDiscord(strict=True) as fd:
        bot = await fd.start(TinyBot(), sync=True)
        ex = await fd.slash(fd.owner, "game edits")
        assert await bot.note("orig") == "v2"
        assert ex.original.content == "v2" and ex.original.file("v2.png").startswith(b"\x89PNG")
        assert [a["filename"] for a in ex.original.attachments] == ["v2.png", "v3.txt"]
        assert (
            ex.original.file(1) == b"notes" and ex.original.versions[-1]["attachments"][0] == ex.original.attachments[0]
        )
        assert [m.content for m in ex.followups] == ["f1b", "f2"] and ex.followups[0].ephemeral
        assert ex.followups[1].deleted and ex.deleted == [ex.followups[1].id]
        with pytest.raises(KeyError, match="was deleted"):
            await fd.click(fd.owner, ex.followups[1], "anything")
        assert [m.content for m in fd.messages()] == ["v2"]
        assert len(ex.edits) == 3  # two edit_original_response calls and the followup edit

        card = await (await fd.slash(fd.owner, "game card")).wait_response()
        callback = [r for r in fd.requests if r.path.endswith("/callback")][-1]
        assert callback.files[0].filename == "card.png" and callback.json["type"] == 4
        assert card.png() == callback.files[0].data and card.embed["thumbnail"]["url"] == card.attachments[0]["url"]

        later = await fd.slash(fd.owner, "game later")
        await later.wait_followups(3)
        first, second, third = later.followups
        assert first is later.original and not first.ephemeral  # the defer decided: public
        assert second.ephemeral and second is not first
        owner = fd.owner.id
        assert first.mentions == second.mentions == third.mentions == [owner]
        assert (first.pinged, second.pinged, third.pinged) == ([], [], [owner])  # only a new public message pings


async def test_components_v2_nested_button_click():
    async with FakeDiscord(strict=True) as fd:
        erin = fd.add_user(1006, "erin")
        bot = await fd.start(TinyBot(), sync=True)
        board = await (await fd.slash(erin, "game layout")).wait_response()
        assert board.flags & (1 << 15) and board.custom_ids == ["play:9:jump"] and "## Board" in board.text
        click = await fd.click(erin, board, "play:9:jump")
        await click.wait_ack()
        assert bot.clicks == [(1, 9, "jump", erin.id)]
        assert (await click.wait_message()) is board and "erin played jump" in board.text
        assert board.flags & (1 << 15) and not board.content


async def test_components_v2_rules_are_discords():
    """Content or embeds with IS_COMPONENTS_V2, a V2 component without the flag,
    and removing the flag by an edit are refused with Discord's 400; mentions in
    text displays notify; a media gallery's attachment:// becomes the served URL."""
    async with FakeDiscord(strict=True) as fd:
        erin = fd.add_user(1006, "erin")
        await fd.start(TinyBot(), sync=True)
        cid = fd.channel_id
        async with aiohttp.ClientSession() as session:
            url = f"{fd.base_url}/api/v10/channels/{cid}/messages"
            auth = {"Authorization": "Bot test-token"}
            text = {"type": 10, "content": f"<@{erin.id}>, your turn"}
            bad = [
                {"flags": 1 << 15, "content": "x", "components": [text]},
                {"flags": 1 << 15, "embeds": [{"title": "x"}], "components": [text]},
                {"components": [text]},
            ]
            for body in bad:
                async with session.post(url, json=body, headers=auth) as r:
                    assert r.status == 400 and (await r.json())["code"] == 50035, body
            async with session.post(url, json={"flags": 1 << 15, "components": [text]}, headers=auth) as r:
                assert r.status == 200
                mid = (await r.json())["id"]
            async with session.patch(f"{url}/{mid}", json={"flags": 0, "content": "plain"}, headers=auth) as r:
                assert r.status == 400
        msg = fd.message(int(mid))
        assert msg.pinged == [erin.id] and "your turn" in msg.text


async def test_reconnect_resume_and_reidentify_keep_working():
    async with FakeDiscord(strict=True) as fd:
        bot = await fd.start(TinyBot(), sync=True)
        await fd.reconnect(resume=True)
        assert fd.resumes == 1 and fd.identifies == 1
        assert (await (await fd.slash(fd.owner, "game secret")).wait_response()).content.startswith("secret")
        await fd.reconnect(resume=False)
        assert fd.identifies == 2
        assert (await (await fd.slash(fd.owner, "game secret")).wait_response()).ephemeral
        assert bot.is_ready()


async def test_sharded_client_with_member_chunking_and_user_message():
    intents = discord.Intents.default()
    intents.members = True
    intents.message_content = True
    seen: list[str] = []
    async with FakeDiscord(strict=True) as fd:
        fd.add_user(1007, "fay")
        bot = discord.AutoShardedClient(intents=intents)

        @bot.event
        async def on_message(message: discord.Message) -> None:
            seen.append(f"{message.author.name}: {message.content}")

        await fd.start(bot)
        assert any(r.path == "/gateway/bot" for r in fd.requests)
        guild = bot.get_guild(fd.guild_id)
        assert guild.chunked and {m.name for m in guild.members} >= {"fay", "owner", "tabletop-gm"}
        await fd.say(1007, "hello bot")
        for _ in range(600):
            if seen:
                break
            await asyncio.sleep(0.005)
        assert seen == ["fay: hello bot"]
        fd.add_user(1008, "gus")  # GUILD_MEMBER_ADD reaches a bot with the members intent
        for _ in range(600):
            if guild.get_member(1008):
                break
            await asyncio.sleep(0.005)
        assert guild.get_member(1008).name == "gus"


async def test_every_option_type_and_user_select():
    async with FakeDiscord(strict=True) as fd:
        hal = fd.add_user(1020, "hal", manage_guild=True)
        ivy = fd.add_user(1021, "ivy")
        side = fd.add_channel("side")
        await fd.start(TinyBot(), sync=True)
        options = {
            "who": hal,
            "where": side,
            "role": fd.manager_role_id,
            "file": ("notes.txt", b"abc"),
            "ratio": 0.5,
            "flag": True,
        }
        msg = await (await fd.slash(ivy, "game inspect", options)).wait_response()
        assert msg.content == "hal|True|side|Managers|notes.txt:abc|0.5|True"
        with pytest.raises(ValueError, match="number option"):
            await fd.slash(ivy, "game inspect", dict(options, ratio="half"))
        with pytest.raises(ValueError, match="required option"):
            await fd.slash(ivy, "game inspect", {"who": hal})

        menu = await (await fd.slash(ivy, "game pick")).wait_response()
        chosen = await (await fd.select(ivy, menu, "pick_user", [hal, ivy.id])).wait_response()
        assert chosen.content == "hal,ivy"


async def test_bot_permissions_refusals_and_expired_tokens():
    async with FakeDiscord(strict=True) as fd:
        bot = await fd.start(TinyBot(), sync=True)
        fd.bot_permissions = discord.Permissions(fd.bot_permissions) & ~discord.Permissions(create_public_threads=True)
        ex = await fd.slash(fd.owner, "game open")
        assert (await ex.wait_response()).content == "no thread (50013), app can: False"
        assert fd.threads == [] and ex.ephemeral

        ex.expire()
        pending = await bot.note("pending")
        with pytest.raises(discord.HTTPException) as info:
            await pending.followup.send("too late")
        assert info.value.status == 401 and info.value.code == 50027
        assert ex.errors[-1][0] == 401 and len(ex.followups) == 1
