"""The facade (tables/service.py): every caller (cogs/, web/, bot.py, bench/) keeps
calling :class:`TableService` by the names and signatures it always had, and each
call reaches the module that owns it (tables/core/kernel.py and the feature modules).
The behaviour of each module is tested in its own file: tests/test_kernel.py,
test_lobby.py, test_turns.py, test_seats.py, test_votes.py, test_campaigns.py,
test_people.py, test_history.py, test_schedule.py, test_views.py, test_outbox.py."""

from __future__ import annotations

import inspect

from tablekit import AI, CRASH_TRIES, HOST, new_table

from tables import TableService, due_times

#: every public method of the facade and the feature (attribute of the service) that owns it
OWNERS = {
    "kernel": "row open_state load owed run_ai off_loop check",
    "history": "log_table finished_table export_data replay_state actions count_actions undos recent_actions last_ended",
    "seeing": "board frame public catchup log_words",
    "watch": "watch_tables stop_watching watch_table unwatch_table on_table_change",
    "lobbies": "open_table lobby limits check_can_open claim_thread release_thread lobby_posted to_thread expire_lobbies abandon",
    "campaigns": "create_campaign",
    "turns": "act timeout",
    "seats": "undo idle_minutes handover resign",
    "votes": "ballot vote",
    "schedule": "due claim_reminder release_reminder expiry_votes go_away come_back",
    "views": "choices numbered offer board_offer render bank_lines panel_token",
    "people": "mine follow unfollow close_to_followers follow_updates follow_sent footprint forget",
    "outbox": "delivered delivery_failed posted owed_now still_owed due_deliveries claim_delivery"
    " message_done message_failed due_messages claim_message",
    "community": "stats ratings campaign leaderboard opening_game campaign_by_id server_campaigns campaign_standings",
    "names": "note_name fill_names names_of",
    "settings": "server_settings",
    "web_sessions": "link_token redeem_link session_member sign_out",
    "calendar": "calendar_secret calendar_member calendar_deadlines",
    "notify": "notify_settings set_notify set_quiet_hours set_digest_hour reach",
    "privacy": "on_forget",
    "orders": "order_choices arm_order disarm_order my_orders orders_due",
}


def test_the_facade_keeps_every_name_and_signature_of_its_features(tmp_path):
    from store import SqliteStore

    service = TableService(SqliteStore(tmp_path / "x.db", due=due_times))
    # the verbs: the service's own and those of the layers' verb classes it is made of
    verbs = {n: v for cls in reversed(TableService.__mro__[:-1]) for n, v in vars(cls).items()}
    public = {n for n, v in verbs.items() if callable(v) and not n.startswith("_")} - {"stage"}
    owned = {m: f for f, ms in OWNERS.items() for m in ms.split()}
    assert public == set(owned), (
        f"a facade method without an owner, or an owner's method not on the facade: {public ^ set(owned)}"
    )
    for name, feature in owned.items():
        facade = inspect.signature(getattr(TableService, name))
        target = inspect.signature(getattr(getattr(service, feature), name))
        assert list(facade.parameters.values())[1:] == list(target.parameters.values()), name
        assert facade.return_annotation == target.return_annotation, name
        assert inspect.iscoroutinefunction(getattr(TableService, name)) == inspect.iscoroutinefunction(
            getattr(getattr(service, feature), name)
        ), name


async def test_the_facades_settings_are_the_kernels(store):
    """Callers set a service's knobs (bench/ its timings, tests its snapshot interval):
    they reach the kernel, which is what every feature reads."""
    service = TableService(store)
    service.snapshot_every, service.auto_forced, service.timings = 3, False, {}
    assert (service.kernel.snapshot_every, service.kernel.auto_forced, service.kernel.timings) == (3, False, {})
    assert service.store is store and service.seats.k is service.kernel is service.turns.k
    row = await new_table(store)
    await service.lobby(row.id, HOST, "start")
    loaded = await service.load(row.id)
    seat = loaded.game.to_act(loaded.state)[0]
    await service.act(row.id, loaded.row.user_of(seat), AI, seat=seat)
    assert set(service.timings) >= {"load", "apply", "save"}


def test_report_crash_figures():
    """Prints the crash-injection figures the table tests gathered in this process (for the issue note)."""
    for name, (tried, bad) in sorted(CRASH_TRIES.items()):
        print(f"{name}: tried={tried} partial_or_wrong={bad}")
