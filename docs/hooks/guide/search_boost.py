"""Rank the troubleshooting page's sections above others in the site search.

A reader pastes a whole error message into the search box. Material's search adds a wildcard to
every term and does not normalise by length, so a long section of the training chapter that merely
repeats "not", "device" and "torch" could outrank the short section that holds the message word for
word. Boosting the page that exists to answer error messages puts that section first
(tests/test_site_browser.py checks it for every message on the page). Set here rather than in the
page's front matter so the page stays plain Markdown.
"""

BOOSTS = {"troubleshooting.md": 3}


def on_page_markdown(markdown, page, config, files):  # MkDocs hook signature
    # The Chinese edition's page (troubleshooting.zh.md) gets the same boost as the English one.
    boost = BOOSTS.get(page.file.src_uri.replace(".zh.md", ".md"))
    if boost is not None:
        page.meta.setdefault("search", {})["boost"] = boost
    return markdown

