"""The access policy's YAML as a tree of nodes that know their line, so each mistake names it. Pure.

Only strings, lists of strings, mappings and booleans are meaningful in a policy; anything else is an
error at its line (``yaml.compose`` resolves each scalar's type without building Python objects).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

import yaml

from analytics_agent.errors import AccessPolicyError
from analytics_agent.suggest import did_you_mean

_BOOL = "tag:yaml.org,2002:bool"


@dataclass(frozen=True)
class Node:
    node: yaml.Node
    path: str

    @property
    def line(self) -> int:
        return int(self.node.start_mark.line) + 1

    def fail(self, message: str, node: yaml.Node | None = None) -> AccessPolicyError:
        line = int(node.start_mark.line) + 1 if node is not None else self.line
        return AccessPolicyError(message, path=self.path, line=line)

    def mapping(
        self, where: str, *, keys: Iterable[str] | None = None, allow_empty: bool = False
    ) -> dict[str, Node]:
        """The mapping's entries by key (strings only, each once, each one of ``keys`` when given)."""
        if allow_empty and self.node.tag == "tag:yaml.org,2002:null":
            return {}
        if not isinstance(self.node, yaml.MappingNode):
            raise self.fail(f"{where}: expected a mapping")
        known = tuple(keys) if keys is not None else None
        found: dict[str, Node] = {}
        for key_node, value_node in self.node.value:
            if not isinstance(key_node, yaml.ScalarNode):
                raise self.fail(f"{where}: keys are names", key_node)
            key = str(key_node.value)
            if key in found:
                raise self.fail(
                    f"{where}: {key!r} is given twice (first on line {found[key].line})", key_node
                )
            if known is not None and key not in known:
                raise self.fail(f"{where}: {unknown_key(key, known)}", key_node)
            found[key] = Node(value_node, self.path)
        return found

    def names(self, where: str) -> tuple[str, ...]:
        """A name or a list of names (globs)."""
        items = self.node.value if isinstance(self.node, yaml.SequenceNode) else [self.node]
        names = []
        for item in items:
            if not isinstance(item, yaml.ScalarNode) or not str(item.value).strip():
                raise self.fail(f"{where}: expected a name or a list of names", item)
            names.append(str(item.value).strip())
        return tuple(names)

    def flag(self, where: str) -> bool:
        if not isinstance(self.node, yaml.ScalarNode) or self.node.tag != _BOOL:
            raise self.fail(f"{where}: expected true or false")
        return str(self.node.value).lower() in ("true", "yes", "on")


def compose(text: str, path: str) -> Node | None:
    """The document's root node (None for an empty file), checked small enough to read first."""
    from analytics_agent.bounded_yaml import YamlTooLarge, check_yaml_bounds

    try:
        check_yaml_bounds(text)
    except YamlTooLarge as exc:
        raise AccessPolicyError(f"not loaded: {exc}", path=path, line=exc.line) from None
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise AccessPolicyError(
            f"not valid YAML: {problem}", path=path, line=mark.line + 1 if mark else None
        ) from None
    return None if root is None else Node(root, path)


def unknown_key(key: str, keys: Iterable[str]) -> str:
    keys = tuple(keys)
    return f"unknown key {key!r}{did_you_mean(key, keys)}; keys: {', '.join(keys)}"
