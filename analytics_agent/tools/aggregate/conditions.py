"""Parse a metric's condition, ``"arr_delay > 15 and origin in ('JFK', 'LGA')"``, into filter parts. Pure.

A conditional metric needs a filter of its own. A string costs a few tokens in every request where a
structured filter list would cost fifty, and the semantic file uses the same text. The grammar is tiny
and closed: ``name op value`` joined by ``and``; names are checked against the catalog later and values
are bound as parameters, exactly like ``filters`` entries, so nothing in the text ever reaches SQL.

    condition := term ("and" term)*
    term      := left ("=" | "!=" | "<>" | "<" | "<=" | ">" | ">=") (value | name)
               | name "like" value
               | name ["not"] "in" "(" value ("," value)* ")"
               | name "between" value "and" value
               | name "is" ["not"] "null"
    left      := name | ("days" | "hours" | "months" | "years") "(" name "-" name ")"
    name      := identifier ("." identifier)?   or a "double-quoted" name
    value     := 'text' | number | true | false

A name on the right (``dec > jan``) compares two columns of the same row; it is checked like the left one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from analytics_agent.errors import ToolError
from analytics_agent.suggest import did_you_mean
from analytics_agent.tools.aggregate.query_plan import SPAN_UNITS, span_text

_TOKEN = re.compile(
    r"\s*(?:(?P<str>'(?:[^']|'')*')|(?P<num>-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)"
    r"|(?P<op><=|>=|!=|<>|=|<|>|\(|\)|,|-)|(?P<qname>\"(?:[^\"]|\"\")+\"(?:\.\"(?:[^\"]|\"\")+\")?)"
    r"|(?P<word>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*){0,7}))"
)
_COMPARE = {"=", "!=", "<>", "<", "<=", ">", ">=", "like"}
_OPERATORS = ("=", "!=", "<", "<=", ">", ">=", "like", "in", "not in", "between", "is null", "is not null")
MAX_CONDITION = 500
_RESERVED = {"true", "false", "null", "and", "not", "in", "is", "between", "like"}


@dataclass(frozen=True)
class OtherColumn:
    """The right side of ``a > b``: a column name, not a value to bind."""

    name: str


@dataclass(frozen=True)
class Term:
    """One parsed comparison: ``op`` is one of aggregate's filter operators (``not_in`` added)."""

    column: str
    op: str
    value: Any = None


def parse_condition(text: str, *, where: str = "where") -> list[Term]:
    """The terms of ``text`` (ANDed), or a ToolError saying where it stopped making sense."""
    if not isinstance(text, str) or not text.strip():
        raise ToolError(f'{where}: empty condition; write e.g. "arr_delay > 15"')
    if len(text) > MAX_CONDITION:
        raise ToolError(f"{where}: condition longer than {MAX_CONDITION} characters")
    tokens = _tokens(text, where)
    parser = _Parser(tokens, text, where)
    terms = [parser.term()]
    while parser.peek_word("and"):
        parser.next()
        terms.append(parser.term())
    if parser.pos < len(tokens):
        parser.fail("expected 'and' or the end")
    return terms


def _tokens(text: str, where: str) -> list[tuple[str, Any]]:
    tokens: list[tuple[str, Any]] = []
    pos = 0
    while pos < len(text):
        if text[pos:].strip() == "":
            break
        match = _TOKEN.match(text, pos)
        if not match or match.end() == pos:
            bad = text[pos:].strip()[:20]
            raise ToolError(f"{where}: cannot read {bad!r} in {text!r}; values are 'text' or numbers")
        kind = match.lastgroup or ""
        raw = match.group(kind)
        if kind == "str":
            tokens.append(("value", raw[1:-1].replace("''", "'")))
        elif kind == "num":
            tokens.append(("value", float(raw) if any(c in raw for c in ".eE") else int(raw)))
        elif kind == "qname":
            tokens.append(("name", ".".join(p[1:-1].replace('""', '"') for p in _split_quoted(raw))))
        elif kind == "word":
            tokens.append(("word", raw))
        else:
            tokens.append(("op", raw))
        pos = match.end()
    return tokens


def _split_quoted(raw: str) -> list[str]:
    return re.findall(r'"(?:[^"]|"")+"', raw)


class _Parser:
    def __init__(self, tokens: list[tuple[str, Any]], text: str, where: str) -> None:
        self.tokens, self.text, self.where, self.pos = tokens, text, where, 0

    def fail(self, expected: str) -> None:
        got = self.tokens[self.pos][1] if self.pos < len(self.tokens) else "the end"
        raise ToolError(f"{self.where}: in {self.text!r}, {expected}, not {got!r}")

    def next(self) -> tuple[str, Any]:
        if self.pos >= len(self.tokens):
            raise ToolError(
                f'{self.where}: {self.text!r} stops early; a condition reads like "arr_delay > 15"'
            )
        token = self.tokens[self.pos]
        self.pos += 1
        return token

    def peek_word(self, word: str) -> bool:
        return (
            self.pos < len(self.tokens)
            and self.tokens[self.pos][0] == "word"
            and str(self.tokens[self.pos][1]).lower() == word
        )

    def expect_op(self, op: str) -> None:
        kind, value = self.next()
        if kind != "op" or value != op:
            self.pos -= 1
            self.fail(f"expected {op!r}")

    def value(self) -> Any:
        kind, value = self.next()
        if kind == "value":
            return value
        if kind == "word" and str(value).lower() in ("true", "false"):
            return str(value).lower() == "true"
        self.pos -= 1
        self.fail("expected a value ('text' in single quotes, or a number)")
        return None

    def other_column(self) -> OtherColumn | None:
        """A column name next, as the right side of a comparison (``true``/``false``/``null`` are values)."""
        if self.pos >= len(self.tokens):
            return None
        kind, name = self.tokens[self.pos]
        if kind == "name" or (kind == "word" and str(name).lower() not in _RESERVED):
            self.pos += 1
            return OtherColumn(str(name))
        return None

    def span(self, unit: str) -> str:
        """``days(ship_date - order_date)``, named canonically (``spans`` resolves it)."""
        self.expect_op("(")
        names = [self.name()]
        self.expect_op("-")
        names.append(self.name())
        self.expect_op(")")
        return span_text(unit, *names)

    def name(self) -> str:
        kind, name = self.next()
        if kind not in ("word", "name"):
            self.pos -= 1
            self.fail("expected a column name")
        return str(name)

    def term(self) -> Term:
        kind, column = self.next()
        if kind not in ("word", "name") or str(column).lower() in ("and", "not", "in", "is"):
            self.pos -= 1
            self.fail("expected a column name")
        if (
            kind == "word"
            and str(column).lower() in SPAN_UNITS
            and self.tokens[self.pos : self.pos + 1] == [("op", "(")]
        ):
            column = self.span(str(column).lower())
        kind, op = self.next()
        op = str(op).lower() if kind == "word" else op
        if op in _COMPARE:
            glued = self.tokens[self.pos] if self.pos < len(self.tokens) else None
            if kind == "op" and glued and glued[0] == "op" and glued[1] in _COMPARE:
                written = f"{op}{glued[1]}"  # '=>' and '==' come in as two operators
                raise ToolError(
                    f"{self.where}: in {self.text!r}, {written!r} is not an operator"
                    f"{did_you_mean(written, _OPERATORS)}; operators: {' '.join(_OPERATORS)}"
                )
            op = {"<>": "!="}.get(op, op)
            other = self.other_column() if op != "like" else None
            return Term(column, op, other if other is not None else self.value())
        if op == "is":
            negated = self.peek_word("not")
            if negated:
                self.next()
            if not self.peek_word("null"):
                self.fail("expected 'null' after 'is'")
            self.next()
            return Term(column, "not_null" if negated else "is_null")
        if op == "between":
            low = self.value()
            if not self.peek_word("and"):
                self.fail("expected 'and' in 'between low and high'")
            self.next()
            return Term(column, "between", [low, self.value()])
        negated = op == "not"
        if negated:
            if not self.peek_word("in"):
                self.fail("expected 'in' after 'not'")
            self.next()
        elif op != "in":
            if kind == "word":
                raise ToolError(
                    f"{self.where}: in {self.text!r}, {op!r} is not an operator"
                    f"{did_you_mean(str(op), _OPERATORS)}; operators: {' '.join(_OPERATORS)}"
                )
            self.pos -= 1
            self.fail(f"expected an operator ({' '.join(_OPERATORS)})")
        self.expect_op("(")
        values = [self.value()]
        while self.pos < len(self.tokens) and self.tokens[self.pos] == ("op", ","):
            self.next()
            values.append(self.value())
        self.expect_op(")")
        return Term(column, "not_in" if negated else "in", values)
