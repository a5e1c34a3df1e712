"""How a statement object is bound again by the shape it had (:func:`bot.store.connections.bind`):
its values for the driver from each call's parameters, with none of SQLAlchemy's work."""

from __future__ import annotations

import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

Processor = Callable[[Any], Any]  # a value as the driver takes it (a column type's)
Slots = tuple[tuple[str | None, Processor | None, Any], ...]  # (name, processor, own value)
_Getter = Callable[[Mapping[str, Any]], tuple[Any, ...]]
P = TypeVar("P")  # what runs the statement (:class:`bot.store.connections.Plan`)


@dataclass(frozen=True, slots=True)
class Shape(Generic[P]):
    """How one statement object is bound for one set of parameter names: each value in the
    driver's order either a parameter's (by name, through its type's processor) or one of the
    statement's own (the same every time, already processed): the parameters' values got in one
    call (``given``), then those to process (by their place among them) processed and the
    statement's own put in (by their place among all)."""

    plan: P
    sql: str
    given: _Getter
    processed: tuple[tuple[int, Processor], ...]
    own: tuple[tuple[int, Any], ...]

    def values(self, one: Mapping[str, Any]) -> tuple[Any, ...]:
        values = self.given(one)
        if not self.processed and not self.own:
            return values
        out = list(values)
        for index, process in self.processed:
            out[index] = process(out[index])
        for index, value in self.own:
            out.insert(index, value)
        return tuple(out)


def shape_of(plan: P, sql: str, slots: Slots) -> Shape[P]:
    """The shape of a statement whose values are ``slots``, in the driver's order (a name None:
    the statement's own value)."""
    names = [name for name, _, _ in slots if name is not None]
    processed = tuple(
        (index, process)
        for index, (_, process) in enumerate((n, p) for n, p, _ in slots if n is not None)
        if process is not None
    )
    own = tuple((index, value) for index, (name, _, value) in enumerate(slots) if name is None)
    given: _Getter
    if len(names) == 1:  # (``itemgetter`` of one name gives the value alone)
        name = names[0]
        given = lambda one: (one[name],)  # noqa: E731
    elif names:
        given = cast(_Getter, operator.itemgetter(*names))
    else:
        given = lambda one: ()  # noqa: E731
    return Shape(plan, sql, given, processed, own)
