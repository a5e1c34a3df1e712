"""bot.bounded: the dict of bounded size every cache of the bot is."""

from __future__ import annotations

import pytest

from bot.bounded import Bounded


def _filled(size: int, *keys: str) -> Bounded[str, int]:
    kept: Bounded[str, int] = Bounded(size)
    for index, key in enumerate(keys):
        kept.put(key, index)
    return kept


def test_a_put_beyond_the_bound_drops_the_least_recently_used_in_order() -> None:
    kept = _filled(3, "a", "b", "c")
    kept.put("d", 3)
    assert list(kept) == ["b", "c", "d"]
    kept.put("e", 4)
    kept.put("f", 5)
    assert list(kept) == ["d", "e", "f"]
    assert kept.peek("a") is None and "c" not in kept
    assert len(kept) == 3


def test_a_get_makes_an_entry_the_most_recently_used() -> None:
    kept = _filled(3, "a", "b", "c")
    assert kept.get("a") == 0
    kept.put("d", 3)
    assert list(kept) == ["c", "a", "d"]  # b, not a, went
    assert kept.get("b") is None


def test_a_peek_and_in_leave_the_order_as_it_is() -> None:
    kept = _filled(3, "a", "b", "c")
    assert kept.peek("a") == 0
    assert "a" in kept
    kept.put("d", 3)
    assert list(kept) == ["b", "c", "d"]


def test_a_put_again_replaces_the_value_and_makes_it_the_most_recently_used() -> None:
    kept = _filled(3, "a", "b", "c")
    kept.put("a", 9)
    assert list(kept) == ["b", "c", "a"]
    kept.put("d", 3)
    assert list(kept) == ["c", "a", "d"]
    assert kept.peek("a") == 9
    assert len(kept) == 3


def test_pop_and_clear_drop_entries() -> None:
    kept = _filled(3, "a", "b", "c")
    assert kept.pop("b") == 1
    assert kept.pop("b") is None
    assert list(kept) == ["a", "c"]
    kept.clear()
    assert len(kept) == 0 and list(kept) == []


def test_a_bound_of_zero_keeps_nothing_and_of_one_the_last_put() -> None:
    none = _filled(0, "a", "b")
    assert len(none) == 0 and none.get("b") is None
    one = _filled(1, "a", "b")
    assert list(one) == ["b"] and one.get("b") == 1
    one.get("b")
    one.put("c", 2)
    assert list(one) == ["c"]


@pytest.mark.parametrize("size", [-1, 2.5, "3", None, True])
def test_a_bound_not_a_whole_number_from_zero_is_refused_quoting_it(size: object) -> None:
    with pytest.raises(ValueError, match="not " + repr(size).replace(".", r"\.")):
        Bounded(size)  # type: ignore[arg-type]


def test_weighed_entries_are_bounded_by_their_weights_sum() -> None:
    kept: Bounded[str, bytes] = Bounded(10, weigh=len)
    kept.put("a", b"1234")
    kept.put("b", b"123")
    kept.get("a")
    kept.put("c", b"1234")  # 11: b goes, a was read since
    assert list(kept) == ["a", "c"] and kept.weight == 8
    kept.put("a", b"12")  # replaced: its old weight no longer counts
    assert list(kept) == ["c", "a"] and kept.weight == 6
    kept.put("d", b"12345678901")  # heavier than the bound: not kept, nothing dropped
    assert list(kept) == ["c", "a"] and kept.weight == 6
    kept.put("e", b"12345678")  # 14: c goes, then 10 is within
    assert list(kept) == ["a", "e"] and kept.weight == 10
    assert kept.pop("e") == b"12345678" and kept.weight == 2
    kept.put("f", b"1")
    kept.clear()
    assert kept.weight == 0 and len(kept) == 0
