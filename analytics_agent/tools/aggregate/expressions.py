"""Arithmetic in a metric, in our own small grammar: ``sum(life_exp * pop) / sum(pop)``,
``avg(arr_delay - dep_delay)``, ``count_distinct(name, year)``. Pure: text in, a tree out.

    expr    := term (("+" | "-") term)*
    term    := factor (("*" | "/") factor)*
    factor  := number | name | fn "(" [args] ")" | "(" expr ")" | "-" factor
    args    := "*" | expr ("," expr)*
    name    := identifier ("." identifier)?   or a "double-quoted" name
    fn      := one of aggregate's functions (count, sum, avg, ..., count_distinct)
    span    := ("days" | "hours" | "months" | "years") "(" name "-" name ")"   (a factor, see ``spans``)

Names are checked against the catalog and numbers are parsed into Python numbers before anything is
rendered; no text of the request reaches SQL. Rendering (``render``) divides with NULL for a zero divisor.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Union

from analytics_agent.errors import ToolError
from analytics_agent.suggest import did_you_mean
from analytics_agent.tools.aggregate.query_plan import SPAN_UNITS as UNITS

MAX_EXPRESSION = 300
_TOKEN = re.compile(
    r"\s*(?:(?P<num>\d+(?:\.\d+)?(?:[eE][-+]?\d+)?)|(?P<op>[-+*/(),])"
    r"|(?P<name>\"(?:[^\"]|\"\")+\"|[A-Za-z_]\w*(?:\.[A-Za-z_]\w*){0,7}))"
)


@dataclass(frozen=True)
class Num:
    value: int | float


@dataclass(frozen=True)
class Col:
    name: str


@dataclass(frozen=True)
class Neg:
    arg: Node


@dataclass(frozen=True)
class Bin:
    op: str
    left: Node
    right: Node


@dataclass(frozen=True)
class Agg:
    fn: str
    args: tuple[Node, ...]
    """Empty for ``count()`` / ``count(*)``."""


@dataclass(frozen=True)
class Span:
    """``days(ship_date - order_date)``: the time between two date columns, in a unit (``spans``)."""

    unit: str
    later: Col
    earlier: Col


Node = Union[Num, Col, Neg, Bin, Agg, Span]  # noqa: UP007 (a runtime alias the dataclasses above refer to)


def parse_expression(text: str, functions: tuple[str, ...], *, where: str) -> Node:
    if not isinstance(text, str) or not text.strip():
        raise ToolError(f"{where}: empty expression; write e.g. sum(price * quantity) / sum(quantity)")
    if len(text) > MAX_EXPRESSION:
        raise ToolError(f"{where}: expression longer than {MAX_EXPRESSION} characters")
    tokens: list[tuple[str, str]] = []
    pos = 0
    while pos < len(text):
        if not text[pos:].strip():
            break
        match = _TOKEN.match(text, pos)
        if not match:
            bad = text[pos:].strip()[:20]
            raise ToolError(
                f"{where}: cannot read {bad!r} in {text!r}; use column names, numbers, + - * / and ( )"
            )
        kind = match.lastgroup or ""
        tokens.append((kind, match.group(kind)))
        pos = match.end()
    parser = _Parser(tokens, text, where, functions)
    node = parser.expr()
    if parser.pos < len(tokens):
        parser.fail("an operator or the end")
    return node


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]], text: str, where: str, functions: tuple[str, ...]):
        self.tokens, self.text, self.where, self.functions, self.pos = tokens, text, where, functions, 0

    def fail(self, expected: str) -> None:
        got = repr(self.tokens[self.pos][1]) if self.pos < len(self.tokens) else "the end"
        raise ToolError(f"{self.where}: in {self.text!r}, expected {expected}, not {got}")

    def peek(self, value: str) -> bool:
        return self.pos < len(self.tokens) and self.tokens[self.pos] == ("op", value)

    def expect(self, value: str) -> None:
        if not self.peek(value):
            self.fail(repr(value))
        self.pos += 1

    def expr(self) -> Node:
        node = self.term()
        while self.peek("+") or self.peek("-"):
            op = self.tokens[self.pos][1]
            self.pos += 1
            node = Bin(op, node, self.term())
        return node

    def term(self) -> Node:
        node = self.factor()
        while self.peek("*") or self.peek("/"):
            op = self.tokens[self.pos][1]
            self.pos += 1
            node = Bin(op, node, self.factor())
        return node

    def factor(self) -> Node:
        if self.pos >= len(self.tokens):
            self.fail("a column, a number or (")
        kind, value = self.tokens[self.pos]
        self.pos += 1
        if kind == "num":
            return Num(float(value) if any(c in value for c in ".eE") else int(value))
        if kind == "op" and value == "-":
            return Neg(self.factor())
        if kind == "op" and value == "(":
            node = self.expr()
            self.expect(")")
            return node
        if kind == "name":
            if self.peek("(") and value.lower() in UNITS:
                return self.span(value.lower())
            if self.peek("("):
                return self.call(value)
            return Col(value[1:-1].replace('""', '"') if value.startswith('"') else value)
        self.pos -= 1
        self.fail("a column, a number or (")
        raise AssertionError  # fail raised

    def span(self, unit: str) -> Node:
        self.expect("(")
        later = self.factor()
        self.expect("-")
        earlier = self.factor()
        self.expect(")")
        if not isinstance(later, Col) or not isinstance(earlier, Col):
            raise ToolError(
                f"{self.where}: {unit}(a - b) takes two date columns, e.g. {unit}(ship_date - order_date)"
            )
        return Span(unit, later, earlier)

    def call(self, fn: str) -> Node:
        name = fn.lower()
        if name not in self.functions:
            raise ToolError(
                f"{self.where}: {fn!r} is not a function here{did_you_mean(fn, self.functions)}; "
                f"functions: {', '.join(self.functions)}"
            )
        self.expect("(")
        if self.peek(")") or self.peek("*"):
            if self.peek("*"):
                self.pos += 1
            self.expect(")")
            return Agg(name, ())
        args = [self.expr()]
        while self.peek(","):
            self.pos += 1
            args.append(self.expr())
        self.expect(")")
        return Agg(name, tuple(args))


def columns(node: Node) -> list[str]:
    """Every column name the expression reads, in order."""
    if isinstance(node, Col):
        return [node.name]
    if isinstance(node, Neg):
        return columns(node.arg)
    if isinstance(node, Bin):
        return columns(node.left) + columns(node.right)
    if isinstance(node, Agg):
        return [c for a in node.args for c in columns(a)]
    if isinstance(node, Span):
        return [node.later.name, node.earlier.name]
    return []


def render(node: Node, leaf: Callable[[Node], str]) -> str:
    """SQL for the arithmetic; ``leaf`` renders each column (or aggregate). Numbers come from parsed
    Python values; a division by zero is NULL."""
    if isinstance(node, Num):
        return repr(float(node.value)) if isinstance(node.value, float) else str(int(node.value))
    if isinstance(node, Neg):
        return f"(-{render(node.arg, leaf)})"
    if isinstance(node, Bin):
        left, right = render(node.left, leaf), render(node.right, leaf)
        if node.op == "/":
            return f"(CAST({left} AS DOUBLE) / nullif({right}, 0))"
        return f"({left} {node.op} {right})"
    return leaf(node)
