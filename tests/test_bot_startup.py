"""Starting the bot with a bad configuration: one line on stderr, no secret, no
traceback, a non-zero exit, before anything is sent to Discord (bot.py run as a
process, as an admin runs it)."""

from __future__ import annotations

import asyncio
import os
import shutil
import socket
import struct
import subprocess
import sys
from pathlib import Path

import pytest

from bot import Config, loopback_base

ROOT = Path(__file__).resolve().parent.parent
SECRET = "s3cret-Pw"
TOKEN = "token-that-must-stay-home"


def _env(**values: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "TG_", "PG"))}
    env.update(DISCORD_TOKEN=TOKEN, PYTHONUNBUFFERED="1", **values)
    return env


async def start_bot(cwd: Path, prefix: tuple[str, ...] = (), **values: str) -> tuple[int, str]:
    """Run bot.py (its event loop stays free to serve a fake server); (exit code, stdout+stderr)."""
    proc = await asyncio.create_subprocess_exec(
        *prefix,
        sys.executable,
        str(ROOT / "bot.py"),
        cwd=cwd,
        env=_env(**values),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        out, err = await asyncio.wait_for(proc.communicate(), 90)
    except TimeoutError:
        proc.kill()
        raise
    assert proc.returncode is not None
    return proc.returncode, out.decode() + err.decode()


def one_line(code: int, text: str) -> str:
    lines = [line for line in text.splitlines() if line.strip()]
    assert code == 2 and len(lines) == 1, (code, text)
    assert lines[0].startswith("tabletop-gm: ") and "Traceback" not in text
    assert SECRET not in text and TOKEN not in text
    return lines[0]


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


# --------------------------------------------------------------- TG_DATABASE
@pytest.mark.parametrize(
    ("url", "said"),
    [
        (f"postgresql://tg:{SECRET}@127.0.0.1:notaport/db", "not a valid PostgreSQL URL"),
        (f"postgresql://tg:{SECRET}[x@127.0.0.1/db", "not a valid PostgreSQL URL"),
        (f"mysql://tg:{SECRET}@127.0.0.1/db", "unsupported database URL"),
        (f"postgres://tg:{SECRET}@127.0.0.1:{{port}}/db", "cannot connect to PostgreSQL at postgres://tg:***@"),
        (f"postgresql://127.0.0.1:{{port}}/db?user=tg&password={SECRET}", "password=***"),
    ],
)
async def test_a_bad_database_url_is_one_line_without_the_password(tmp_path, url, said):
    line = one_line(*await start_bot(tmp_path, TG_DATABASE=url.format(port=closed_port())))
    assert said in line, line


async def _refusing_postgres(seen: list[bytes]) -> asyncio.Server:
    """A PostgreSQL server that asks for a password and refuses it (SQLSTATE 28P01)."""

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            while True:
                size = struct.unpack("!I", await reader.readexactly(4))[0]
                body = await reader.readexactly(size - 4)
                if struct.unpack("!I", body[:4])[0] == 80877103:  # SSLRequest: not here
                    writer.write(b"N")
                    continue
                break
            writer.write(b"R" + struct.pack("!II", 8, 3))  # AuthenticationCleartextPassword
            await writer.drain()
            kind = await reader.readexactly(1)
            size = struct.unpack("!I", await reader.readexactly(4))[0]
            seen.append(kind + await reader.readexactly(size - 4))
            fields = b"".join(
                code + text.encode() + b"\0"
                for code, text in (
                    (b"S", "FATAL"),
                    (b"V", "FATAL"),
                    (b"C", "28P01"),
                    (b"M", 'password authentication failed for user "tg"'),
                )
            )
            writer.write(b"E" + struct.pack("!I", len(fields) + 5) + fields + b"\0")
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError):
            pass
        finally:
            writer.close()

    return await asyncio.start_server(serve, "127.0.0.1", 0)


async def test_a_wrong_password_is_one_line_without_the_password(tmp_path):
    seen: list[bytes] = []
    server = await _refusing_postgres(seen)
    port = server.sockets[0].getsockname()[1]
    async with server:
        code, text = await start_bot(tmp_path, TG_DATABASE=f"postgresql://tg:{SECRET}@127.0.0.1:{port}/db")
    line = one_line(code, text)
    assert "password authentication failed" in line and "tg:***@127.0.0.1" in line, line
    assert seen and SECRET.encode() in seen[0], "the server was really asked with the password"


async def test_a_missing_database_on_a_real_server_is_one_line(tmp_path, pg_database):
    base = pg_database.rsplit("/", 1)[0]
    line = one_line(*await start_bot(tmp_path, TG_DATABASE=f"{base}/no_such_database_here"))
    assert 'database "no_such_database_here" does not exist' in line, line


# ------------------------------------------------------------ SQLite's file
async def test_an_unwritable_path_is_one_line(tmp_path):
    (tmp_path / "plain-file").write_text("x")
    (tmp_path / "notadb.db").write_bytes(b"this is not a database, " * 200)
    for path, said in (
        (tmp_path / "plain-file" / "bot.db", "not a directory"),
        (tmp_path, "is a directory"),
        (tmp_path / "notadb.db", "not a database"),
    ):
        line = one_line(*await start_bot(tmp_path, TG_DATABASE=str(path)))
        assert f"cannot open the SQLite database {path}: " in line and said in line, line


def _read_only_mount(directory: Path) -> tuple[str, ...] | None:
    """A command prefix running its program with ``directory`` mounted read-only (a user
    and mount namespace of its own), or None where the system does not allow one."""
    unshare = shutil.which("unshare")
    if unshare is None:
        return None
    script = f'mount --bind "{directory}" "{directory}" && mount -o remount,bind,ro "{directory}" && exec "$@"'
    prefix = (unshare, "-rm", "sh", "-c", script, "sh")
    probe = subprocess.run([*prefix, "touch", str(directory / "probe")], capture_output=True, text=True)
    if probe.returncode == 0 or "Read-only file system" not in probe.stderr:
        return None
    return prefix


@pytest.mark.parametrize("existing", [False, True])
async def test_a_read_only_file_system_is_one_line(tmp_path, existing):
    data = tmp_path / "data"
    data.mkdir()
    if existing:
        import sqlite3

        sqlite3.connect(data / "bot.db").close()
    prefix = await asyncio.to_thread(_read_only_mount, data)
    if prefix is None:
        pytest.skip("this system cannot mount a read-only directory in a user namespace (unshare -rm)")
    line = one_line(*await start_bot(tmp_path, prefix, TG_DATABASE=str(data / "bot.db")))
    assert f"cannot open the SQLite database {data / 'bot.db'}: read-only file system" in line, line


# --------------------------------------------------------------- TG_API_BASE
@pytest.mark.parametrize(
    "base",
    ["http://127.0.0.1:8080", "http://127.3.2.1", "http://[::1]:5000/", "http://localhost:9", "https://LOCALHOST."],
)
def test_loopback_api_bases_are_accepted(base):
    assert loopback_base(base) == base
    assert Config.from_env({"TG_API_BASE": base}, None).api_base == base


@pytest.mark.parametrize(
    "base",
    [
        "http://discord.example",
        "http://10.0.0.1:8080",
        "http://0.0.0.0:80",
        "http://[::ffff:8.8.8.8]/",
        "http://127.0.0.1.evil.example/",
        "http://localhost.evil.example/",
        "ftp://127.0.0.1/",
        f"http://user:{SECRET}@127.0.0.1/",
        "not a url at all",
        "http://[::1",
    ],
)
async def test_any_other_api_base_is_refused_at_start_with_one_line(tmp_path, base):
    with pytest.raises(ValueError, match="TG_API_BASE"):
        loopback_base(base)
    line = one_line(*await start_bot(tmp_path, TG_API_BASE=base, TG_DATABASE=str(tmp_path / "bot.db")))
    assert "TG_API_BASE" in line and "refused" in line, line
    assert not (tmp_path / "bot.db").exists(), "refused before anything else"


async def test_a_loopback_api_base_is_used_with_a_warning(tmp_path):
    code, text = await start_bot(
        tmp_path, TG_API_BASE=f"http://127.0.0.1:{closed_port()}", TG_DATABASE=str(tmp_path / "bot.db")
    )
    assert code == 3 and "Cannot reach Discord" in text, text  # it did try the stand-in's address
    warned = [line for line in text.splitlines() if "WARNING" in line and "TG_API_BASE is set" in line]
    assert len(warned) == 1 and "not to Discord" in warned[0], text
