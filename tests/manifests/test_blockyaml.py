"""blockyaml reads block-style YAML exactly as the safe loader does, or steps aside.

Whatever it returns must equal PyYAML's safe loader as ksched types scalars
(``yamlio.FAST_LOADER``), value for value and type for type, with the repeated keys
``fastyaml`` reports; on anything else it raises ``Unsupported``.
"""

from __future__ import annotations

import contextlib
import os
import string
from pathlib import Path
from typing import Any

import pytest
import yaml
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from ksched_cli import blockyaml
from ksched_cli.goloader import FAST_LOADER
from ksched_cli.manifests import fastyaml
from ksched_cli.manifests.files import fastyaml_document
from ksched_cli.manifests.yamlscan import scan_events
from ksched_cli.yamlcore import Duplicate, Unsupported

SETTINGS = settings(
    max_examples=int(os.environ.get("BLOCKYAML_EXAMPLES", "200")),
    derandomize=True,
    deadline=None,
    database=None,
    phases=[Phase.explicit, Phase.generate],
    suppress_health_check=[HealthCheck.too_slow],
)


def typed(value: Any) -> Any:
    """``value`` with every scalar's type and every mapping's order made comparable."""
    if isinstance(value, dict):
        return ("dict", [(typed(k), typed(v)) for k, v in value.items()])
    if isinstance(value, list):
        return ("list", [typed(v) for v in value])
    return (type(value).__name__, value)


def oracle(text: str) -> tuple[Any, list[Duplicate]] | None:
    """The safe loader's documents and fastyaml's repeated keys; None for an error."""
    try:
        documents = list(yaml.load_all(text, Loader=FAST_LOADER))
    except yaml.YAMLError:
        return None
    found: list[Duplicate] = []
    try:
        fastyaml.load_all(text, found)
    except (Unsupported, yaml.YAMLError):
        found = list(scan_events(text))
    return typed(documents), found


def check(text: str) -> bool:
    """Whether blockyaml read ``text`` itself; asserts that what it returns is right."""
    found: list[Duplicate] = []
    try:
        documents = blockyaml.load_all(text, found, fastyaml_document)
    except Unsupported:
        assert found == []
        return False
    expected = oracle(text)
    assert expected is not None, "read a text the safe loader refuses"
    assert (typed(documents), found) == expected
    assert_unshared(documents)
    return True


def assert_unshared(value: Any, seen: set[int] | None = None) -> None:
    """No container twice in the result: each ``{}`` or ``[]`` read is a new object."""
    seen = set() if seen is None else seen
    if isinstance(value, (dict, list)):
        assert id(value) not in seen, f"{value!r} is shared"
        seen.add(id(value))
        for item in value.values() if isinstance(value, dict) else value:
            assert_unshared(item, seen)


@pytest.fixture
def fastyaml_texts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The texts blockyaml hands to fastyaml, recorded."""
    given_texts: list[str] = []
    load_all = fastyaml.load_all

    def spy(text: str, duplicates: list[Duplicate] | None = None) -> list[Any]:
        given_texts.append(text)
        return load_all(text, duplicates)

    monkeypatch.setattr(fastyaml, "load_all", spy)
    return given_texts


SAME = {
    "pod": """apiVersion: v1
kind: Pod
metadata:
  name: web-0   # a comment
  labels: {}
  annotations:
    "quoted/key": 'it''s'
    plain: "a: b # c"
spec:
  containers:
  - name: c
    args:
    - -Xmx1g
    - --flag=x
    resources:
      requests: {cpu: 100m}
""".replace("{cpu: 100m}", "\n        cpu: 100m"),
    "indented-sequences": "a:\n  - 1\n  -   b: 2\n      c: 3\n  - - x\n    - y\n  -\n    d: 4\n",
    "nulls": "a:\nb: ~\nc:\n  - \n  -\nd: # comment\ne: null\n",
    "types": "i: 12\nf: 1.5\nb: yes\nt: 2024-01-01\ns: '12'\nq: \"true\"\nn: -1\ne: ''\n",
    "json-keys": "1: a\ntrue: b\n1.5: c\n",
    "documents": "# c\n---\na: 1\n---\n---  # c\nb: [] \n---\n",
    "no-marker": "a: 1\n---\nb: 2\n",
    "blank-and-comment-lines": "\n# c\na:\n\n  # c\n  b: 1\n\nc: 2\n",
    "root-sequence": "- a\n- b: 1\n  c: 2\n",
    "indented-root": "  a: 1\n  b:\n  - 2\n",
    "duplicate-keys": "a:\n  b: 1\n  b: 2\nc:\n- x\n---\nd:\n- e: 1\n  e: 2\n",
    "unicode": "name: café ✓\n'ключ': значение\n",
    "hash-in-plain": "a: b#c\nd: e # f\ng: 'h' # i\n",
    "empty": "",
    "a-line-seen-in-an-item": "a:\n- name: c\nb:\n- image: x\n- name: c\n",
    "empty-last-item": "a:\n- 1\n-\n---\n- \n",
    "quoted-keys-with-colons": '"a: b": 1\n"a: c": 2\n\'a: b\': 3\n',
    "empty-collections-repeated": "a: {}\nb: {}\nc:\n- []\n- []\n",
    "sequence-ends-at-its-key-column": "a:\n- 1\nb:\n- c: 2\n  d: 3\ne: 4\n",
    "comments-only": "# a\n# b\n",
    "marker-only": "---\n",
}


@pytest.mark.parametrize("text", SAME.values(), ids=SAME.keys())
def test_reads_the_common_subset_itself(text: str, fastyaml_texts: list[str]) -> None:
    blockyaml.load_all(text, [], fastyaml_document)
    assert fastyaml_texts == []
    assert check(text)


STEPS_ASIDE = {
    "block-scalar": "a: |\n  x\n",
    "folded-plain": "a: one\n  two\n",
    "value-on-next-line": "a:\n  one\n",
    "flow-content": "a: {b: 1}\n",
    "anchor": "a: &x 1\nb: *x\n",
    "tag": "a: !!str 1\n",
    "escape": 'a: "x\\ty"\n',
    "quoted-over-lines": 'a: "x\n  y"\n',
    "tab": "a:\tb\n",
    "carriage-return": "a: 1\rb: 2\r\n",
    "bom": "\ufeffa: 1\n",
    "document-end": "a: 1\n...\n",
    "content-after-marker": "--- a\n",
    "merge-key": "a:\n  <<: {}\n",
    "complex-key": "? a\n: 1\n",
    "bad-indentation": "a:\n    b: 1\n  c: 2\n",
    "scalar-document": "hello\n",
    "mapping-in-scalar": "a: b: c\n",
    "value-ending-in-colon": "a: b:\n",
    "item-as-value": "a: - b\n",
    "dash-as-value": "a: -\n",
    "item-in-mapping": "a: 1\n- b\n",
    "nan": "a: .nan\n",
    "null-key": "~: 1\n",
}


@pytest.mark.parametrize("text", STEPS_ASIDE.values(), ids=STEPS_ASIDE.keys())
def test_steps_aside_from_the_rest(text: str, fastyaml_texts: list[str]) -> None:
    with contextlib.suppress(Unsupported):  # when fastyaml refuses it too
        blockyaml.load_all(text, [], fastyaml_document)
    assert fastyaml_texts == [text]
    check(text)


def test_a_line_of_many_items_goes_to_fastyaml(fastyaml_texts: list[str]) -> None:
    # Each item opened on a line slices the rest of it: past a few, fastyaml reads the
    # document in linear time.
    most = "- " * (blockyaml.MAX_ITEMS_ON_A_LINE + 1) + "x\n"  # 16 items opened inside the first
    blockyaml.load_all(most, [], fastyaml_document)
    assert fastyaml_texts == []
    assert check(most)
    fastyaml_texts.clear()
    blockyaml.load_all("- " + most, [], fastyaml_document)
    assert fastyaml_texts == ["- " + most]


def test_a_line_seen_before_does_not_settle_a_key_awaiting_its_value() -> None:
    # "b: 1" is known from the first document; in the second it follows "a:", and the
    # next, deeper line makes the text one PyYAML refuses.
    assert not check("b: 1\n---\na:\nb: 1\n  c: 2\n")


def test_a_document_it_does_not_read_goes_to_fastyaml_alone(fastyaml_texts: list[str]) -> None:
    text = "a: 1\na: 2\n---\nb: |\n  x\nb: 2\n---\nc: 3\nc: 4\n"
    found: list[Duplicate] = []
    assert blockyaml.load_all(text, found, fastyaml_document) == [{"a": 2}, {"b": 2}, {"c": 4}]
    assert fastyaml_texts == ["---\nb: |\n  x\nb: 2"]
    assert found == [Duplicate(0, "a", 2, 1), Duplicate(1, "b", 6, 1), Duplicate(2, "c", 9, 1)]


def test_an_error_in_one_document_makes_the_whole_text_unsupported() -> None:
    found: list[Duplicate] = []
    with pytest.raises(Unsupported):
        blockyaml.load_all("a: 1\na: 2\n---\nb: [\n", found, fastyaml_document)
    assert found == []  # the caller reads the whole text again, from nothing


def test_an_awkward_character_sends_only_its_document_aside(fastyaml_texts: list[str]) -> None:
    text = "a: 1\n---\nb:\tc\n---\nd: e\u2029\n---\nf: 2\n---\ng: h\x85\n"
    blockyaml.load_all(text, [], fastyaml_document)
    assert fastyaml_texts == ["---\nb:\tc", "---\nd: e\u2029", "---\ng: h\x85\n"]
    assert check(text)


def test_windows_line_breaks_are_read(fastyaml_texts: list[str]) -> None:
    text = "a: 1\r\nb:\r\n- 2\r\n---\r\nc: 3  \r\n"
    assert blockyaml.load_all(text, [], fastyaml_document) == [{"a": 1, "b": [2]}, {"c": 3}]
    assert fastyaml_texts == []
    assert check(text)


def test_a_directive_sends_the_whole_text_back(fastyaml_texts: list[str]) -> None:
    # Before its ---, a directive ends up in no document of its own: fastyaml refuses
    # the piece, and the caller reads the whole text again.
    with pytest.raises(Unsupported):
        blockyaml.load_all("a: 1\n%YAML 1.1\n---\nb: 2\n", [], fastyaml_document)
    assert fastyaml_texts == ["a: 1\n%YAML 1.1"]


# Texts as people and tools write them: PyYAML's dumper at several indents and widths
# (long strings fold over lines, so some documents go to fastyaml), and a writer of
# its own with indented sequences, compact items, comments and quoted keys.
KEYS = st.one_of(
    st.from_regex(r"[a-z][a-zA-Z0-9./_-]{0,12}", fullmatch=True),
    st.sampled_from(["1", "true", "null", "a b", "a:b", "#x", "-x", "'q'", "<<", "x #y", ""]),
)
SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**65), 2**65),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(string.printable.replace("\r", "").replace("\x0b", "").replace("\x0c", ""),
            max_size=12),
    st.text(max_size=6),
    st.sampled_from(["100m", "1Gi", "0o17", "1:30", "2001-12-14", "=", "~", "- a", "a: b",
                     "a #b", "{}", "[]", "'", '"', "-1", "y", "0x1F", ".5", "1e3"]),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(KEYS, inner, max_size=4),
    max_leaves=12,
)
DOCUMENTS = st.lists(st.dictionaries(KEYS, VALUES, max_size=5) | VALUES, min_size=1, max_size=3)
# Manifest-like documents, nearly all of which blockyaml reads itself.
PLAIN_KEYS = st.from_regex(r"[a-z][a-zA-Z0-9./_-]{0,12}", fullmatch=True)
PLAIN_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-(10**6), 10**6),
    st.from_regex(r"[a-z0-9][a-zA-Z0-9 ./:=_-]{0,15}", fullmatch=True),
    st.sampled_from(["100m", "1Gi", "registry.k8s.io/pause:3.9", "a b", "-1", "é", "{}", "[]"]),
)
MANIFESTS = st.lists(
    st.dictionaries(PLAIN_KEYS, st.recursive(
        PLAIN_SCALARS,
        lambda inner: st.lists(inner, max_size=3) | st.dictionaries(PLAIN_KEYS, inner, max_size=4),
        max_leaves=15,
    ), min_size=1, max_size=5),
    min_size=1, max_size=3,
)


@st.composite
def pyyaml_texts(draw: st.DrawFn) -> str:
    return yaml.safe_dump_all(
        draw(DOCUMENTS),
        default_flow_style=False,
        explicit_start=draw(st.booleans()),
        indent=draw(st.integers(2, 4)),
        width=draw(st.sampled_from([20, 80, 1000])),
        allow_unicode=draw(st.booleans()),
        sort_keys=False,
    )


def _scalar_text(value: Any) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000)
    return text.removesuffix("\n...\n").removesuffix("\n")


@st.composite
def written_texts(draw: st.DrawFn, documents: st.SearchStrategy[list[Any]] = DOCUMENTS) -> str:
    lines: list[str] = []

    def comment() -> str:
        return draw(st.sampled_from(["", "", "", "  # c", " #", "    "]))

    def write(value: Any, col: int, prefix: str) -> None:
        if isinstance(value, dict) and value:
            for index, (key, item) in enumerate(value.items()):
                quoted = draw(st.booleans())
                key_text = _scalar_text(str(key)) if quoted else str(key)
                head = prefix if index == 0 else " " * col
                entry(item, col, f"{head}{key_text}:", indentless=draw(st.booleans()))
        elif isinstance(value, list) and value:
            for index, item in enumerate(value):
                head = prefix if index == 0 else " " * col
                spaces = " " * draw(st.integers(1, 3))
                if isinstance(item, (dict, list)) and item and draw(st.booleans()):
                    write(item, col + 1 + len(spaces), f"{head}-{spaces}")
                else:
                    entry(item, col, f"{head}-", indentless=False)
        else:
            lines.append(prefix + _scalar_text(value) + comment())

    def entry(item: Any, col: int, head: str, indentless: bool) -> None:
        if isinstance(item, (dict, list)) and item:
            lines.append(head + comment())
            if draw(st.booleans()):
                lines.append(draw(st.sampled_from(["", "# between", "   # c"])))
            inner = col if indentless and isinstance(item, list) else col + draw(st.integers(1, 3))
            write(item, inner, " " * inner)
        else:
            lines.append(head + " " * draw(st.integers(1, 2)) + _scalar_text(item) + comment())

    for index, document in enumerate(draw(documents)):
        if index or draw(st.booleans()):
            lines.append("---" + comment())
        write(document, 0, "")
    return "\n".join(lines) + draw(st.sampled_from(["", "\n", "\n\n"]))


@SETTINGS
@given(pyyaml_texts())
def test_pyyaml_written_texts(text: str) -> None:
    check(text)


@SETTINGS
@given(written_texts())
def test_hand_written_texts(text: str) -> None:
    check(text)


@SETTINGS
@given(written_texts(MANIFESTS))
def test_hand_written_manifests(text: str) -> None:
    check(text)


TRICKY = [*" -:#'\"{}[]&*!|>%@`?,.\t\\~\u2028", "---", "...", ": ", " #", "- "]


@st.composite
def mutated_texts(draw: st.DrawFn, documents: st.SearchStrategy[list[Any]] = DOCUMENTS) -> str:
    lines = draw(written_texts(documents)).split("\n")
    for _ in range(draw(st.integers(1, 3))):
        number = draw(st.integers(0, len(lines) - 1))
        line = lines[number]
        at = draw(st.integers(0, len(line)))
        change = draw(st.sampled_from(["insert", "delete", "indent", "dedent", "copy", "line"]))
        if change == "insert":
            lines[number] = line[:at] + draw(st.sampled_from(TRICKY)) + line[at:]
        elif change == "delete" and line:
            at = min(at, len(line) - 1)
            lines[number] = line[:at] + line[at + 1 :]
        elif change == "indent":
            lines[number] = " " * draw(st.integers(1, 2)) + line
        elif change == "dedent":
            lines[number] = line.removeprefix(" ")
        elif change == "copy":
            lines.insert(number, line)
        else:
            lines.insert(number, draw(st.sampled_from(["---", "...", "--- x", "#", "-", "a:"])))
    return "\n".join(lines)


@SETTINGS
@given(mutated_texts())
def test_mutated_texts(text: str) -> None:
    check(text)


@SETTINGS
@given(mutated_texts(MANIFESTS))
def test_mutated_manifests(text: str) -> None:
    check(text)


REPOSITORY = Path(__file__).resolve().parents[2]
SHIPPED = sorted(
    path.relative_to(REPOSITORY).as_posix()
    for folder in ("profiles", "examples")
    for path in (REPOSITORY / folder).rglob("*.yaml")
)


@pytest.mark.parametrize("name", SHIPPED)
def test_shipped_profiles_and_examples(name: str) -> None:
    # The built-in profiles are read by blockyaml alone (config/load.py), every document.
    read_itself = check((REPOSITORY / name).read_text())
    assert read_itself or not name.startswith("profiles/")
