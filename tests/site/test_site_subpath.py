"""The site works when served under a sub-path, as GitHub Pages serves a project site.

GitHub Pages serves this repository at ``https://OWNER.github.io/REPO/`` and answers every missing
URL, however deep, with ``404.html``. MkDocs writes that page's asset and navigation URLs as absolute
paths from ``site_url`` (mkdocs/commands/build.py), and fills ``sitemap.xml`` from ``site_url`` too.
The deploy workflow sets ``site_url`` (``SITE_URL``), ``repo_url`` and ``edit_uri`` through ``!ENV``
in mkdocs.yml. Here the site is built with a sub-path site URL, served under that sub-path by a tiny
local server that behaves like Pages, and fetched: 404.html's assets and links must load from a deep
missing URL, and sitemap.xml must list every page. A build without ``SITE_URL`` (a local build) shows
that the same check fails where the problem exists.
"""

from __future__ import annotations

import re
import socket
import urllib.error
import urllib.request
import xml.etree.ElementTree as ElementTree
from urllib.parse import urljoin

import pytest

from site_server import build, serve

SUB_PATH = "/guide/"
REPO_URL = "https://github.com/example-owner/directml-guide"


# Every URL a browser loads for the page or a reader follows from it: stylesheets, scripts, images, icons, links.
URL_ATTRIBUTE = re.compile(r'<(?:link|script|img|a)\b[^>]*?\s(?:href|src)="([^"]+)"')


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


@pytest.fixture(scope="module")
def subpath_build(built_site, tmp_path_factory):
    """(port, site folder, the build's result): the run's second and last full build, with the deploy workflow's
    URL variables; the port is chosen first, so SITE_URL can name it. It asks for built_site so that it runs after
    the first build, whose notebook cache it should reuse."""
    port = _free_port()
    site = tmp_path_factory.mktemp("subpath-site")
    result = build(site, SITE_URL=f"http://127.0.0.1:{port}{SUB_PATH}", REPO_URL=REPO_URL, EDIT_URI="edit/main/docs/")
    assert result.returncode == 0, result.stdout + result.stderr
    return port, site, result


@pytest.fixture(scope="module", params=["with SITE_URL", "local build"])
def served(request, built_site):
    """(origin + SUB_PATH, site folder, whether SITE_URL was set) for a running server that answers as Pages
    does (tests/site_server.py). The local build is the run's shared one (tests/conftest.py's built_site), built
    without the URL variables."""
    with_url = request.param == "with SITE_URL"
    port, site, _ = request.getfixturevalue("subpath_build") if with_url else (0, built_site.path, None)
    with serve(site, SUB_PATH, port) as base:
        yield base, site, with_url


def broken_urls_from_a_missing_page(base: str) -> list[str]:
    """The assets and same-site links of the 404 page, as a browser at a deep missing URL resolves them,
    that do not load."""
    missing = urljoin(base, "no/such/page/")
    status, body = _get(missing)
    assert status == 404 and b"404" in body, status
    found = URL_ATTRIBUTE.findall(body.decode("utf-8"))
    assert any(u.endswith(".css") for u in found), "404.html references no stylesheet"
    origin = urljoin(base, "/")
    urls = [urljoin(missing, u) for u in found]
    local = sorted({u.split("#")[0] for u in urls if u.startswith(origin)})
    assert local, "404.html has no same-site asset or link"
    return [u for u in local if _get(u)[0] != 200]


def test_404_page_loads_its_assets_and_links_under_a_sub_path(served):
    base, _, with_url = served
    broken = broken_urls_from_a_missing_page(base)
    if with_url:
        assert broken == []
    else:
        # Without site_url, MkDocs writes them from the server root: /assets/... is not the site.
        assert any("/assets/" in u for u in broken), broken


def test_sitemap_lists_every_page(served):
    base, site, with_url = served
    status, body = _get(urljoin(base, "sitemap.xml"))
    assert status == 200
    namespace = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    listed = {loc.text for loc in ElementTree.fromstring(body).findall("s:url/s:loc", namespace)}
    pages = {
        urljoin(base, page.parent.relative_to(site).as_posix() + "/").replace("/./", "/")
        for page in site.rglob("index.html")
        if page.relative_to(site).parts[0] not in {"assets", "search"}
    }
    assert urljoin(base, "verification/") in pages and base in pages
    if not with_url:
        assert listed == set(), "a sitemap without site_url has no absolute URLs"
        return
    assert listed == pages
    assert all(_get(url)[0] == 200 for url in sorted(listed))


def test_repository_and_edit_links_come_only_from_the_workflow(served):
    base, site, with_url = served
    page = (site / "verification" / "index.html").read_text(encoding="utf-8")
    edit = f'href="{REPO_URL}/edit/main/docs/verification.md"'
    canonical = f'<link rel="canonical" href="{urljoin(base, "verification/")}">'
    if with_url:
        assert f'href="{REPO_URL}"' in page and edit in page and canonical in page
    else:
        assert REPO_URL not in page and 'rel="canonical"' not in page


def test_a_second_build_reuses_both_rendered_notebooks(subpath_build):
    """mkdocs-jupyter's cache serves both languages' notebooks (docs/hooks/guide/i18n.py keeps the other
    one's entry): the sub-path build, right after built_site, converts no notebook again."""
    *_, result = subpath_build
    output = result.stdout + result.stderr
    hits = re.findall(r"Cache hit: \S+?(train-mnist-notebook(?:\.zh)?\.ipynb)", output)
    assert sorted(hits) == ["train-mnist-notebook.ipynb", "train-mnist-notebook.zh.ipynb"], output[-2000:]
    assert "Cache miss" not in output, output[-2000:]
