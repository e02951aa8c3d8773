"""A Chinese page's line breaks inside a sentence are removed (docs/hooks/guide/cjk_join.py): Chromium
draws each as a space between two Chinese characters ("接着， 一个脚本"). Code and Latin words keep theirs."""

from __future__ import annotations

from types import SimpleNamespace

from guide.cjk_join import join_lines, on_page_content


def test_a_break_between_two_han_characters_goes():
    assert join_lines("<p>接着，\n一个脚本回答</p>") == "<p>接着，一个脚本回答</p>"
    assert join_lines("<p>只做安\n  全修复。</p>") == "<p>只做安全修复。</p>"


def test_a_break_next_to_a_latin_word_stays_a_space():
    assert join_lines("<p>只有 torch-directml\n才行</p>") == "<p>只有 torch-directml\n才行</p>"
    assert join_lines("<p>先装好\nPython 3.12</p>") == "<p>先装好\nPython 3.12</p>"


def test_the_sentence_runs_on_through_inline_tags():
    assert join_lines('<p>见\n<a href="x">出处</a>和<strong>说明</strong>\n。</p>') == (
        '<p>见<a href="x">出处</a>和<strong>说明</strong>。</p>'
    )
    assert join_lines("<p>（不再计划）</em>\n只做</p>") == "<p>（不再计划）</em>只做</p>"


def test_inline_code_counts_as_latin():
    assert join_lines("<p>运行 <code>中文</code>\n然后</p>") == "<p>运行 <code>中文</code>\n然后</p>"


def test_code_blocks_keep_their_lines():
    block = "<pre><code>消息：\n另一行\n</code></pre>"
    assert join_lines(block) == block
    assert join_lines("<script>a('中\n文')</script>") == "<script>a('中\n文')</script>"


def test_a_block_boundary_is_not_joined_across():
    assert join_lines("<p>第一段。</p>\n<p>第二段</p>") == "<p>第一段。</p>\n<p>第二段</p>"
    assert join_lines("<li>一</li>\n<li>二</li>") == "<li>一</li>\n<li>二</li>"


def test_only_chinese_pages_are_changed():
    def page(src_uri):
        return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))

    html = "<p>中\n文</p>"
    assert on_page_content(html, page("setup.zh.md"), None, None) == "<p>中文</p>"
    assert on_page_content(html, page("setup.md"), None, None) == html


def test_a_break_after_full_width_punctuation_goes_whatever_follows():
    # A line break after full-width punctuation showed as a gap: "2026-01-28； legacy-rocm-build#5899" and
    # "…。 DirectML：" kept a space that a Chinese reader reads as a typo.
    assert join_lines("<p>2026-01-28；\nlegacy-rocm-build#5899</p>") == "<p>2026-01-28；legacy-rocm-build#5899</p>"
    assert join_lines("<p>起作用。\n<code>DirectML</code>：</p>") == "<p>起作用。<code>DirectML</code>：</p>"
    assert join_lines("<p><strong>原因：</strong>\nAMD 的</p>") == "<p><strong>原因：</strong>AMD 的</p>"


def test_a_break_before_an_opening_full_width_bracket_goes():
    assert join_lines("<p>torch-directml\n（本指南）</p>") == "<p>torch-directml（本指南）</p>"
    assert join_lines("<p>见 PyTorch\n“说明”</p>") == "<p>见 PyTorch“说明”</p>"


def test_a_latin_break_next_to_half_width_punctuation_stays():
    assert join_lines("<p>torch 2.4.1,\nPython 3.12</p>") == "<p>torch 2.4.1,\nPython 3.12</p>"


def test_a_space_typed_after_full_width_punctuation_goes():
    # Full-width punctuation carries its own spacing: 154 typed spaces after it showed as gaps, as in
    # "<strong>解决：</strong> 按上一节".
    assert join_lines("<p><strong>解决：</strong> 按上一节</p>") == "<p><strong>解决：</strong>按上一节</p>"
    assert join_lines("<p>显卡（GPU） 以后，  <code>x</code></p>") == "<p>显卡（GPU）以后，<code>x</code></p>"


def test_a_typed_space_between_other_characters_stays():
    assert join_lines("<p>在 设置 → 应用 里</p>") == "<p>在 设置 → 应用 里</p>"
    assert join_lines("<pre><code>失败。 下一行</code></pre>") == "<pre><code>失败。 下一行</code></pre>"
