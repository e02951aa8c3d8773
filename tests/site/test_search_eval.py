"""The site search judged on messages as readers pasted them, from public threads (tests/site/search_eval.yml).

Every message is searched in the browser as a reader searches it (pasted whole into the box of a page of
its edition). The test prints how many find their section first and within the first three sections shown,
lists every miss, and holds each edition's floors (FLOORS, of the messages with a section, counting only the
sections a reader sees without opening a fold); no message that has a section may list none at all.
Messages under `pending:` wait for a section not yet written; they are run and reported, not counted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from browser_support import search, skip_module_without_browser

skip_module_without_browser()

EVAL = Path(__file__).with_name("search_eval.yml")
# Issue 23's floors. Measured: 34/60 first and 39/60 within three before 2026-12-01; 56/69 and 64/69
# once the ROCm and XPU sections and the chooser were merged; 60/69 and 68/69 once the memory section's
# summary said "VRAM" and "leak" (the words of its own source, DirectML#412) and the mirror section showed
# the message pip prints on a timeout. Then four held-out messages, from threads not read before, were
# added untuned: 62/73 first (85 %), 70/73 within three (96 %); two of the four missed (listed by the test).
# Counted on what a reader sees (sections folded under "N more on this page" left out), 2026-12-01:
# 62/73 first, 63/73 within three with Material's folds; 62/73 and 70/73 once a page shows its top three
# sections (docs/overrides/partials/search_query.html).
# Then 40 held-out messages (20 English, 20 for the Chinese edition) from threads no page cites, added before
# any change was measured on them (issue 31). Per edition, first / within three, as a reader sees them:
#   Material's folds:                          en 60/80, 62/80   zh 18/33, 18/33
#   a page's top three sections shown:         en 60/80, 72/80   zh 18/33, 20/33
#   + the four Windows sections in English, Chinese particles as stop words, an empty typed Chinese
#     query run again with its words optional: en 62/80, 74/80   zh 21/33, 23/33
# Tried and left out: each section's quoted messages indexed a second time as a field of their own, boost 2:
#   en 61/80, 73/80   zh 20/33, 23/33; boost 1: en 61/80, 73/80   zh 21/33, 23/33 (no better than without).
#   tried and left out, on the full set: a plural also searched by its singular: en 61/80, 72/80, zh unchanged.
# The floors are what the mechanism reaches, not issue 31's 85 % / 95 %, which it does not reach honestly.
#   + the 13 new sections of issue 31 (they compete on the same page; two titles and one block reworded so that
#     they do not win on words every message has: "out of memory", "has no attribute"):
#                                              en 60/80, 73/80   zh 22/33, 23/33
# Then the query side (docs/overrides/partials/search_query.html), one mechanism at a time, 2026-12-02:
#   + a Chinese run cut into the index's own words before Material's segmenter; a typed query's one-character
#     words optional; a typed query with fewer than three sections re-run with its words optional:
#                                              en 60/80, 73/80   zh 22/33, 24/33
#   + stems (plural, -ing; -ed too: en 60/80, 73/80, left out), a lower-case class name by its parts, model
#     numbers split:                           en 60/80, 74/80   zh 22/33, 24/33
#   + a table of equivalent wordings, with the back-end's names (DirectML, dml, privateuseone, torch-directml)
#     among them:                              en 60/80, 71/80   zh 24/33, 26/33
#     without that group (every DirectML section holds "directml"), a signed HRESULT searched as hex:
#                                              en 61/80, 76/80   zh 24/33, 26/33
#   + a word stemmed only when the index lacks it as written ("Windows" was searched as "window*"):
#     (AMD/Radeon/A卡 and NVIDIA/N卡 left out of the table: unchanged here, but A卡 lost the GPU table,
#     tests/site/test_search_chinese.py)
#                                              en 63/80, 76/80   zh 24/33, 26/33
#   (the relaxed answer alone for a typed query with fewer than three sections: zh 25/33, 27/33, but three
#   of test_search_chinese.py's queries lost their section: left out)
#   merged with the round's new and reworded sections (zh's minors, paths' driver and 840M text), CI 2026-12-02:
#                                              en 62/80, 76/80   zh 23/33, 25/33
#   (the new text costs one first in each edition and one top-three in zh; the misses are listed by the test)
# Then 14 held-out messages (8 English, 6 for the Chinese edition) from threads no page cites and the set did not
# hold, added before any of the next changes was measured on them (issue 31, 2026-12-02; the held-out subset
# alone: en 5/8, 6/8   zh 4/6, 5/6):
#                                              en 67/88, 82/88   zh 27/39, 30/39
#   (figures below: whole set; in brackets the 14 held-out messages alone)
#   + jieba's search mode from the query's side (docs/overrides/partials/search_query.html, point 12): a Chinese
#     word also by the index's words inside it and by the three most frequent that hold it, titles' words left out:
#                                              en 67/88, 82/88   zh 28/39, 31/39   (en 5/8, 6/8   zh 5/6, 6/6)
#     tried and left out: with the titles' words among the holders: zh 30/39, 32/39 (zh 6/6, 6/6), but two of
#     test_search_chinese.py's queries lost their section ("支持AMD显卡"; the 'conda' message under 应用程序);
#     the holders alone: zh 28/39, 31/39 (6/6, 6/6), the same two lost; the parts alone: zh 29/39, 32/39, all of
#     it on the older set (held-out zh 4/6, 5/6, unchanged); the holders as "text:" terms (not the title): zh
#     27/39, 31/39, and "MNIST 下载不了" lost its section.
#   tried after it and left out (each against the line above; held-out subset in brackets):
#     the Chinese edition's titles counted twice, not three times: zh 28/39, 31/39 (zh 5/6, 5/6);
#     a pasted message's words from its error class on (RuntimeError, OSError, ERROR) boosted twice over the
#     reader's prose before it: en 67/88, 82/88   zh 27/39, 31/39 (en 5/8, 6/8   zh 5/6, 6/6);
#     index side (the index rewritten after mkdocs-static-i18n wrote it): every section that quotes an error
#     message in a block weighed as the troubleshooting page (x2; set-up's, migration's, training's):
#       en 67/88, 80/88   zh 24/39, 31/39 (en 5/8, 6/8   zh 4/6, 5/6): set-up's long sections came first;
#     each section's boost times (its edition's median length / its length) ** w, a share of BM25's length
#     normalisation (Material builds lunr with b = 0): w 0.5, within x0.5..x2: en 70/88, 78/88   zh 25/39, 28/39;
#       w 0.25: en 71/88, 80/88   zh 27/39, 29/39 (en 5/8, 6/8   zh 5/6, 5/6); w 0.25, short sections up only
#       (x1..x2): en 69/88, 81/88   zh 28/39, 30/39 (en 5/8, 6/8   zh 5/6, 5/6). More firsts in English, fewer
#       within three in both editions, none of it on the held-out messages.
# Then content, not search: the TDR section (both editions) quotes what ROCm prints on a driver timeout, HIP's text
# for hipErrorLaunchTimeOut (ROCm/clr's hip_error.cpp), which issue 31 asks each section to quote; CUDA's text is
# the same, so the held-out whisper-standalone-win#411 message now finds it (that message no longer counts as
# untuned):                                    en 68/88, 83/88   zh 28/39, 31/39   (en 6/8, 7/8   zh 5/6, 6/6)
# Then the ranking and the reading of a pasted message (docs/overrides/partials/search_query.html, points 13 to 17),
# one at a time, each on top of the line before, 2026-12-02 (no held-out messages added in this round):
#   + a section's score times (1 + 0.4 x the share of the query's word pairs that its text holds as neighbours):
#                                              en 69/88, 83/88   zh 28/39, 32/39
#     (weight 1: en 68/88, 83/88   zh 26/39, 32/39; weight 3: en 69/88, 83/88   zh 27/39, 32/39)
#   + pages ordered by their best section, a page's own entry without Material's page bonus (1 + (1 + c)^2):
#                                              en 69/88, 82/88   zh 30/39, 33/39
#     (alone, without the pairs: en 68/88, 82/88   zh 30/39, 32/39; pages by the sum of their three best
#     sections instead: en 69/88, 81/88   zh 31/39, 33/39, left out)
#   + each word sent once (repeats and class names' parts): en 70/88, 82/88   zh 30/39, 33/39
#   + a word whose longer forms in the index are only its inflections keeps the wildcard ("zero": zeros):
#                                              en 71/88, 82/88   zh 30/39, 33/39
#   + content: the antivirus section (both editions) quotes pip's own line around [WinError 5], "ERROR: Could not
#     install packages due to an OSError: ..." and "Check the permissions." (pip's create_os_error_message, linked
#     on the page): unchanged alone (en 71/88, 82/88   zh 30/39, 33/39)
#   + a Windows path in a pasted message left out but for a last part that is a DLL or program:
#                                              en 73/88, 83/88   zh 29/39, 33/39
#     a path with non-ASCII characters kept whole (a Chinese user name is a cause of its own):
#                                              en 73/88, 83/88   zh 30/39, 33/39
#     (without the antivirus content: en 72/88, 82/88)
#   + the English edition's titles counted twice, not three times (set in the edition's copy of the index):
#                                              en 75/88, 84/88   zh 30/39, 33/39
#     (English 1.5: the same; 4: en 71/88, 84/88. Both editions at 2: zh 29/39, 33/39; the Chinese edition at 4:
#     zh 30/39, 34/39, at 5: zh 29/39, 33/39: left at 3)
#   Then 8 held-out messages (4 English, 4 for the Chinese edition; tests/site/search_eval.yml, third round) from
#   threads no page cites, measured on the site before this round's changes and after them: the same either way,
#   en 4/4, 4/4   zh 3/4, 4/4 (whole messages, which the sections quote: no sign of tuning, and no lift either).
#   The whole set with them:                   en 79/92, 88/92   zh 33/43, 37/43
#   + content: the section on pip finding no wheel (both editions) quotes pip's line for a wheel file of another
#     Python, "….whl is not a supported wheel on this platform." (pip's resolvelib/factory.py, linked), the message
#     of microsoft/DirectML#544, which the section already cited:
#                                              en 80/92, 88/92   zh 33/43, 37/43
#   + a Latin word glued to Chinese in a pasted (not typed) Chinese message searched whole or by its stem, as an
#     English message's words are ("在win系统上": "win*" matched WinError and Win32, whose section came first):
#                                              en 80/92, 88/92   zh 35/43, 38/43
#   (the 8 held-out messages after the last two changes: unchanged, en 4/4, 4/4   zh 3/4, 4/4)
#   + a page holding the required answer of a typed Chinese query gets its relaxed sections in a second entry, at
#     the relaxed answer's place, not under its first (search_query.html point 20; "某天突然被程序被windows阻止":
#     rank 4 -> 2; no other message's rank moved):
#                                              en 80/92, 88/92   zh 35/43, 39/43
#   Judged, not built: the Troubleshooting page split by area. A section's score does not depend on its page (the
#   split keeps the boost; lunr's idf counts sections), so no message would come first that does not now; and a
#   page shows its top three sections before the next page's, so a split can only move a second-best section of
#   another area behind the first area's weaker ones: within three cannot rise.
#   (Since point 21 below, sections are listed in score order whatever their page, so a split would change no rank.)
#   Then issue 31's 85 % / 95 % were reached in English (87 %, 96 %), not in Chinese (81 %, 91 %); the misses were
#   listed by the test (PyCharm interpreter questions in the reader's own words; a typed query whose required words one
#   wrong section holds; two back-ends' sections for the same symptom).
# Then three mechanisms (docs/overrides/partials/search_query.html), one at a time, each on top of the line before,
# 2026-12-02 (issue 31):
#   + sections listed in the order of their scores, whatever their page, each run of one page's sections an entry of
#     its own (point 21; a page's second and third sections no longer stand above the next page's better one):
#                                              en 80/92, 88/92   zh 35/43, 41/43
#     (en: "Torch can not run in Pycharm but it work in cmd" rank 5 -> 11, "I use pycharm to import torch, ..."
#     8 -> 4; zh: the two PyCharm interpreter messages 7 -> 3 and 14 -> not shown,
#     "无法创建使用pip.exe创建进程" 4 -> 2)
#   + a URL in a pasted message searched by its host's words, not its path (point 16):
#                                              en 80/92, 88/92   zh 36/43, 41/43
#     tried and left out: a Chinese word's holders that begin with it dropped (Material's wildcard matches them
#     already): zh 36/43, 40/43, whether the three holders are taken before or after dropping them
#   + a typed Chinese query run again with its words optional lists first the sections that hold every required word
#     as text, inside a longer word too (应用程序 holds 程序), in the order of their scores (point 20, which replaces
#     the second entry for the page holding the required answer):
#                                              en 80/92, 88/92   zh 37/43, 41/43
#   Issue 31's 85 % / 95 % are now reached in both editions: en 87 %, 96 %; zh 86 %, 95 %.
FLOORS = {"en": (86, 95), "zh": (85, 95)}  # per cent: first, within three


def load_eval(path: Path = EVAL) -> dict[str, list[dict]]:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    return {"messages": data["messages"], "pending": data.get("pending") or []}


# The result links a reader sees without opening a page's "N more on this page" fold.
VISIBLE_LINKS = "els => els.filter(e => !e.closest('details:not([open])')).map(e => e.href)"


def sections_for(page, query: str) -> list[str]:
    """The sections shown for ``query``, in order, leaving out those folded under a page's "N more on
    this page" (a reader does not see them; the box is emptied first, so that the wait in search() waits
    for this query's results, not the last one's)."""
    page.fill("input.md-search__input", "")
    page.press("input.md-search__input", "End")
    page.wait_for_function(
        "() => /Type to start|键入以开始搜索/.test(document.querySelector('.md-search-result__meta').innerText)"
    )
    search(page, query)
    hrefs = page.locator(".md-search-result__item a").evaluate_all(VISIBLE_LINKS)
    return [h for h in (re.sub(r"^https?://[^/]+/|\?h=[^#]*", "", href) for href in hrefs) if "#" in h]


def evaluate(browser, base: str, entries: list[dict]) -> list[dict]:
    """Each entry with the sections found for it (``found``) and its rank (1-based, or None)."""
    pages = {}
    results = []
    for entry in entries:
        edition = "zh/" if entry.get("edition") == "zh" else ""
        if edition not in pages:
            pages[edition] = browser.new_page()
            pages[edition].goto(base + edition)
        found = sections_for(pages[edition], entry["query"])
        expected = entry["expected"]
        rank = found.index(expected) + 1 if expected in found else None
        results.append({**entry, "found": found[:3], "rank": rank, "sections": len(found)})
    for page in pages.values():
        page.close()
    return results


def edition(entry: dict) -> str:
    return "zh" if entry.get("edition") == "zh" else "en"


def report(results: list[dict], title: str) -> tuple[int, int, int, list[str]]:
    """(with a section, first, within three, lines for the misses), and the summary printed."""
    judged = [r for r in results if r["expected"]]
    for name in ("en", "zh"):
        part = [r for r in judged if edition(r) == name]
        print(
            f"\n{title}, {name}: first {sum(1 for r in part if r['rank'] == 1)}/{len(part)}, within three "
            f"{sum(1 for r in part if r['rank'] and r['rank'] <= 3)}/{len(part)}"
        )
    first = sum(1 for r in judged if r["rank"] == 1)
    top3 = sum(1 for r in judged if r["rank"] and r["rank"] <= 3)
    misses = [
        f"  rank {r['rank'] or '-'}: {r['query'][:90]!r}\n    expected {r['expected']}, got {r['found']}"
        f"\n    ({r['source']})"
        for r in judged
        if r["rank"] != 1
    ]
    print(
        f"\n{title}: {len(results)} messages, {len(judged)} with a section: "
        f"first {first}/{len(judged)}, within three {top3}/{len(judged)}"
    )
    print("\n".join(misses) or "  no misses")
    return len(judged), first, top3, misses


@pytest.fixture(scope="module")
def sample():
    data = load_eval()
    assert len(data["messages"]) + len(data["pending"]) >= 60, "the sample needs 60 messages at least"
    for entry in data["messages"] + data["pending"]:
        assert entry["source"].startswith("https://"), entry
    return data


@pytest.fixture(scope="module")
def evaluated(site, browser, sample):
    """Every message searched once; both tests below read the same results."""
    _, base = site
    results = evaluate(browser, base, sample["messages"])
    report(results, "search evaluation")
    if sample["pending"]:
        report(evaluate(browser, base, sample["pending"]), "pending (not counted)")
    return results


@pytest.mark.parametrize("name", ["en", "zh"])
def test_pasted_messages_find_their_section(evaluated, name):
    judged, first, top3, misses = report([r for r in evaluated if edition(r) == name], f"edition {name}")
    first_floor, top3_floor = FLOORS[name]
    assert first * 100 >= first_floor * judged and top3 * 100 >= top3_floor * judged, (
        f"{name}: first {first}/{judged} (floor {first_floor} %), within three {top3}/{judged} "
        f"(floor {top3_floor} %); misses:\n" + "\n".join(misses)
    )


def test_no_message_that_has_a_section_finds_nothing(evaluated):
    """A reader who gets an empty list learns nothing; a near miss still shows the way."""
    empty = [f"{r['query'][:80]!r} ({r['source']})" for r in evaluated if r["expected"] and not r["sections"]]
    assert not empty, f"{len(empty)} queries list no section at all:\n" + "\n".join(empty)


def test_a_chinese_title_typed_whole_comes_first(site, browser):
    """显存不足 typed on a Chinese page lists the section titled exactly that first, not 显存占用只增不减
    (Material's segmenter never cut the run's last word; docs/overrides/partials/search_query.html)."""
    _, base = site
    page = browser.new_page()
    page.goto(base + "zh/")
    found = sections_for(page, "显存不足")
    page.close()
    assert found[:1] == ["zh/troubleshooting/#out-of-gpu-memory"], found[:3]


# What the page hands Material's worker for a query (the last QUERY message), recorded before the page's scripts run.
RECORD_QUERIES = """
window.guideQueries = [];
const guidePost = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (message) {
  if (message && message.type === 2) window.guideQueries.push(message.data);
  return guidePost.apply(this, arguments);
};
"""

# (edition, what the reader typed or pasted, words the query sent to the worker must hold, words it must not)
QUERY_SHAPES = [
    # Model numbers glued to their letters are split as the pages write them.
    ("en", "RX580", ["RX 580"], ["RX580"]),
    ("en", "rx6700xt is not detected", ["6700^1"], ["6700xt"]),
    # A word the index lacks as written is searched by its stem (Material adds the wildcard); one it holds,
    # whole ("Windows", not "window*").
    ("en", "D3D12: Removing Device on Windows 11", ["Remov ", "Device^1", "Windows^1"], ["Window "]),
    # A lower-case class name by its parts; a signed HRESULT as the hex the pages quote.
    ("en", "Can't download pytorch/ timeouterror", ["timeout", "error"], []),
    ("en", "torch_directml Unknown error -2147024809 on WSL2", ["0x80070057^1"], []),
    # Equivalent wordings: a graphics card is a GPU; on a Chinese page 显卡 too.
    ("en", "my integrated graphics card is used", ["GPU^1", "iGPU^1"], ["显卡"]),
    ("zh", "为什么会使用核显推理", ["核显\u3007", "iGPU^1", "集成显卡\u3007"], []),
    # A Chinese run is cut into the index's words, even one whose first character begins none of them
    # (Material's segmenter sent "难道说我以后遇到的问题都没法通过目前的" to lunr as one word).
    (
        "zh",
        "难道说我以后遇到的问题都没法通过目前的wifi网络访问pip的清华源了吗",
        ["网络\u3007", "清华源\u3007"],
        ["难道说我以后"],
    ),
    # jieba's search mode from the query's side: a long word also by the index's words inside it, a short one also
    # by the most frequent index words that hold it (never a title's word: 应用程序 heads the WinError 193 section).
    ("zh", "应用程序", [" 程序\u3007", " 应用\u3007"], []),
    ("zh", "可运行的程序", ["安装程序\u3007"], ["应用程序"]),
    # A Latin word glued to Chinese in a pasted message is searched whole, as in an English message ("win*" matched
    # WinError and Win32).
    ("zh", "在win系统上，用gpu训练，占用为0", ["win^1", "gpu^1"], [" win ", " gpu "]),
    # A word the index holds whose longer forms there are only its inflections (zeros) keeps Material's wildcard.
    ("en", "silently returns zero for basic operations", [" zero "], ["zero^1"]),
    # A URL in a pasted message: its host's words, not its path (the reader's own package file).
    (
        "zh",
        "ERROR: HTTP error 403 while getting https://pypi.tuna.tsinghua.edu.cn/packages/ab/cd/numpy-2.3.5-py3-none-any.whl",
        ["tuna^1", "tsinghua^1", "403^1"],
        ["packages", "numpy", "none", "whl"],
    ),
    # A Windows path in a pasted message: its last part only, when it is a DLL or program; else left out.
    (
        "en",
        "OSError: [Errno 22] Invalid argument: 'C:\\Users\\Someone\\AppData\\Local\\Temp\\torch-2.4.1-cp312-win_amd64.whl'",
        ["OSError^1", "Invalid^1"],
        ["Users", "AppData", "amd64", "whl"],
    ),
    (
        "en",
        'Error loading "C:\\venv\\Lib\\site-packages\\torch\\lib\\c10.dll" or one of its dependencies',
        ["c10.dll"],
        ["venv"],
    ),
]


@pytest.mark.parametrize("edition_name,text,holds,lacks", QUERY_SHAPES)
def test_the_query_is_read_by_mechanism(site, browser, edition_name, text, holds, lacks):
    _, base = site
    page = browser.new_page()
    page.add_init_script(RECORD_QUERIES)
    page.goto(base + ("zh/" if edition_name == "zh" else ""))
    sections_for(page, text)
    sent = page.evaluate("window.guideQueries")[-1] + " "
    page.close()
    missing = [w for w in holds if w not in sent]
    present = [w for w in lacks if w in sent]
    assert not missing and not present, f"{text!r} was sent as {sent!r}: lacks {missing}, holds {present}"


def test_a_pasted_word_is_searched_once(site, browser):
    """A word the message repeats, or that a class name's parts repeat (ModuleNotFoundError: "module"), goes to
    the worker once: lunr adds a clause's weight each time it comes, so the message's commonest words outweighed
    its rare ones."""
    _, base = site
    page = browser.new_page()
    page.add_init_script(RECORD_QUERIES)
    page.goto(base)
    sections_for(page, "import torch_native ModuleNotFoundError: No module named 'torch_native'")
    sent = page.evaluate("window.guideQueries")[-1].lower().split()
    page.close()
    assert sent.count("module^1") == 1 and sent.count("torch_native^1") == 1, sent


def test_a_model_number_glued_to_its_letters_finds_the_gpu_table(site, browser):
    """ "RX580" typed on an English page lists the section on which GPU takes which route (the Chinese edition:
    tests/site/test_search_chinese.py); unsplit, lunr searched "rx580*", a word no page holds."""
    _, base = site
    page = browser.new_page()
    page.goto(base)
    found = sections_for(page, "RX580")
    page.close()
    assert "why-directml/#which-one-for-your-gpu" in found[:3], found[:3]


# What the page hands Material's result list (the last result message), recorded as the page builds it.
RECORD_RESULTS = """
const GuideEvent = window.MessageEvent;
window.MessageEvent = class extends GuideEvent {
  constructor(type, init) { super(type, init); window.guideResult = init && init.data && init.data.data; }
};
"""


def _result_entries(site, browser, edition_name: str, text: str) -> list[list[dict]]:
    _, base = site
    page = browser.new_page()
    page.add_init_script(RECORD_RESULTS)
    page.goto(base + ("zh/" if edition_name == "zh" else ""))
    sections_for(page, text)
    entries = page.evaluate("window.guideResult.items.map(g => g.map(d => ({location: d.location, score: d.score})))")
    page.close()
    return entries


def test_sections_are_listed_in_the_order_of_their_scores(site, browser):
    """Each page once, with its top three sections, listed a page's weaker sections above the next page's better one
    (search_query.html point 21): the sections go in one order of scores, each run of one page's sections an entry of
    its own, headed by the page's entry."""
    entries = _result_entries(site, browser, "en", "pycharm cannot import torch")
    sections = [doc for entry in entries for doc in entry if "#" in doc["location"]]
    scores = [doc["score"] for doc in sections]
    assert len(sections) > 3 and scores == sorted(scores, reverse=True), [
        (doc["location"], round(doc["score"], 2)) for doc in sections[:8]
    ]
    assert all("#" not in entry[0]["location"] for entry in entries), "every entry is headed by its page's entry"


def test_a_typed_chinese_word_inside_a_longer_word_counts_as_held(site, browser):
    """ "程序被阻止" requires 程序 and 阻止; the index holds the Smart App Control title's 应用程序 as one word, so lunr's
    required query found only the set-up section that writes 程序 alone. Run again with its words optional, the
    sections that hold every word as text, inside a longer word too, come first in the order of their scores
    (search_query.html point 20)."""
    entries = _result_entries(site, browser, "zh", "程序被阻止")
    sections = [doc["location"] for entry in entries for doc in entry if "#" in doc["location"]]
    assert sections[:1] == ["zh/troubleshooting/#winerror-4551-smart-app-control"], sections[:3]
