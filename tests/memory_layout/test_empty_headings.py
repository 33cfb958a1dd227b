from __future__ import annotations

from memory_layout import parse_document


def test_removing_the_last_entry_of_a_section_removes_its_heading() -> None:
    doc = parse_document("# Memory\n\n## Old\n\n- only entry\n\n## Keep\n\n- stays\n")
    doc.remove_entry_and_empty_heading(doc.entries()[0])
    assert doc.render() == "# Memory\n\n## Keep\n\n- stays\n"


def test_a_heading_with_prose_or_a_subsection_stays() -> None:
    text = "# Memory\n\n## A\n\nIntro line.\n\n- one\n\n## B\n\n- two\n\n### B1\n\n- three\n"
    doc = parse_document(text)
    doc.remove_entry_and_empty_heading(doc.entries()[0])
    doc.remove_entry_and_empty_heading(doc.entries()[0])
    assert doc.render() == "# Memory\n\n## A\n\nIntro line.\n\n## B\n\n### B1\n\n- three\n"
    doc.remove_entry_and_empty_heading(doc.entries()[0])  # B1, then B, are empty now
    assert doc.render() == "# Memory\n\n## A\n\nIntro line.\n\n"


def test_an_emptied_subsection_in_the_middle_goes_and_its_neighbours_stay() -> None:
    doc = parse_document("# M\n\n## B\n\n### B1\n\n- x\n\n## C\n\n## D\n\n- y\n")
    doc.remove_entry_and_empty_heading(doc.entries()[0])
    assert doc.render() == "# M\n\n## C\n\n## D\n\n- y\n"  # C was empty before: not ours to drop
