"""Field positions: the document-slicing shortcut agrees with a walk from the top."""

from __future__ import annotations

import pytest
import yaml

from ksched_cli.manifests.positions import document_span, field_position

TEXTS = {
    "implicit-first": "a: 1\nb:\n  c: [x, {d: 2}]\n---\na: 3\n---\n\n---\nb:\n  - c: 4\n",
    "explicit-first": "# header\n---\na: 1\n--- # note\nb: {c: 1}\n---\nitems:\n- a: 1\n- b: 2\n",
    "trailing-marker": "a: 1\n---\nb: 2\n---\n",
    "block-scalar": "a: |\n  ---\n  x\nb: 1\n---\nc: 2\n",
}
FIELDS = ["a", "b", "b.c", "b.c[1].d", "b[0].c", "items[1].b", "c", "nope", ""]


@pytest.mark.parametrize("text", TEXTS.values(), ids=TEXTS.keys())
def test_slicing_agrees_with_the_full_walk(text: str) -> None:
    count = len(list(yaml.safe_load_all(text)))
    for document in range(count):
        for field in FIELDS:
            fast = field_position(text, document, field, count)
            assert fast == field_position(text, document, field), (document, field)


def test_positions() -> None:
    text = TEXTS["implicit-first"]
    assert field_position(text, 0, "b.c[1].d", 4) == (3, 11)
    assert field_position(text, 0, "b.c[1]", 4) == (3, 10)
    assert field_position(text, 1, "a", 4) == (5, 1)
    assert field_position(text, 3, "b[0].c", 4) == (10, 5)
    assert field_position(text, 3, "b[5].c", 4) == (9, 1)
    assert field_position(text, 9, "a") is None


@pytest.mark.parametrize(
    ("text", "documents", "document", "expected"),
    [
        ("a: 1\n---\nb: 2\n", 2, 1, (5, 14)),
        ("---\na: 1\n---\nb: 2\n", 2, 0, (0, 9)),
        ("a: 1\n---\nb: 2\n", 3, 1, None),  # the markers disagree with the load
        ("%YAML 1.1\n---\na: 1\n", 1, 0, (10, 19)),
        ("a: 1\n", 1, 2, None),
    ],
)
def test_document_span(
    text: str, documents: int, document: int, expected: tuple[int, int] | None
) -> None:
    assert document_span(text, document, documents) == expected
