"""Check a YAML text is small enough to load before any loader builds it. Pure.

Files a user received from someone else (semantic files, question files) are YAML, and YAML can be made
hostile in few bytes: nested anchors ("billion laughs") expand 405 bytes into gigabytes once anything
walks the result, and 50,000 nested brackets overflow the recursive composer (``RecursionError``). This
check reads PyYAML's event stream, which is a loop, not recursion, and counts: the text's size, how deep
its collections nest, and how many nodes the document holds once every alias is expanded (an alias
counts the whole subtree it names, in values and in characters). Over any bound it raises ``YamlTooLarge`` with a one-line reason.
"""

from __future__ import annotations

from typing import Any

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 1_000_000
"""Nodes once aliases are expanded: a bundled question set holds about 2,000."""
MAX_EXPANDED_CHARS = 16 * 1024 * 1024
"""Characters of scalars once aliases are expanded: twice what a file without aliases can hold, so only
aliasing passes it (a 1 MB string aliased 450,000 times stayed under the value bound and took 5 GB)."""


class YamlTooLarge(ValueError):
    """The text is over one of the bounds; ``line`` is where that showed, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def check_yaml_bounds(
    text: str,
    *,
    max_bytes: int = MAX_BYTES,
    max_depth: int = MAX_DEPTH,
    max_nodes: int = MAX_NODES,
    max_expanded: int = MAX_EXPANDED_CHARS,
) -> None:
    """Raise ``YamlTooLarge`` if ``text`` is longer, deeper or (aliases expanded) larger than allowed,
    in values or in characters; a YAML syntax error is left for the loader to report with its own line."""
    import yaml

    if len(text) > max_bytes:  # characters, at least as many bytes: checked before any parsing
        raise YamlTooLarge(f"the file is larger than {max_bytes // (1024 * 1024)} MB")
    tally = _Tally(max_nodes, max_expanded)
    try:
        # libyaml when present: the pure-Python parser took 126 s over a 300,000-item list within the bounds
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, yaml.CollectionStartEvent):
                if len(tally.open) >= max_depth:
                    raise YamlTooLarge(f"collections nest deeper than {max_depth} levels", _line(event))
                tally.open.append((event.anchor, [1, 0]))
            elif isinstance(event, yaml.CollectionEndEvent):
                anchor, size = tally.open.pop()
                tally.add(anchor, size[0], size[1], event)
            elif isinstance(event, yaml.ScalarEvent):
                if len(event.value) > MAX_NUMBER_CHARS and event.implicit[0]:
                    _refuse_long_number(event)
                tally.add(event.anchor, 1, len(event.value), event)
            elif isinstance(event, yaml.AliasEvent):
                tally.add(None, *tally.named.get(event.anchor or "", (1, 0)), event)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(getattr(exc, "problem", "")):  # libyaml's own limit, below ours
            mark = getattr(exc, "problem_mark", None)
            raise YamlTooLarge(
                f"collections nest deeper than {max_depth} levels", mark.line + 1 if mark else None
            ) from None
        return


class _Tally:
    """Values and characters so far, per open collection and in the whole document, aliases counted as
    the copies a loader's reader walks (the loader shares one object, but every walk of the result, a
    dump, a hash, a prompt, goes through each copy)."""

    def __init__(self, max_nodes: int, max_expanded: int) -> None:
        self.max_nodes, self.max_expanded = max_nodes, max_expanded
        self.open: list[tuple[str | None, list[int]]] = []  # each open collection: anchor, [values, chars]
        self.named: dict[str, tuple[int, int]] = {}
        self.total = [0, 0]

    def add(self, anchor: str | None, nodes: int, chars: int, event: object) -> None:
        if anchor is not None:
            self.named[anchor] = (nodes, chars)
        into = self.open[-1][1] if self.open else self.total  # a top-level node is counted once, here
        into[0] += nodes
        into[1] += chars
        if into[0] > self.max_nodes or self.total[0] > self.max_nodes:
            raise YamlTooLarge(
                f"the document expands to more than {self.max_nodes:,} values (anchors and aliases "
                "counted as copies); write the values out",
                _line(event),
            )
        if into[1] > self.max_expanded or self.total[1] > self.max_expanded:
            raise YamlTooLarge(
                f"the document expands to more than {self.max_expanded // (1024 * 1024)} MB of text "
                "(anchors and aliases counted as copies); write the values out",
                _line(event),
            )


MAX_NUMBER_CHARS = 1000
"""A plain number longer than this is refused: Python turns at most 4,300 digits into an int, so an
``expect: [111…]`` of 5,000 digits ended ``eval``, and one in a semantic file every command, in
``internal error (ValueError)``."""


def _refuse_long_number(event: Any) -> None:
    import yaml

    tag = yaml.resolver.Resolver().resolve(yaml.ScalarNode, event.value, event.implicit)
    if tag in ("tag:yaml.org,2002:int", "tag:yaml.org,2002:float"):
        raise YamlTooLarge(
            f"a number is longer than {MAX_NUMBER_CHARS:,} characters; quote it if it is text", _line(event)
        )


def _line(event: object) -> int | None:
    mark = getattr(event, "start_mark", None)
    return mark.line + 1 if mark is not None else None


def read_bounded(path: object, max_bytes: int = MAX_BYTES) -> str:
    """A text file's content, read no further than ``max_bytes`` (a file over it raises YamlTooLarge
    without being read whole). OSError and UnicodeDecodeError pass through for the caller to word."""
    from analytics_agent.small_files import FileTooLarge, read_small

    try:  # a regular file only, opened without blocking: a FIFO hung eval and the team server
        data = read_small(path, max_bytes)  # type: ignore[arg-type]
    except FileTooLarge:
        raise YamlTooLarge(f"the file is larger than {max_bytes // (1024 * 1024)} MB") from None
    return data.decode("utf-8")
