"""Build the site and serve it on 127.0.0.1, as a static host would: for the browser tests and Lighthouse.

The server answers a missing path with the site's 404.html and status 404 (as GitHub Pages does),
and serves the site under the path of mkdocs.yml's ``site_url`` (``/`` when it has none), so the 404
page's absolute links resolve as they will when published.
"""

from __future__ import annotations

import contextlib
import functools
import gzip
import http.server
import io
import os
import subprocess
import sys
import threading
from pathlib import Path
from urllib.parse import urlsplit

from guide_harness import ROOT, clean_env, mkdocs_config

CHROMIUM = Path(os.environ.get("CHROMIUM", "/usr/bin/chromium"))


class BuildError(RuntimeError):
    pass


# Where the site's variable URLs come from (mkdocs.yml's ``!ENV``): the deploy workflow sets them, a local
# build has none. A build here sets them only when asked, so a developer's shell cannot change the site.
URL_VARIABLES = ("SITE_URL", "REPO_URL", "EDIT_URI")

# Every full build of this checkout's site in this process: (site folder, the URL variables it was given).
# tests/run_summary.py prints them and fails a test run that builds more than MAX_BUILDS times.
BUILDS: list[tuple[Path, dict[str, str]]] = []
MAX_BUILDS = 2  # the shared site (tests/conftest.py's built_site) and the sub-path build with SITE_URL


def build(site_dir: Path, **urls: str) -> subprocess.CompletedProcess:
    """``mkdocs build --strict`` of this checkout into ``site_dir``, with only the URL variables given
    (SITE_URL=..., REPO_URL=..., EDIT_URI=...); counted in BUILDS. Material's end-of-life notice stays on."""
    unknown = set(urls) - set(URL_VARIABLES)
    if unknown:
        raise ValueError(f"not a URL variable of mkdocs.yml: {sorted(unknown)}")
    BUILDS.append((site_dir, dict(urls)))
    env = {k: v for k, v in clean_env(**urls).items() if k in urls or k not in URL_VARIABLES}
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip


def build_site(site_dir: Path, **urls: str) -> Path:
    """build(), for scripts: ``site_dir``, or BuildError with MkDocs' output if the build fails."""
    result = build(site_dir, **urls)
    if result.returncode != 0:
        raise BuildError(result.stdout + result.stderr)
    return site_dir


def base_path() -> str:
    """The path the site lives under: '/' or '/repo/' from site_url."""
    path = urlsplit(mkdocs_config().get("site_url") or "/").path or "/"
    return path if path.endswith("/") else path + "/"


COMPRESSED = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".map"}


class _Handler(http.server.SimpleHTTPRequestHandler):
    prefix = "/"

    def log_message(self, *args):  # keep the test output quiet
        pass

    def translate_path(self, path):
        path = urlsplit(path).path
        if not path.startswith(self.prefix):
            return str(Path(self.directory) / "__outside_the_site__")
        return super().translate_path("/" + path[len(self.prefix) :])

    def send_head(self):
        target = Path(self.translate_path(self.path))
        if target.is_dir() and not self.path.split("?")[0].endswith("/"):
            return super().send_head()  # the usual redirect to the slash-terminated URL
        if not (target.is_file() or (target / "index.html").is_file()):
            page = (Path(self.directory) / "404.html").read_bytes()
            self.send_response(404)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(page)))
            self.end_headers()
            return io.BytesIO(page)
        if target.is_dir():
            target = target / "index.html"
        if target.suffix in COMPRESSED and "gzip" in self.headers.get("Accept-Encoding", ""):
            # Compressed as GitHub Pages and other static hosts send text files.
            body = gzip.compress(target.read_bytes(), 6)
            self.send_response(200)
            self.send_header("Content-Type", self.guess_type(str(target)))
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            return io.BytesIO(body)
        return super().send_head()


class _Server(http.server.ThreadingHTTPServer):
    def handle_error(self, request, client_address):
        """A browser that closes a connection mid-answer (a test's page closed) is no error of the site's:
        socketserver would print its BrokenPipeError traceback into the run's log."""
        if not isinstance(sys.exc_info()[1], ConnectionError):
            super().handle_error(request, client_address)


@contextlib.contextmanager
def serve(site_dir: Path, prefix: str | None = None, port: int = 0):
    """Serve ``site_dir`` under ``prefix`` (default: site_url's path) on ``port`` of 127.0.0.1 (default: a
    free one); yields the site's base URL."""
    prefix = prefix or base_path()
    handler = functools.partial(type("Handler", (_Handler,), {"prefix": prefix}), directory=str(site_dir))
    server = _Server(("127.0.0.1", port), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}{prefix}"
    finally:
        server.shutdown()
        server.server_close()


def page_urls(site_dir: Path) -> list[str]:
    """Every page of the site, as paths relative to the base URL ('' for the home page)."""
    pages = []
    for index in sorted(site_dir.rglob("index.html")):
        relative = index.parent.relative_to(site_dir).as_posix()
        if relative.startswith(("assets", "search")):
            continue
        pages.append("" if relative == "." else relative + "/")
    return pages


def npm_tools() -> Path | None:
    """tests/browser/node_modules, installed by `npm ci` there; None when it is missing."""
    modules = ROOT / "tests" / "browser" / "node_modules"
    return modules if (modules / "axe-core" / "axe.min.js").is_file() else None


def chromium_missing() -> str | None:
    """Why the browser tests cannot run here, or None."""
    if not CHROMIUM.is_file():
        return f"no Chromium at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)"
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "Playwright for Python is not installed (pip install --group test)"
    if npm_tools() is None:
        return "axe-core is not installed: run `npm ci` in tests/browser"
    return None
