"""The installed package runs anywhere: the wheel carries the texts.

The wheel is built (from a copy of the sources, so the checkout gets no build
folders) and installed — not editable — into a fresh virtual environment that
borrows the already installed dependencies (a ``.pth`` line to this
environment's site-packages: nothing is downloaded). Then, from a folder that
is not the checkout, that copy renders a text, and ``python -m bot`` answers
/start with its welcome text, not with the key.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

from bot.store.redis.scripts import lua
from bot.words.i18n import Translator
from tests.bot.fake_bot_api import FakeBotAPI
from tests.bot.helpers.processes import ANNA, LONG, TOKEN, BotProcess, bot_env

ROOT = Path(__file__).resolve().parents[2]
SOURCES = ("pyproject.toml", "README.md", "engine", "bot", "locales")


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [str(a) for a in args],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, f"{args} failed:\n{done.stdout}\n{done.stderr}"
    return done.stdout


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The python of a fresh environment with the built wheel installed."""
    pytest.importorskip("setuptools", minversion="70.1")  # builds wheels by itself
    tmp = tmp_path_factory.mktemp("wheel")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        if (ROOT / name).is_dir():
            shutil.copytree(
                ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__", "*.pyc")
            )
        else:
            shutil.copy2(ROOT / name, src / name)
    dist = tmp / "dist"
    pip = (sys.executable, "-m", "pip", "--disable-pip-version-check")
    run(*pip, "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-w", dist, src, cwd=tmp)
    (wheel,) = dist.glob("smuta-*.whl")

    venv = tmp / "venv"
    run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp)
    python = venv / "bin" / "python"
    purelib = Path(
        run(
            python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp
        ).strip()
    )
    # the dependencies, from this environment (a plain path: its .pth files,
    # such as the checkout's editable install, stay unread)
    (purelib / "_smuta_test_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    run(*pip, "--python", python, "install", "--no-deps", "--no-index", wheel, cwd=tmp)
    return python


def clean_env() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}


def test_the_installed_wheel_renders_texts_from_another_folder(
    installed: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    probe = (
        "import bot, locales, engine\n"
        "from bot.words.i18n import Translator\n"
        "print(bot.__file__); print(locales.__file__); print(engine.__file__)\n"
        "print(Translator().t('ru', 'welcome').replace('\\n', ' '))\n"
        "print(Translator().t('en', 'card-lord'))\n"
        "from importlib.resources import files\n"
        "page = files('bot.webapp').joinpath('static')\n"
        "names = ('index.html', 'boot.js', 'app.js', 'app.css')\n"
        "print(all(page.joinpath(n).is_file() for n in names))\n"
        "from bot.store.redis.scripts import lua\n"
        "scripts = files('bot.store.redis').joinpath('lua')\n"
        "found = sorted(p.name for p in scripts.iterdir() if p.name.endswith('.lua'))\n"
        "print(found); print(''.join(lua(n.removesuffix('.lua')) for n in found), end='')\n"
    )
    out = run(installed, "-c", probe, cwd=elsewhere, env=clean_env()).splitlines()
    venv = installed.parent.parent
    for path in out[:3]:
        assert Path(path).is_relative_to(venv), f"{path} is not the installed copy"
    tr = Translator()
    assert out[3] == tr.t("ru", "welcome").replace("\n", " ") != "welcome"
    assert out[4] == tr.t("en", "card-lord") != "card-lord"
    assert out[5] == "True", "the Mini App's page is in the wheel"
    # the Redis store's Lua scripts, each loaded by name as the checkout loads it
    checkout = sorted(p.name for p in (ROOT / "bot" / "store" / "redis" / "lua").glob("*.lua"))
    assert "save.lua" in checkout and out[6] == str(checkout), "the Lua scripts are in the wheel"
    code = "".join(lua(name.removesuffix(".lua")) for name in checkout)
    assert "\n".join(out[7:]) == code.rstrip("\n"), "the installed scripts load as the checkout's"


async def test_python_m_bot_from_the_wheel_answers_with_texts_not_keys(
    installed: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    async with FakeBotAPI(TOKEN) as api:
        env = {**clean_env(), **bot_env(api.url, "", LONG)}
        for key in [k for k in env if k.startswith("PYTHONPATH")]:
            del env[key]
        env["PYTHONUNBUFFERED"] = "1"
        proc = BotProcess("installed bot", env, python=str(installed), cwd=elsewhere)
        await proc.start()
        try:
            await api.wait_for(lambda: api.arrived("getUpdates"), 120, "the bot to poll")
            api.say(ANNA["id"], ANNA, "/start")
            sent = await api.wait_for(
                lambda: [c for c in api.of("sendMessage") if c.params["chat_id"] == ANNA["id"]],
                60,
                "the welcome",
            )
            assert sent[0].params["text"] == Translator().t("ru", "welcome")
            assert await proc.stop(60) == 0
            assert "missing text" not in proc.output
        except BaseException:
            print(f"----- {proc.name} output -----\n{proc.output}\n")
            raise
        finally:
            if proc.alive():
                await proc.kill()
