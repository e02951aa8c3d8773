"""docs/hooks/data/ holds each "checked on" date once; pages quote it as {{ checked.NAME }}, never by hand."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from guide import checked
from guide.placeholders import names
from guide_harness import DOCS, ROOT, pages


def write(tmp_path, name, text):
    (tmp_path / name).write_text(text, encoding="utf-8")
    return tmp_path


def test_the_real_data_is_read_wherever_its_entries_sit():
    """Every file under docs/hooks/data, its entries nested in mappings and lists (gpus.yml's support facts);
    short names only for sources.yml's own mapping."""
    entries = {e.name: e for e in checked.read_entries()}
    dates = checked.checked_dates(list(entries.values()))
    assert dates["amd-rocm-windows"] == "2026-11-30"
    assert dates["sources.sources.amd-rocm-windows"] == "2026-11-30"
    assert all(e.source.startswith("https://") and e.every >= 1 for e in entries.values())
    nested = entries["gpus.gpus.AMD Radeon RX 9070 XT.support.0"]  # a list item: named by its row and place
    assert nested.every == checked.DEFAULT_EVERY and nested.due == nested.checked + dt.timedelta(days=30)
    assert "gpus.gpus.AMD Radeon RX 9070 XT" not in entries  # the row has no checked: of its own
    short = {name for name in dates if "." not in name}
    assert short == {name.removeprefix("sources.sources.") for name in dates if name.startswith("sources.sources.")}


def test_toml_and_json_files_are_read_too(tmp_path):
    write(tmp_path, "x.toml", '[one]\nsource = "https://example.org/1"\nchecked = 2026-03-04\nevery = 7\n')
    write(tmp_path, "y.json", '{"two": {"source": "https://example.org/2", "checked": "2026-05-06"}}')
    entries = {e.name: e for e in checked.read_entries(tmp_path)}
    assert entries["x.one"].checked == dt.date(2026, 3, 4) and entries["x.one"].every == 7
    assert entries["y.two"].checked == dt.date(2026, 5, 6)


@pytest.mark.parametrize(
    "entry, message",
    [
        ("a:\n  checked: 2026-01-01\n", "needs the source"),
        ("a:\n  source: not-a-url\n  checked: 2026-01-01\n", "needs the source"),
        ("a:\n  source: https://example.org\n  checked: soon\n", "is not a date"),
        ("a:\n  source: https://example.org\n  checked: 2026-01-01\n  every: monthly\n", "number of days"),
    ],
)
def test_a_bad_entry_is_named(tmp_path, entry, message):
    write(tmp_path, "bad.yml", entry)
    with pytest.raises(ValueError, match=message):
        checked.read_entries(tmp_path)


def test_pages_quote_checked_dates_that_exist():
    dates = checked.checked_dates()
    used = set()
    for page in pages():
        used |= names(page.read_text(encoding="utf-8"), "checked")
    assert used, "no page quotes a checked date"
    assert used <= set(dates), sorted(used - set(dates))
    # Every source of sources.yml dates something a reader sees, on some page.
    short = {name for name in dates if "." not in name}
    assert short <= used, f"sources.yml entries no page quotes: {sorted(short - used)}"


# A date beside "checked", "read" or "quoted" (核对 / 读取 / 引自) is a checked-on date typed by hand.
TYPED = re.compile(
    r"(?i)\b(checked|read|quoted)\b[^.\n]{0,40}\b20\d\d-\d\d-\d\d"
    r"|20\d\d-\d\d-\d\d[^。\n]{0,30}(核对|读取)|(核对|读取|引自)[^。\n]{0,20}20\d\d-\d\d-\d\d"
)


def test_the_typed_date_rule_catches():
    assert TYPED.search("quoted from each vendor's page as it was on 2026-11-30")
    assert TYPED.search("以下内容于 2026-11-30 对照各单元格中的链接核对过")
    assert not TYPED.search("one re-run on 2026-11-30 on the same H200")


@pytest.mark.parametrize("page", pages(), ids=lambda p: p.relative_to(DOCS).as_posix())
def test_pages_do_not_type_checked_dates(page):
    text = page.read_text(encoding="utf-8")
    match = TYPED.search(text)
    assert match is None, (
        f"{page.relative_to(ROOT)} types a checked date ({match.group(0)!r}): add it to "
        "docs/hooks/data/sources.yml and write {{ checked.NAME }}"
    )
