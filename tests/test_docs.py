"""The README and docs/*.md: every relative link and image reaches a file, every anchor a heading
of that file; the README stays a page for players and admins; the layout names every room."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
PAGES = [REPO / "README.md", *sorted((REPO / "docs").glob("*.md"))]
FENCE = re.compile(r"^```.*?^```", re.M | re.S)
INLINE_CODE = re.compile(r"`[^`\n]*`")
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} +(.+?) *#*$", re.M)


def prose(text: str) -> str:
    """The text without code, where a bracket is no link."""
    return INLINE_CODE.sub("", FENCE.sub("", text))


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    found: set[str] = set()
    for heading in HEADING.findall(FENCE.sub("", page.read_text())):
        base = slug(heading)
        name, n = base, 0
        while name in found:  # GitHub numbers a repeated heading's anchor
            n += 1
            name = f"{base}-{n}"
        found.add(name)
    return found


def links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(prose(page.read_text()))
        if not re.match(r"[a-z]+:", target)  # https:, mailto: lead out of the repository
    ]


def test_slug_is_githubs() -> None:
    assert slug("One database, many hosts (PostgreSQL)") == "one-database-many-hosts-postgresql"
    assert slug("GNU Backgammon: opponent, hints and analysis") == (
        "gnu-backgammon-opponent-hints-and-analysis"
    )
    assert slug("Reliability: what the tests break on purpose") == (
        "reliability-what-the-tests-break-on-purpose"
    )


def test_the_pages_have_links() -> None:
    # The check below must have something to check: the README links to every page of docs/.
    readme = {(REPO / target.split("#")[0]).resolve() for target in links(REPO / "README.md")}
    assert {page for page in PAGES if page.name != "README.md"} <= readme


@pytest.mark.parametrize("page", PAGES, ids=lambda page: page.name)
def test_every_relative_link_and_anchor_exists(page: Path) -> None:
    broken = []
    for target in links(page):
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        if not file.is_file():
            broken.append(f"{target}: no file {file.relative_to(REPO)}")
        elif anchor and file.suffix == ".md" and anchor not in anchors(file):
            broken.append(f"{target}: no heading #{anchor} in {file.name}")
    assert not broken, f"{page.name}: {broken}"


def test_the_readme_is_for_players_and_admins() -> None:
    readme = (REPO / "README.md").read_text()
    assert len(readme.encode()) < 20 * 1024, "operators' and developers' pages belong in docs/"
    # CI (.ci/run) runs the command the README gives; the two must not drift apart.
    assert "pip install -e '.[test]' && pytest\n" in readme
    for heading in ("Install and run", "Commands", "Setting up the bot in Discord", "Tests"):
        assert slug(heading) in anchors(REPO / "README.md")


def test_the_layout_names_every_room() -> None:
    layout = (REPO / "docs" / "layout.md").read_text()
    rooms = [
        package.parent.relative_to(REPO / "bot")
        for package in (REPO / "bot").rglob("__init__.py")
        if package.parent != REPO / "bot"
    ]
    assert rooms
    unnamed = [
        str(room)
        for room in rooms
        if f"`bot/{room}/`" not in layout and f"**`{room.name}/`**" not in layout
    ]
    assert not unnamed, f"docs/layout.md has no charter for {unnamed}"
