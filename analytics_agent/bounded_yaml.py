"""Check a YAML text is small enough to load before any loader builds it. Pure.

Files a user received from someone else (semantic files, question files) are YAML, and YAML can be made
hostile in few bytes: nested anchors ("billion laughs") expand 405 bytes into gigabytes once anything
walks the result, and 50,000 nested brackets overflow the recursive composer (``RecursionError``). This
check reads PyYAML's event stream, which is a loop, not recursion, and counts: the text's size, how deep
its collections nest, and how many nodes the document holds once every alias is expanded (an alias
counts the whole subtree it names). Over any bound it raises ``YamlTooLarge`` with a one-line reason.
"""

from __future__ import annotations

MAX_BYTES = 8 * 1024 * 1024
MAX_DEPTH = 64
MAX_NODES = 1_000_000
"""Nodes once aliases are expanded: a bundled question set holds about 2,000."""


class YamlTooLarge(ValueError):
    """The text is over one of the bounds; ``line`` is where that showed, when known."""

    def __init__(self, message: str, line: int | None = None) -> None:
        super().__init__(message)
        self.line = line


def check_yaml_bounds(
    text: str, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES
) -> None:
    """Raise ``YamlTooLarge`` if ``text`` is longer, deeper or (aliases expanded) larger than allowed;
    a YAML syntax error is left for the loader to report with its own line."""
    import yaml

    if len(text) > max_bytes:  # characters, at least as many bytes: checked before any parsing
        raise YamlTooLarge(f"the file is larger than {max_bytes // (1024 * 1024)} MB")
    sizes: list[int] = []  # open collections: nodes counted so far in each
    anchors: list[str | None] = []
    named: dict[str, int] = {}
    total = 0
    try:
        # libyaml when present: the pure-Python parser took 126 s over a 300,000-item list within the bounds
        for event in yaml.parse(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
            if isinstance(event, yaml.CollectionStartEvent):
                if len(sizes) >= max_depth:
                    mark = event.start_mark
                    raise YamlTooLarge(
                        f"collections nest deeper than {max_depth} levels", mark.line + 1 if mark else None
                    )
                sizes.append(1)
                anchors.append(event.anchor)
            elif isinstance(event, yaml.CollectionEndEvent):
                size = sizes.pop()
                anchor = anchors.pop()
                if anchor is not None:
                    named[anchor] = size
                total = _add(sizes, size, total, max_nodes, event)
            elif isinstance(event, yaml.ScalarEvent):
                if event.anchor is not None:
                    named[event.anchor] = 1
                total = _add(sizes, 1, total, max_nodes, event)
            elif isinstance(event, yaml.AliasEvent):
                total = _add(sizes, named.get(event.anchor or "", 1), total, max_nodes, event)
    except yaml.YAMLError as exc:
        if "maximum nesting depth" in str(getattr(exc, "problem", "")):  # libyaml's own limit, below ours
            mark = getattr(exc, "problem_mark", None)
            raise YamlTooLarge(
                f"collections nest deeper than {max_depth} levels", mark.line + 1 if mark else None
            ) from None
        return


def _add(sizes: list[int], size: int, total: int, max_nodes: int, event: object) -> int:
    if sizes:
        sizes[-1] += size
    else:
        total += size  # a top-level node: counted once, here
    if total > max_nodes or (sizes and sizes[-1] > max_nodes):
        mark = getattr(event, "start_mark", None)
        raise YamlTooLarge(
            f"the document expands to more than {max_nodes:,} values (anchors and aliases counted as "
            "copies); write the values out",
            mark.line + 1 if mark is not None else None,
        )
    return total


def read_bounded(path: object, max_bytes: int = MAX_BYTES) -> str:
    """A text file's content, read no further than ``max_bytes`` (a file over it raises YamlTooLarge
    without being read whole). OSError and UnicodeDecodeError pass through for the caller to word."""
    with open(path, "rb") as handle:  # type: ignore[call-overload]
        data = handle.read(max_bytes + 1)
    if len(data) > max_bytes:
        raise YamlTooLarge(f"the file is larger than {max_bytes // (1024 * 1024)} MB")
    return data.decode("utf-8")
