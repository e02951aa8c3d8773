"""A Chinese page's line breaks inside a sentence are removed (docs/hooks/guide/cjk_join.py): Chromium
draws each as a space between two Chinese characters ("接着， 一个脚本"). Code and Latin words keep theirs."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from guide.cjk_join import join_lines, on_page_content

SAME = None  # the text is left as it is


@pytest.mark.parametrize(
    "html, expected",
    [
        # a break between two Han characters goes
        ("<p>接着，\n一个脚本回答</p>", "<p>接着，一个脚本回答</p>"),
        ("<p>只做安\n  全修复。</p>", "<p>只做安全修复。</p>"),
        # a break next to a Latin word stays a space; inline code counts as Latin
        ("<p>只有 torch-directml\n才行</p>", SAME),
        ("<p>先装好\nPython 3.12</p>", SAME),
        ("<p>运行 <code>中文</code>\n然后</p>", SAME),
        # the sentence runs on through inline tags
        (
            '<p>见\n<a href="x">出处</a>和<strong>说明</strong>\n。</p>',
            '<p>见<a href="x">出处</a>和<strong>说明</strong>。</p>',
        ),
        ("<p>（不再计划）</em>\n只做</p>", "<p>（不再计划）</em>只做</p>"),
        # code blocks and scripts keep their lines; a block boundary is not joined across
        ("<pre><code>消息：\n另一行\n</code></pre>", SAME),
        ("<script>a('中\n文')</script>", SAME),
        ("<p>第一段。</p>\n<p>第二段</p>", SAME),
        ("<li>一</li>\n<li>二</li>", SAME),
        # A break after full-width punctuation goes whatever follows: "2026-01-28； legacy-rocm-build#5899" and
        # "…。 DirectML：" kept a space that a Chinese reader reads as a typo.
        ("<p>2026-01-28；\nlegacy-rocm-build#5899</p>", "<p>2026-01-28；legacy-rocm-build#5899</p>"),
        ("<p>起作用。\n<code>DirectML</code>：</p>", "<p>起作用。<code>DirectML</code>：</p>"),
        ("<p><strong>原因：</strong>\nAMD 的</p>", "<p><strong>原因：</strong>AMD 的</p>"),
        # a break before an opening full-width bracket goes; a Latin break next to half-width punctuation stays
        ("<p>torch-directml\n（本指南）</p>", "<p>torch-directml（本指南）</p>"),
        ("<p>见 PyTorch\n“说明”</p>", "<p>见 PyTorch“说明”</p>"),
        ("<p>torch 2.4.1,\nPython 3.12</p>", SAME),
        # Full-width punctuation carries its own spacing: 154 typed spaces after it showed as gaps, as in
        # "<strong>解决：</strong> 按上一节". A typed space between other characters stays.
        ("<p><strong>解决：</strong> 按上一节</p>", "<p><strong>解决：</strong>按上一节</p>"),
        ("<p>显卡（GPU） 以后，  <code>x</code></p>", "<p>显卡（GPU）以后，<code>x</code></p>"),
        ("<p>在 设置 → 应用 里</p>", SAME),
        ("<pre><code>失败。 下一行</code></pre>", SAME),
    ],
)
def test_join_lines(html, expected):
    assert join_lines(html) == (html if expected is SAME else expected)


def test_only_chinese_pages_are_changed():
    def page(src_uri):
        return SimpleNamespace(file=SimpleNamespace(src_uri=src_uri))

    html = "<p>中\n文</p>"
    assert on_page_content(html, page("setup.zh.md"), None, None) == "<p>中文</p>"
    assert on_page_content(html, page("setup.md"), None, None) == html
