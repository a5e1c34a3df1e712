"""The command registry without Discord: usage lines made from the arguments, and the text
router's reading of arguments (the console's)."""

from __future__ import annotations

import pytest

from bot.service.commands.registry import COMMANDS
from bot.service.commands.schema import Argument, Command, Kind, read_arguments
from bot.service.matches.commands import MatchCommands
from bot.service.models import Refusal, User

BOB = User("bob", "bob")
USERS = {"@bob": BOB}.get

# As ``!help`` showed them before the registry made them from the arguments.
USAGE = {
    "challenge": "challenge @user [points|money]",
    "move": "move <play>",
    "resign": "resign [single|gammon|backgammon]",
    "stats": "stats [@user]",
    "show": "show <position>",
    "eval": "eval <position>",
    "help": "help [command]",
    "settings": "settings [language <code>]",
    "analysis": "analysis [match number]",
    "export": "export [match number]",
    "tournament": "tournament [create|join|start|...]",
    "review": "review [match [decision]|next|errors]",
    "drill": "drill [stats|answer]",
    "puzzle": "puzzle [rating|top|misses|storm|daily|answer]",
    "join": "join [tournament]",
    "leave": "leave [tournament]",
}


def test_usage_lines_are_made_from_the_arguments() -> None:
    for entry in COMMANDS:
        assert entry.usage == USAGE.get(entry.name, entry.name)
        assert entry.example.split()[0] == entry.name


def read(name: str, text: str) -> tuple[User | str | None, ...]:
    entry = COMMANDS.find(name)
    assert entry is not None
    return read_arguments(entry, text, USERS, "!", language="en")


def test_a_user_is_one_word_and_text_the_rest_of_the_line() -> None:
    assert read("challenge", " @bob  5  points ") == (BOB, "5  points")
    assert read("challenge", "@bob") == (BOB, None)
    assert read("stats", "@bob and more") == (BOB,)  # extra words are ignored, as by discord.py
    assert read("stats", "") == (None,)
    assert read("resign", "gammon please") == ("gammon please",)  # the handler judges it
    assert read("resign", "") == (None,)
    assert read("move", "") == ("",)  # the handler asks for the play
    assert read("roll", "now") == ()


@pytest.mark.parametrize(
    ("name", "text", "refusal"),
    [
        ("challenge", "", "Who do you challenge? e.g. `!challenge @bob 5`."),
        ("challenge", "nobody 5", "I don't know 'nobody': mention a user, e.g. `!challenge @bob`."),
        ("stats", "@zed", "I don't know '@zed': mention a user, e.g. `!stats @bob`."),
    ],
)
def test_a_user_it_cant_find_is_refused(name: str, text: str, refusal: str) -> None:
    with pytest.raises(Refusal) as caught:
        read(name, text)
    assert caught.value.text == refusal


def test_commands_are_found_by_name_or_alias_in_any_case() -> None:
    table = COMMANDS.adding(
        Command(
            "drink",
            example="drink",
            summary="x",
            aliases=("sip",),
            handler=MatchCommands.roll,
        )
    )
    assert table.find(" SIP ") is table.find("drink") is table.by_name["drink"]
    assert table.find("sip") is not None and COMMANDS.find("sip") is None
    assert "sip" in table.words and "sip" not in table.by_name


def test_an_argument_shows_its_placeholder() -> None:
    assert Argument("who", Kind.USER, "x", required=True).usage == "@user"
    assert Argument("level", Kind.CHOICE, "x", choices=("a", "b")).usage == "[a|b]"
    assert Argument("play", Kind.TEXT, "x", required=True, placeholder="p").usage == "<p>"
