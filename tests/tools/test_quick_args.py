"""The quick argument check of ``.sql`` tools only accepts what the pydantic model accepts, with the same
values: whatever it settles, the model would have settled the same way; the rest goes to the model."""

from __future__ import annotations

import datetime as dt
from typing import Any

import duckdb
import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from analytics_agent.errors import ArgumentError
from analytics_agent.tools.args.models import arguments_model, parse_arguments
from analytics_agent.tools.args.quick import quick_values
from analytics_agent.tools.args.spec import ParamSpec
from analytics_agent.tools.sqlfile.parse import SqlToolSpec
from analytics_agent.tools.sqlfile.tool import SqlTool

PARAMS = (
    ParamSpec("day", "date", "Day."),
    ParamSpec("period", "period", "Days."),
    ParamSpec("city", "enum", "City.", choices=("Pune", "Delhi")),
    ParamSpec("top", "integer", "How many.", default=10, minimum=1, maximum=25),
    ParamSpec("share", "number", "A share.", default=None, minimum=0, maximum=1),
    ParamSpec("note", "string", "Free text.", default="none"),
    ParamSpec("code", "string", "A code.", default=None, max_length=5),
    ParamSpec("grain", "enum", "Grain.", default="month", choices=("day", "month")),
)
MODEL = arguments_model("probe", PARAMS)

texts = st.one_of(
    st.sampled_from(["2026-10-24", "2026-02-30", " 2026-10-24", "2026-1-24", "２０２６-10-24", "Pune", "month",
                     "2026-10-01..2026-10-31", "2026-10-31..2026-10-01", "2026-10-01 .. 2026-10-31", "\ud800",
                     "x" * 200, "x" * 201, "", "12345", "123456"]),
    st.text(max_size=12),
)  # fmt: skip
values = st.one_of(
    st.sampled_from(["Delhi", "day", "2026-01-31", "2026-01-01..2026-01-01", "abc"]),
    st.integers(0, 30),
    st.floats(-0.5, 1.5),
    texts,
    st.integers(-(2**60), 2**60),
    st.floats(),
    st.booleans(),
    st.none(),
    st.lists(st.integers(), max_size=2),
)
VALID = {"day": "2026-10-24", "period": "2026-10-01..2026-10-31", "city": "Pune"}
# a valid call with some arguments changed, added or left out, so both sides of the check are reached
arguments = st.builds(
    lambda changes, dropped: {k: v for k, v in {**VALID, **changes}.items() if k not in dropped},
    st.dictionaries(st.sampled_from([p.name for p in PARAMS] + ["extra"]), values, max_size=2),
    st.sets(st.sampled_from(list(VALID)), max_size=1),
)


days = st.dates(dt.date(1, 1, 1), dt.date(9999, 12, 31)).map(dt.date.isoformat)
# values at the edge of valid for each parameter: where a quick check that is too generous would show
near_valid = st.fixed_dictionaries(
    {
        "day": days,
        "period": st.tuples(days, days).map("..".join),
        "city": st.sampled_from(["Pune", "Delhi", "pune"]),
    },
    optional={
        "top": st.one_of(st.integers(-1, 27), st.floats(0, 26), st.booleans()),
        "share": st.one_of(
            st.integers(-1, 2), st.floats(-0.1, 1.1), st.sampled_from([float("nan"), 2**53 + 1])
        ),
        "note": st.text(min_size=195, max_size=205),
        "code": st.one_of(st.text(max_size=7), st.none()),
        "grain": st.sampled_from(["day", "month", "week", "Day"]),
    },
)


@settings(max_examples=600, deadline=None)
@given(st.one_of(arguments, near_valid))
def test_what_the_quick_check_settles_the_model_settles_the_same(data: dict[str, Any]) -> None:
    quick = quick_values(PARAMS, {}, data)
    event("settled quickly" if quick is not None else "left to the model")
    if quick is None:
        return  # the model decides, as it always did
    model = parse_arguments(MODEL, data)
    assert quick == (model.model_dump(), model.model_dump(mode="json"))


def test_plain_valid_arguments_are_settled_without_the_model() -> None:
    data = {
        "day": "2026-10-24",
        "period": "2026-10-01..2026-10-31",
        "city": "Pune",
        "share": 0.5,
        "code": None,
    }
    values, as_json = quick_values(PARAMS, {}, data) or ({}, {})
    assert values["day"] == dt.date(2026, 10, 24)
    assert values["period"] == (dt.date(2026, 10, 1), dt.date(2026, 10, 31))
    assert values["top"] == 10 and values["code"] is None and values["grain"] == "month"
    assert as_json["period"] == "2026-10-01..2026-10-31" and as_json["share"] == 0.5


@pytest.mark.parametrize(
    "data",
    [
        {"day": "2026-02-30", "period": "2026-10-01..2026-10-31", "city": "Pune"},  # not a real day
        {"day": "2026-10-24", "period": "2026-10-01..2026-10-31", "city": "Mumbai"},  # not a choice
        {"day": "2026-10-24", "period": "2026-10-01..2026-10-31", "city": "Pune", "top": 26},  # over max
        {"day": "2026-10-24", "period": "2026-10-01..2026-10-31", "city": "Pune", "top": True},  # strict int
        {"day": "2026-10-24", "period": "2026-10-01..2026-10-31", "city": "Pune", "colour": "red"},  # unknown
        {"period": "2026-10-01..2026-10-31", "city": "Pune"},  # a required one missing
    ],
)
def test_a_mistake_goes_to_the_model_for_its_message(data: dict[str, Any]) -> None:
    assert quick_values(PARAMS, {}, data) is None
    with pytest.raises(ArgumentError):
        parse_arguments(MODEL, data)


def test_a_sql_tool_call_with_plain_arguments_builds_no_model() -> None:
    """The point of the quick check: a plain call never builds the pydantic model (cached on first use)."""
    spec = SqlToolSpec(
        "probe",
        "A probe.",
        "SELECT $day AS day, $top AS top",
        params=PARAMS[:1] + PARAMS[3:4],
        returns="object",
    )
    tool = SqlTool(spec, {})
    prepared = tool.prepare({"day": "2026-10-24"})
    assert "arguments" not in tool.__dict__
    assert prepared.arguments == {"day": "2026-10-24", "top": 10}
    with duckdb.connect() as cursor:
        assert prepared.run(cursor).value == {"day": dt.date(2026, 10, 24), "top": 10}
    with pytest.raises(ArgumentError, match="top"):
        tool.prepare({"day": "2026-10-24", "top": 0})
    assert "arguments" in tool.__dict__  # the mistake went to the model
