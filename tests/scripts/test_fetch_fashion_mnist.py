""".github/scripts/fetch_fashion_mnist.py, the workflows' data fetcher: checksums, mirror fallback, cache, one-line errors.

Nothing leaves this machine: the mirrors are a local HTTP server on 127.0.0.1 and file:// URLs that serve
Debian's copy of the files, damaged copies, and nothing at all.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import http.server
import threading

import pytest

import fetch_fashion_mnist as fetcher
from guide_harness import ROOT, assert_one_line_error, run_python
from run_requirements import skip_or_fail

SCRIPT = ROOT / ".github" / "scripts" / "fetch_fashion_mnist.py"


@pytest.fixture(scope="module")
def debian_files():
    files = {name: fetcher.SOURCE / f"{name}.gz" for name in fetcher.FILES}
    if not all(path.is_file() for path in files.values()):
        skip_or_fail("data", f"Debian's dataset-fashion-mnist is not in {fetcher.SOURCE}")
    return files


def test_checksums_are_those_of_the_real_files(debian_files):
    for name, path in debian_files.items():
        content = gzip.decompress(path.read_bytes())
        sha256, size, _ = fetcher.FILES[name]
        assert (hashlib.sha256(content).hexdigest(), len(content)) == (sha256, size), name
        assert fetcher.check(name, path.read_bytes()) is None


def test_gzip_md5s_are_torchvisions():
    """Cross-check: the upstream .gz MD5s the script reports against are the ones torchvision ships."""
    import torchvision

    published = {
        url.rsplit("/", 1)[-1].removesuffix(".gz"): md5 for url, md5 in torchvision.datasets.FashionMNIST.resources
    }
    assert published == {name: md5 for name, (_, _, md5) in fetcher.FILES.items()}


def test_check_rejects_damaged_copies(debian_files):
    good = debian_files["t10k-labels-idx1-ubyte"].read_bytes()
    content = gzip.decompress(good)
    assert "not a gzip file" in fetcher.check("t10k-labels-idx1-ubyte", b"<html>404</html>")
    assert "wrong size" in fetcher.check("t10k-labels-idx1-ubyte", good[: len(good) // 2])  # truncated
    assert fetcher.check("t10k-labels-idx1-ubyte", gzip.compress(content[:-1] + b"\x07")) == "SHA-256 mismatch"
    assert "wrong size" in fetcher.check("t10k-labels-idx1-ubyte", gzip.compress(content + b"\x00"))
    # Another file's bytes under this name.
    assert fetcher.check("t10k-labels-idx1-ubyte", debian_files["train-labels-idx1-ubyte"].read_bytes())


@pytest.fixture
def mirrors(tmp_path, debian_files):
    """A local server with three mirrors: /damaged/ (bad bytes), /empty/ (404s) and /good/ (Debian's files)."""
    served = tmp_path / "served"
    for folder in ("damaged", "empty", "good"):
        (served / folder).mkdir(parents=True)
    for path in debian_files.values():
        (served / "good" / path.name).write_bytes(path.read_bytes())
        (served / "damaged" / path.name).write_bytes(gzip.compress(b"not Fashion-MNIST"))
    requests = []

    class Handler(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            requests.append(self.path)

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Handler, directory=str(served)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    yield {
        "damaged": f"{base}/damaged/",
        "empty": f"{base}/empty/",
        "good": f"{base}/good/",
        "requests": requests,
        "served": served,
    }
    server.shutdown()
    server.server_close()


def test_falls_back_to_the_next_mirror_and_verifies(mirrors, tmp_path, debian_files):
    dest = tmp_path / "dest"
    log = []
    fetched = fetcher.fetch(dest, (mirrors["damaged"], mirrors["empty"], mirrors["good"]), log=log.append)
    assert fetched == list(fetcher.FILES)
    for path in debian_files.values():
        assert (dest / path.name).read_bytes() == path.read_bytes()
    text = "\n".join(log)
    assert text.count("SHA-256 mismatch") == 0 and text.count("wrong size") == 4  # the damaged mirror
    assert text.count("HTTPError") == 4  # the empty mirror
    assert text.count("SHA-256 verified") == 4
    assert sorted(p.name for p in dest.iterdir()) == sorted(p.name for p in debian_files.values())


def test_intact_files_are_not_downloaded_again(mirrors, tmp_path, debian_files):
    dest = tmp_path / "dest"
    fetcher.fetch(dest, (mirrors["good"],), log=lambda line: None)
    mirrors["requests"].clear()
    # A damaged cached file is replaced; the intact ones are kept without a request.
    (dest / "train-labels-idx1-ubyte.gz").write_bytes(b"truncated")
    assert fetcher.fetch(dest, (mirrors["good"],), log=lambda line: None) == ["train-labels-idx1-ubyte"]
    assert mirrors["requests"] == ["/good/train-labels-idx1-ubyte.gz"]


def test_file_urls_work_as_mirrors(tmp_path, debian_files):
    source = next(iter(debian_files.values())).parent
    result = run_python(
        [str(SCRIPT), str(tmp_path / "dest"), "--mirror", (tmp_path / "none").as_uri(), "--mirror", source.as_uri()],
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr
    assert "Fashion-MNIST ready in" in result.stdout and "(4 downloaded, 0 cached)" in result.stdout


def test_no_intact_copy_anywhere_is_one_line_and_leaves_nothing(mirrors, tmp_path):
    dest = tmp_path / "dest"
    result = run_python(
        [str(SCRIPT), str(dest), "--mirror", mirrors["damaged"], "--mirror", mirrors["empty"]], cwd=tmp_path
    )
    assert_one_line_error(
        result, "no mirror served an intact train-images-idx3-ubyte.gz", "/damaged/", "/empty/", "HTTP Error 404"
    )
    assert list(dest.iterdir()) == []  # no damaged or partial file under any name
