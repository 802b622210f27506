"""describe_table's view of a profile: every column's name and type, detail trimmed first, wide tables
paged; each page within the token budget."""

from __future__ import annotations

import pytest

from analytics_agent.tools.catalog.profile_view import fit_profile
from analytics_agent.tools.results.shaping import MAX_TOKENS, dumps, estimate_tokens


def profile(columns: int, *, values: int = 0) -> dict:
    cols = []
    for i in range(columns):
        column = {"name": f"column_number_{i}", "type": "VARCHAR" if i % 2 else "BIGINT", "nulls": i}
        column["min"], column["max"] = (f"2013-01-{i % 28 + 1:02d} 05:00:00+00", "2013-12-31 23:00:00+00")
        if values:
            column["values"] = [f"value {v} of {i}" for v in range(values)]
        cols.append(column)
    return {"table": "wide", "rows": 336_776, "columns": cols, "original_names": {"column_number_0": "Col 0"}}


@pytest.mark.parametrize(("columns", "values"), [(3, 5), (19, 0), (19, 30), (60, 50)])
def test_every_column_is_named_with_its_type_on_some_page_and_each_page_fits(columns, values):
    given = profile(columns, values=values)
    pages = fit_profile(given).get("pages", 1)
    seen = []
    for page in range(1, pages + 1):
        shown = fit_profile(given, page=page)
        assert estimate_tokens(dumps(shown)) <= MAX_TOKENS
        seen += [(c["name"], c["type"]) for c in shown["columns"]]
    assert seen == [(c["name"], c["type"]) for c in given["columns"]]


def test_values_go_before_ranges_and_ranges_before_null_counts():
    shown = fit_profile(profile(19, values=30))
    assert shown["omitted"][0] in ("values beyond 10", "values")
    if "min/max" in shown["omitted"]:
        assert "values" in shown["omitted"]
    if "nulls" in shown["omitted"]:
        assert "min/max" in shown["omitted"]
    small = fit_profile(profile(3, values=5))
    assert "omitted" not in small and small["columns"][0]["values"][:2] == ["value 0 of 0", "value 1 of 0"]
    assert small["columns"][0]["original"] == "Col 0"


def test_a_table_of_hundreds_of_columns_is_paged_without_losing_one():
    given = profile(400)
    first = fit_profile(given)
    assert first["pages"] > 1 and first["column_count"] == 400 and "page=2" in first["next"]
    seen = []
    for page in range(1, first["pages"] + 1):
        shown = fit_profile(given, page=page)
        assert estimate_tokens(dumps(shown)) <= MAX_TOKENS
        seen += [c["name"] for c in shown["columns"]]
    assert seen == [c["name"] for c in given["columns"]]
    with pytest.raises(ValueError, match=f"page {first['pages'] + 1} does not exist"):
        fit_profile(given, page=first["pages"] + 1)


def test_a_column_label_from_the_file_is_shown_beside_its_code():
    # a census table's B19013_001E means nothing to a model; the label line under its header says it
    given = profile(3)
    given["columns"][0]["label"] = "Estimate!!Median household income"
    shown = fit_profile(given)
    assert shown["columns"][0]["label"] == "Estimate!!Median household income"
    assert "label" not in shown["columns"][1]
