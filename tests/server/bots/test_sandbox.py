"""--sandbox bwrap: what a bot can and cannot do, and a clear error when bwrap cannot run.

A probe program is started through the same launcher a match uses and reports
what it could do: open a network connection to the host, write outside its
scratch folder, write a file over the size limit, see other processes.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest
import trio

from server.bots.processes import ProcessPeer
from server.bots.sandbox import BotLimits, SandboxError, absolute_argv, bwrap_argv
from server.bots.seats import ProcessLauncher, Sandbox, SeatRequest
from tests.server.bots.test_hostile import bwrap_or_skip, no_leftovers  # noqa: F401 (an autouse fixture)
from tests.system_tools import need

ROOT = Path(__file__).resolve().parents[3]

PROBE = r"""
import json, os, socket, sys
port, outside = int(sys.argv[1]), sys.argv[2]
found = {"cwd": os.getcwd()}
try:
    socket.create_connection(("127.0.0.1", port), timeout=2).close()
    found["network"] = True
except OSError as exc:
    found["network"] = False
for name, path in (("outside", outside), ("scratch", "scratch.txt"), ("home", "/root/probe.txt")):
    try:
        with open(path, "w") as f:
            f.write("x")
        found[name] = True
    except OSError:
        found[name] = False
try:
    with open("big.bin", "wb") as f:
        f.write(b"\0" * (3 << 20))
    found["big_file"] = True
except OSError:
    found["big_file"] = False
found["processes"] = len([p for p in os.listdir("/proc") if p.isdigit()])
print(json.dumps(found), flush=True)
"""


async def probe(kind: str, tmp_path: Path) -> dict[str, Any]:
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    port = listener.getsockname()[1]
    outside = tmp_path / "escaped.txt"
    launcher = ProcessLauncher(Sandbox(BotLimits(memory_mb=512, cpu_seconds=10, file_mb=2), kind))
    request = SeatRequest(0, "probe", (sys.executable, "-c", PROBE, str(port), str(outside)),
                          0, 0, None)
    try:
        async with trio.open_nursery() as nursery:
            peer = await launcher.open(request, nursery)
            assert isinstance(peer, ProcessPeer)
            data = b""
            with trio.fail_after(20):
                while not data.endswith(b"\n"):
                    chunk = await peer.receive_some()
                    assert chunk, data
                    data += chunk
            await peer.close()
    finally:
        listener.close()
    found: dict[str, Any] = json.loads(data)
    found["outside_exists"] = outside.exists()
    return found


async def test_without_a_sandbox_the_probe_reaches_the_network(tmp_path: Path) -> None:
    """(So that the sandbox test below shows the sandbox, not a broken probe.)"""
    found = await probe("none", tmp_path)
    assert found["network"] and found["outside"] and found["scratch"]
    assert not found["big_file"]  # the file size limit holds everywhere
    assert "mahjong-bots-" in found["cwd"] and "hand001-seat0" in found["cwd"]


async def test_a_sandboxed_bot_has_no_network_and_writes_only_its_scratch(
        tmp_path: Path) -> None:
    bwrap_or_skip()
    found = await probe("bwrap", tmp_path)
    assert found["network"] is False
    assert found["outside"] is False and not found["outside_exists"]
    assert found["home"] is False
    assert found["scratch"] is True and found["cwd"] == "/tmp"
    assert found["big_file"] is False  # the scratch tmpfs is capped at the file limit
    assert found["processes"] <= 3  # its own PID namespace: bwrap and the bot


def test_missing_bwrap_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                        tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(SandboxError, match="bubblewrap is not installed"):
        Sandbox(kind="bwrap").check()


def test_bwrap_that_cannot_start_is_a_clear_error(monkeypatch: pytest.MonkeyPatch,
                                                  tmp_path: Path) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text("#!/bin/sh\necho 'bwrap: No permissions to creating new namespace' >&2\n"
                    "exit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    with pytest.raises(SandboxError, match="cannot start a sandbox here: bwrap: No perm"):
        Sandbox(kind="bwrap").check()


def test_match_command_refuses_a_sandbox_it_cannot_use(tmp_path: Path) -> None:
    bot = str(ROOT / "tests" / "bots" / "drawbot.py")
    env = {**os.environ, "PATH": str(tmp_path)}  # an empty folder: no bwrap on PATH
    done = subprocess.run([sys.executable, "-c", "from server.cli.app import main; main()", "match",
                           bot, bot, bot, bot, "--sandbox", "bwrap", "--groups", "1"],
                          cwd=ROOT, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2
    assert "bubblewrap is not installed" in done.stderr


@pytest.mark.parametrize(("status", "tail", "sandboxed", "detail"), [
    (-24, b"", False, "killed by SIGXCPU (cpu limit)"),
    (-25, b"", False, "killed by SIGXFSZ (file size limit)"),
    (-9, b"", False, "killed by SIGKILL (cpu hard limit, or killed from outside)"),
    (-11, b"", False, "killed by SIGSEGV"),
    (1, b"...\nMemoryError\n", False, "exit status 1 (memory limit)"),
    (1, b"OSError: [Errno 27] File too large\n", False, "exit status 1 (file size limit)"),
    (0, b"", False, "exit status 0"),
    (128 + 24, b"", True, "killed by SIGXCPU (cpu limit)"),  # bwrap's way to say it
    (None, b"", False, ""),
])
def test_exit_statuses_name_the_limit_that_stopped_the_bot(
        status: int | None, tail: bytes, sandboxed: bool, detail: str) -> None:
    from server.bots.sandbox import describe_exit

    assert describe_exit(status, tail, sandboxed) == detail


def test_an_unknown_sandbox_is_refused() -> None:
    with pytest.raises(SandboxError, match="must be one of none, bwrap"):
        Sandbox(kind="docker").check()



def test_a_program_under_tmp_is_bound_inside_the_private_tmp_and_nothing_beside_it() -> None:
    """The sandbox mounts its own /tmp; a program folder under /tmp is bound back
    read-only on top of it, its parents made 0755 (bwrap would make them 0700, which
    the bot's uid could not cross), and the folder beside it is not bound."""
    with tempfile.TemporaryDirectory(dir="/tmp") as folder:  # /tmp itself, whatever TMPDIR says
        program = Path(folder) / "mine"
        program.mkdir()
        (Path(folder) / "other").mkdir()
        bot = program / "bot.py"
        bot.write_text("print('join')\n")
        argv = bwrap_argv([sys.executable, str(bot)], BotLimits())
    tmpfs = argv.index("/tmp")
    bind = [i for i in range(len(argv) - 2) if argv[i:i + 3] == ["--ro-bind", str(program),
                                                                 str(program)]]
    assert bind and bind[0] > tmpfs  # mounted on top of the private /tmp
    made = argv.index(folder)
    assert argv[made - 3:made] == ["--perms", "0755", "--dir"] and made < bind[0]
    assert str(Path(folder) / "other") not in argv
    assert "/" not in [argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"]


def test_the_sandbox_binds_the_project_packages_never_the_repository_root() -> None:
    argv = bwrap_argv(["python3", str(ROOT / "sample_ai" / "greedy.py")], BotLimits())
    bound = {argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"}
    for package in ("protocol", "scoring", "sample_ai", "server", "rulesets"):
        assert str(ROOT / package) in bound
    assert str(ROOT) not in bound and str(ROOT / "tests") not in bound
    assert str(ROOT / "logs") not in " ".join(argv)
    program = argv[argv.index("--", argv.index("--die-with-parent") + 1) + 1:]
    if os.geteuid() == 0:  # root's identity is dropped by setpriv, then the bot runs
        program = program[program.index("--") + 1:]
    assert os.path.isabs(program[0])  # python3 looked up on the bot environment's PATH


def test_a_bot_another_table_registers_while_a_sweep_reads_proc_is_spared(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables in parallel: a stopping bot's sweep reads /proc in a thread while
    another table starts a bot. That bot is already in the scan (it has forked)
    but registered only afterwards; the sweep must ask who is alive after its
    scan, not before, or it kills the new bot as a stray."""
    from server.bots import sandbox

    sandbox.enable_subreaper()
    env = {k: v for k, v in os.environ.items() if k != "MAHJONG_BOT_ID"}
    newcomer = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"],
                                start_new_session=True, env=env)
    stopped = subprocess.Popen(["true"], start_new_session=True)
    stopped.wait()
    alive: frozenset[int] = frozenset()
    scan = sandbox.processes

    def scan_then_register() -> Any:
        nonlocal alive
        table = scan()
        alive = frozenset({newcomer.pid})  # the other table's start finishes now
        return table

    monkeypatch.setattr(sandbox, "processes", scan_then_register)
    try:
        found, _ = sandbox.sweep(stopped.pid, "stopped-bot",
                                 lambda: (alive, frozenset(), False))
        assert newcomer.pid not in found
        assert newcomer.poll() is None
    finally:
        newcomer.kill()
        newcomer.wait()


def test_a_relative_program_path_is_made_absolute_without_following_its_link(
        tmp_path: Path) -> None:
    """``.venv/bin/python bot.py``: the venv's python is a link to the system's, and
    followed it would run without the venv's packages."""
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "real-python").write_text("")
    (tmp_path / "venv" / "bin" / "python").symlink_to(tmp_path / "real-python")
    (tmp_path / "bot.py").write_text("")
    argv = absolute_argv(["venv/bin/python", "./bot.py", "-v", "missing.py"],
                         cwd=tmp_path)
    assert argv == [str(tmp_path / "venv" / "bin" / "python"), str(tmp_path / "bot.py"),
                    "-v", "missing.py"]


# --- the attacker's view: a real bot tries to reach what it must not ------------------------

SECRET_VARIABLE = "MAHJONG_TEST_SERVER_SECRET"
ALLOWED_ENVIRONMENT = {"PATH", "HOME", "TMPDIR", "LANG", "PWD", "MAHJONG_BOT_ID"}


def attack_targets(tmp_path: Path) -> dict[str, Any]:
    """A class's files as a teacher has them, all readable by everyone (so what stops
    the bot is the sandbox, not a file mode), and the bot's own program folder."""
    def put(path: Path, text: str) -> str:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return str(path)

    out = tmp_path / "out"
    targets = {
        "home": put(tmp_path / "home" / "teacher" / "notes.txt", "the teacher's notes"),
        "log": put(out / "matches" / "r01-t01" / "game.log", "the wall: W1 W2 W3"),
        "tokens": put(out / "handins" / "tokens.json", '{"alice": "token-of-alice"}'),
        "other_program": put(out / "programs" / "other" / "bot.py", "# another student"),
        "shadow": "/etc/shadow",
        "write_outside": str(out / "escaped.txt"),
        "secret_variable": SECRET_VARIABLE,
    }
    mine = tmp_path / "programs" / "mine"
    mine.mkdir(parents=True)
    (mine / "bot.py").write_bytes((ROOT / "tests" / "hostile" / "sandbox_escape.py").read_bytes())
    for folder in [tmp_path, *(p for p in tmp_path.rglob("*") if p.is_dir())]:
        folder.chmod(0o777 if folder == out else 0o755)
    return targets


def start_decoy() -> subprocess.Popen[bytes]:
    """A process for the bot to signal, in the test's own session: a stopped bot's
    sweep spares it (it kills adopted processes of other sessions), so only the bot's
    signal could end it."""
    return subprocess.Popen(["sleep", "30"])


async def attack(kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """Run the hostile bot once under ``kind``; what it reported on stderr."""
    targets = attack_targets(tmp_path)
    monkeypatch.setenv(SECRET_VARIABLE, "hunter2")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    decoy = start_decoy()
    targets.update(port=listener.getsockname()[1], decoy=decoy.pid)
    out = tmp_path / "out"
    hand = tmp_path / "hand"
    hand.mkdir()
    sandbox = Sandbox(BotLimits(memory_mb=512, cpu_seconds=10, file_mb=2), kind,
                      hide=(out, out / "handins", out / "programs"))
    request = SeatRequest(0, "escape", (sys.executable, str(tmp_path / "programs" / "mine" /
                                                             "bot.py")), 0, 0, hand)
    try:
        async with trio.open_nursery() as nursery:
            peer = await ProcessLauncher(sandbox).open(request, nursery)
            await peer.send((json.dumps(targets) + "\n").encode())
            data = b""
            with trio.fail_after(20):
                while not data.endswith(b"\n"):
                    chunk = await peer.receive_some()
                    assert chunk, (hand / "seat0.stderr").read_text()
                    data += chunk
            assert data == b"done\n"
            await peer.close()
        found: dict[str, Any] = json.loads((hand / "seat0.stderr").read_text())
        found["decoy_alive"] = decoy.poll() is None
    finally:
        listener.close()
        decoy.kill()
        decoy.wait()
    found["escaped"] = (out / "escaped.txt").exists()
    found["own_folder_written"] = (tmp_path / "programs" / "mine" / "written.txt").exists()
    return found


def reached(value: Any) -> bool:
    return not (isinstance(value, str) and value.startswith("refused: "))


async def test_without_the_sandbox_the_hostile_bot_reaches_everything(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The control: the same bot, the same targets, no sandbox. (As root it reads
    /etc/shadow too; as anyone else that one stays refused by its file mode.)"""
    found = await attack("none", tmp_path, monkeypatch)
    assert found["read_home"] == "the teacher's notes"
    assert found["read_log"] == "the wall: W1 W2 W3"
    assert found["read_tokens"] == '{"alice": "token-of-alice"}'
    assert found["read_other_program"] == "# another student"
    assert reached(found["read_shadow"]) == (os.geteuid() == 0)
    assert found["write_outside"] is True and found["escaped"]
    assert found["write_own_folder"] is True and found["own_folder_written"]
    assert found["connect"] is True
    assert found["see_process"] and found["signal_process"] is True
    assert not found["decoy_alive"]
    assert found["uid"] == os.getuid()
    assert found["secret_env"] is True


async def test_in_the_sandbox_the_hostile_bot_reaches_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bwrap_or_skip()
    found = await attack("bwrap", tmp_path, monkeypatch)
    for name in ("read_home", "read_log", "read_tokens", "read_other_program", "read_shadow",
                 "write_outside", "write_own_folder", "connect", "signal_process"):
        assert not reached(found[name]), (name, found[name])
    assert not found["escaped"] and not found["own_folder_written"]
    assert found["write_tmp"] is True  # its own private /tmp
    assert not found["see_process"] and found["decoy_alive"]
    assert max(found["processes"]) <= 3  # its own PID namespace: bwrap's init and the bot
    assert found["uid"] == 65534 and found["groups"] in ([], [65534])
    assert int(found["cap_eff"], 16) == 0
    if os.geteuid() == 0:
        assert int(found["cap_bnd"], 16) == 0
    assert found["secret_env"] is False  # neither its own nor any process's it can see
    assert set(found["environment"]) <= ALLOWED_ENVIRONMENT


def class_folder(tmp_path: Path) -> tuple[Path, Path]:
    """A bot beside its output folder; the bot lists its folder and the output folder."""
    tmp_path.chmod(0o755)
    out = tmp_path / "out"
    (out / "handins").mkdir(parents=True)
    (out / "handins" / "tokens.json").write_text("{}")
    (out / "handins").chmod(0o755)
    out.chmod(0o755)
    bot = tmp_path / "bot.py"
    bot.write_text("import os, sys\n"
                   "here = os.path.dirname(os.path.abspath(sys.argv[0]))\n"
                   "print(sorted(os.listdir(here)), os.listdir(os.path.join(here, 'out')), "
                   "flush=True)\n")
    return bot, out


async def test_a_hidden_output_folder_inside_the_bots_own_folder_is_masked(
        tmp_path: Path) -> None:
    """A program folder that holds the output folder (a teacher's class folder): the
    bot's folder is bound, the output folder inside it is an empty read-only mask."""
    bwrap_or_skip()
    bot, out = class_folder(tmp_path)
    sandbox = Sandbox(BotLimits(memory_mb=256, cpu_seconds=5, file_mb=1), "bwrap",
                      hide=(out, out / "handins", out / "programs"))
    request = SeatRequest(0, "peek", (sys.executable, str(bot)), 0, 0, None)
    async with trio.open_nursery() as nursery:
        peer = await ProcessLauncher(sandbox).open(request, nursery)
        data = b""
        with trio.fail_after(20):
            while not data.endswith(b"\n"):
                chunk = await peer.receive_some()
                assert chunk, data
                data += chunk
        await peer.close()
    assert data.decode().strip() == "['bot.py', 'out'] []"


# --- the sandbox cannot start here: why, and what to do -------------------------------------


def fake_bwrap(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, said: str) -> None:
    fake = tmp_path / "bwrap"
    fake.write_text(f"#!/bin/sh\necho '{said}' >&2\nexit 1\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")


def test_a_kernel_without_user_namespaces_is_named_with_the_sysctl_that_enables_them(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.bots import sandbox

    monkeypatch.setattr(sandbox, "_in_container", lambda: False)
    fake_bwrap(tmp_path, monkeypatch, "bwrap: No permissions to creating new namespace, "
               "likely because the kernel does not allow non-privileged user namespaces.")
    with pytest.raises(SandboxError) as caught:
        Sandbox(kind="bwrap").check()
    said = str(caught.value)
    assert "\n" not in said
    assert "cannot start a sandbox here: bwrap: No permissions to creating new namespace" in said
    assert "kernel.unprivileged_userns_clone=1" in said and "user.max_user_namespaces" in said
    assert "docker" not in said
    assert said.endswith("or use --sandbox none to run the bots' code as yourself (it can then "
                         "read and write whatever you can)")


def test_inside_a_container_the_error_names_the_containers_option(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.bots import sandbox

    monkeypatch.setattr(sandbox, "_in_container", lambda: True)
    fake_bwrap(tmp_path, monkeypatch, "bwrap: Creating new namespace failed: "
               "Operation not permitted")
    with pytest.raises(SandboxError, match=r"Operation not permitted; inside a container, "
                       r"start the container with namespaces allowed \(docker run "
                       r"--security-opt seccomp=unconfined.*--sandbox none"):
        Sandbox(kind="bwrap").check()


def test_without_setpriv_root_cannot_drop_its_identity_and_says_so(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from server.bots import sandbox

    bwrap_or_skip()
    if os.geteuid() != 0:
        pytest.skip("setpriv drops root's identity only: run as root")
    monkeypatch.setattr(sandbox, "SETPRIV", "/nonexistent/setpriv")
    with pytest.raises(SandboxError, match=r"install util-linux.*--sandbox none"):
        Sandbox(kind="bwrap").check()


def test_the_botzone_rulesets_refuse_a_sandbox_that_cannot_start_before_anything_plays(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from server.bots.botzone_bots import Bots
    from server.seam.contract import CommandArgs
    from server.seam.errors import InputError

    fake_bwrap(tmp_path, monkeypatch, "bwrap: setting up uid map: Permission denied")
    bot = f"{sys.executable} {ROOT / 'tests' / 'bots' / 'botzone' / 'discarder.py'} json 1"
    with pytest.raises(InputError, match=r"cannot start a sandbox here: bwrap: setting up uid "
                       r"map: Permission denied;.*--sandbox none"):
        Bots.from_args([bot] * 4, CommandArgs({"sandbox": "bwrap"}))


# --- Botzone and NOI 2014 bots in the sandbox ------------------------------------------------


def compile_data_bot(tmp_path: Path) -> Path:
    """A C++ Botzone bot that answers what its data/answer.txt says; its folder."""
    compiler = need("g++")
    program = tmp_path / "program"
    (program / "data").mkdir(parents=True)
    (program / "data" / "answer.txt").write_text("PASS\n")
    source = program / "bot.cpp"
    source.write_text(
        '#include <fstream>\n#include <iostream>\n#include <string>\n'
        'int main(int, char** argv) {\n'
        '  std::string all, line; while (std::getline(std::cin, line)) all += line;\n'
        '  std::string dir(argv[0]); dir = dir.substr(0, dir.rfind("/"));\n'
        '  std::ifstream data(dir + "/data/answer.txt"); std::string answer;\n'
        '  if (!std::getline(data, answer)) answer = "NO_DATA";\n'
        '  std::cout << "{\\"response\\": \\"" << answer << "\\"}" << std::endl; }\n')
    subprocess.run([compiler, "-O1", "-o", str(program / "bot"), str(source)], check=True,
                   timeout=120)
    for path in (tmp_path, program, program / "data"):
        path.chmod(0o755)
    return program


async def test_a_restarted_cpp_botzone_bot_and_its_data_folder_work_in_the_sandbox(
        tmp_path: Path) -> None:
    """A compiled bot restarted every turn, reading a data file beside it (a bot's
    own data folder is part of its program folder), with its output folder hidden."""
    from server.bots.botzone_bots import BotzoneLimits, open_botzone_bot, parse_spec

    bwrap_or_skip()
    program = compile_data_bot(tmp_path)
    limits = BotzoneLimits(base_seconds=2.0, factor=1, memory_mb=256)
    async with open_botzone_bot(parse_spec(f"json:{program / 'bot'}"), "seat0", limits,
                                sandbox="bwrap", hide=(tmp_path / "out",)) as bot:
        for request in ("0 0 1", "2 T5", "3 0 DRAW"):
            answer = await bot.ask(request)
            assert (answer.verdict, answer.response) == ("OK", "PASS"), answer
        assert bot.restarts == 3


def test_a_word_naming_the_root_folder_never_binds_the_whole_file_system() -> None:
    argv = bwrap_argv(["python3", str(ROOT / "sample_ai" / "greedy.py"), "/"], BotLimits())
    bound = [argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"]
    assert "/" not in bound


def test_an_interpreter_found_on_path_outside_the_system_is_bound_with_its_install(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``node bot.js`` with Node in /opt/node/bin: the bot needs /opt/node/lib too."""
    (tmp_path / "opt" / "node" / "bin").mkdir(parents=True)
    (tmp_path / "opt" / "node" / "lib").mkdir()
    node = tmp_path / "opt" / "node" / "bin" / "node"
    node.write_text("#!/bin/sh\n")
    node.chmod(0o755)
    monkeypatch.setenv("PATH", f"{node.parent}{os.pathsep}{os.environ['PATH']}")
    argv = bwrap_argv(["node", str(ROOT / "tests" / "bots" / "runtimes" / "bot.js")],
                      BotLimits())
    bound = [argv[i + 1] for i, word in enumerate(argv) if word == "--ro-bind"]
    assert str(tmp_path / "opt" / "node") in bound
    assert argv[-2:] == [str(node), str(ROOT / "tests" / "bots" / "runtimes" / "bot.js")]


def descendants(pid: int) -> dict[int, str]:
    """Every process under ``pid``: pid -> state."""
    from server.bots.sandbox import processes

    table = processes()
    found: dict[int, str] = {}
    parents = {pid}
    while True:
        new = {p: info[0] for p, info in table.items() if info[1] in parents and p not in found}
        if not new:
            return found
        found.update(new)
        parents = set(new)


async def test_a_kept_botzone_bot_in_the_sandbox_is_itself_stopped_between_turns() -> None:
    """SIGSTOP on bwrap's process group reaches the bot inside (not only bwrap): the
    bot shares bwrap's group (no ``--new-session``)."""
    from server.bots.botzone_bots import BotzoneLimits, open_botzone_bot, parse_spec

    bwrap_or_skip()
    discarder = ROOT / "tests" / "bots" / "botzone" / "discarder.py"
    spec = parse_spec(f"json+keep-running:{sys.executable} {discarder} json 100")
    limits = BotzoneLimits(base_seconds=2.0, factor=1, memory_mb=256)
    async with open_botzone_bot(spec, "seat0", limits, sandbox="bwrap") as bot:
        for request in ("0 0 1", "2 T5", "3 0 DRAW"):
            assert (await bot.ask(request)).verdict == "OK"
            assert bot._kept is not None
            inside = descendants(bot._kept.peer.process.pid)
            with trio.fail_after(5):
                while any(state not in "TZ" for state in inside.values()):
                    await trio.sleep(0.05)
                    inside = descendants(bot._kept.peer.process.pid)
            assert len(inside) >= 2  # bwrap's init and the bot itself
        assert bot.restarts == 1
