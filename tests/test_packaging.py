"""A normal (not editable) install draws boards from any directory: the fonts, the migrations
and the starter pool of puzzles travel inside the package. ``pip install`` of a copy of the
checkout (the folder itself, where ``bot/assets`` is a link, and the sdist built from it, where
the fonts are files) into a fresh virtual environment, then ``python -m bot console`` there, away
from the repository."""

from __future__ import annotations

import argparse
import asyncio
import io
import shutil
import subprocess
import sys
import sysconfig
import tarfile
from pathlib import Path

import pytest

from bot.console import run_console

pytestmark = pytest.mark.slow

REPO = Path(__file__).resolve().parents[1]
LINES = ["alice: !challenge @bob 1", "bob: !accept"]
SEED = 5


def run(
    command: list[str], cwd: Path, env: dict[str, str] | None = None, stdin: str | None = None
) -> str:
    done = subprocess.run(
        command, cwd=cwd, env=env, input=stdin, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, f"{command} failed:\n{done.stdout}\n{done.stderr}"
    assert "Traceback" not in done.stderr, done.stderr
    return done.stdout


def copy_of_the_checkout(tmp_path: Path) -> Path:
    """What a build reads, copied (a build writes into its source folder)."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(REPO / name, source / name)
    no_caches = shutil.ignore_patterns("__pycache__", "*.pyc")
    # bot/assets stays the link to ../assets that it is in the repository.
    shutil.copytree(REPO / "bot", source / "bot", symlinks=True, ignore=no_caches)
    shutil.copytree(REPO / "assets", source / "assets", ignore=no_caches)
    return source


def build_sdist(source: Path) -> Path:
    hook = "from setuptools import build_meta; print(build_meta.build_sdist('dist'))"
    name = run([sys.executable, "-c", hook], cwd=source).strip().splitlines()[-1]
    return source / "dist" / name


def fresh_venv(tmp_path: Path) -> tuple[Path, Path]:
    """(python, site-packages) of a new virtual environment that finds this environment's
    packages (discord.py, Pillow, SQLAlchemy) after its own, without running this environment's
    .pth files, so an editable install of the checkout here stays invisible there."""
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    site = Path(
        run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            cwd=tmp_path,
        ).strip()
    )
    ours = {sysconfig.get_path("purelib"), sysconfig.get_path("platlib")}
    (site / "dependencies-of-the-test-runner.pth").write_text("\n".join(sorted(ours)) + "\n")
    return python, site


def board_from_the_checkout(tmp_path: Path) -> bytes:
    args = argparse.Namespace(
        db=str(tmp_path / "checkout.sqlite3"),
        seed=SEED,
        json=False,
        images=str(tmp_path / "checkout-images"),
    )
    assert asyncio.run(run_console(args, LINES, io.StringIO())) == 0
    (png,) = (tmp_path / "checkout-images").glob("*board.png")
    return png.read_bytes()


@pytest.mark.parametrize("what", ["folder", "sdist"])
def test_an_installed_copy_draws_a_board_from_another_directory(tmp_path: Path, what: str) -> None:
    target = copy_of_the_checkout(tmp_path)
    if what == "sdist":
        target = build_sdist(target)
        with tarfile.open(target) as archive:
            shipped = {Path(name).name for name in archive.getnames()}
        assert {
            "DejaVuSans.ttf",
            "unifont-subset.otf",
            "LICENSE-DejaVu.txt",
            "001_initial.sql",
            "puzzles.jsonl.gz",
        } <= shipped
    python, site = fresh_venv(tmp_path)
    run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--quiet",
            "--no-deps",
            "--no-build-isolation",
            "--no-index",
            str(target),
        ],
        cwd=tmp_path,
    )

    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    # PYTHONSAFEPATH: nothing from the working directory either, only the environment's packages.
    env = {
        "PATH": str(python.parent),
        "HOME": str(elsewhere),
        "LANG": "C.UTF-8",
        "PYTHONSAFEPATH": "1",
    }
    where = run([str(python), "-c", "import bot; print(bot.__file__)"], cwd=elsewhere, env=env)
    assert Path(where.strip()).is_relative_to(site), where
    pool = "from bot.gnubg.puzzles import starter_pool; print(len(starter_pool()))"
    assert run([str(python), "-c", pool], cwd=elsewhere, env=env).strip() == "1000"
    out = run(
        [str(python), "-m", "bot", "console", "--seed", str(SEED), "--images", "images"],
        cwd=elsewhere,
        env=env,
        stdin="\n".join(LINES) + "\n",
    )
    assert "bob accepts" in out, out
    (png,) = (elsewhere / "images").glob("*board.png")
    assert png.read_bytes() == board_from_the_checkout(tmp_path)
