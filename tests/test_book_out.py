"""``durak-spec book --out DIR`` never deletes what it did not create (issue 21, item 3).

The book replaces its folder whole, so it only replaces a folder it built (one carrying its
marker file), a new or an empty one; a folder of other files, a symbolic link (never
followed), a file or a device is refused before anything is built, with one line and exit
code 2. The command lines run as a user types them; the replacement of a folder that a
build made is tested on :func:`install_site` with a folder of fake pages (no Jupyter Book).

Runtime: about 3 s (a few command starts).
"""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import unprivileged

from durak_spec.book.build import MARKER, install_site, out_problem
from durak_spec.book.site import BookError


def _book(out: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "durak_spec", "book", "--out", str(out)],
                          capture_output=True, text=True, timeout=120, cwd=cwd, check=False)


def _refused(done: subprocess.CompletedProcess[str], words: str) -> None:
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1, done.stderr
    assert done.stderr.startswith("durak-spec book: error: ") and words in done.stderr
    assert "building" not in done.stderr  # refused before the build started


def _users_folder(path: Path) -> Path:
    path.mkdir()
    (path / "thesis.txt").write_text("years of work", encoding="utf-8")
    (path / "sub").mkdir()
    (path / "sub" / "data.csv").write_text("1,2,3", encoding="utf-8")
    return path


def _intact(path: Path) -> None:
    assert (path / "thesis.txt").read_text(encoding="utf-8") == "years of work"
    assert (path / "sub" / "data.csv").read_text(encoding="utf-8") == "1,2,3"


def test_a_folder_of_someone_elses_files_is_refused_and_kept(tmp_path: Path) -> None:
    folder = _users_folder(tmp_path / "mine")
    _refused(_book(folder, tmp_path), "did not write")
    _intact(folder)
    _refused(_book("mine", tmp_path), "did not write")  # a relative path too
    _intact(folder)


def test_a_symbolic_link_is_never_followed(tmp_path: Path) -> None:
    folder = _users_folder(tmp_path / "mine")
    (tmp_path / "link").symlink_to(folder)
    _refused(_book(tmp_path / "link", tmp_path), "symbolic link")
    _intact(folder)
    # not even to a folder that a build made: the link is refused, not what it points to
    built = tmp_path / "built"
    built.mkdir()
    (built / MARKER).write_text("", encoding="utf-8")
    (built / "index.html").write_text("old", encoding="utf-8")
    (tmp_path / "to-built").symlink_to(built)
    _refused(_book(tmp_path / "to-built", tmp_path), "symbolic link")
    assert (built / "index.html").read_text(encoding="utf-8") == "old"


def test_a_file_or_a_device_is_refused(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("keep", encoding="utf-8")
    _refused(_book(tmp_path / "notes.txt", tmp_path), "not a folder")
    assert (tmp_path / "notes.txt").read_text(encoding="utf-8") == "keep"
    _refused(_book("/dev/null", tmp_path), "not a folder")
    assert Path("/dev/null").is_char_device()


def test_a_marker_that_is_not_a_file_does_not_count(tmp_path: Path) -> None:
    folder = _users_folder(tmp_path / "mine")
    (tmp_path / "elsewhere").write_text("", encoding="utf-8")
    (folder / MARKER).symlink_to(tmp_path / "elsewhere")
    assert out_problem(folder) is not None
    (folder / MARKER).unlink()
    (folder / MARKER).mkdir()
    assert out_problem(folder) is not None
    _intact(folder)


def test_a_folder_that_cannot_be_made_is_refused_up_front(tmp_path: Path) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    try:
        done = subprocess.run([*unprivileged(), sys.executable, "-m", "durak_spec", "book",
                               "--out", str(locked / "site")], capture_output=True,
                              text=True, timeout=120, cwd=tmp_path, check=False)
        _refused(done, "cannot be written")
        assert list(locked.iterdir()) == []
    finally:
        locked.chmod(0o755)


def _pages(path: Path, text: str) -> Path:
    path.mkdir()
    (path / "index.html").write_text(text, encoding="utf-8")
    (path / "_static").mkdir()
    (path / "_static" / "style.css").write_text(text, encoding="utf-8")
    return path


def test_a_new_an_empty_and_a_built_folder_are_written(tmp_path: Path) -> None:
    first, second = _pages(tmp_path / "first", "one"), _pages(tmp_path / "second", "two")
    new = tmp_path / "deep" / "new"
    install_site(first, new)
    assert (new / "index.html").read_text(encoding="utf-8") == "one"
    assert (new / MARKER).is_file()
    (new / "stale.html").write_text("from an older build", encoding="utf-8")
    install_site(second, new)  # it carries the marker: replaced whole
    assert (new / "index.html").read_text(encoding="utf-8") == "two"
    assert not (new / "stale.html").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    install_site(first, empty)
    assert (empty / "index.html").read_text(encoding="utf-8") == "one"
    # nothing is left beside the folders (the staging folder is gone)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["deep", "empty", "first", "second"]
    assert sorted(p.name for p in (tmp_path / "deep").iterdir()) == ["new"]


def test_a_link_inside_a_built_folder_is_removed_not_followed(tmp_path: Path) -> None:
    mine = _users_folder(tmp_path / "mine")
    out = tmp_path / "out"
    install_site(_pages(tmp_path / "first", "one"), out)
    (out / "shortcut").symlink_to(mine)
    install_site(_pages(tmp_path / "second", "two"), out)
    assert not (out / "shortcut").exists()
    _intact(mine)


def test_install_site_checks_again_just_before_it_replaces(tmp_path: Path) -> None:
    folder = _users_folder(tmp_path / "mine")
    with pytest.raises(BookError, match="did not write"):
        install_site(_pages(tmp_path / "pages", "one"), folder)
    _intact(folder)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mine", "pages"]


def test_a_stopped_build_stops_everything_it_started(tmp_path: Path) -> None:
    """``kill PID`` (SIGTERM) during ``durak-spec book``: Jupyter Book and the kernel that
    runs the examples stop with it (they kept building, orphaned), the command says it
    stopped and exits 143, and the output folder is not made."""
    psutil = pytest.importorskip("psutil")
    out = tmp_path / "site"
    build = subprocess.Popen([sys.executable, "-m", "durak_spec", "book", "--out", str(out)],
                             stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        me = psutil.Process(build.pid)
        # wait until the kernel that runs the book's code is up: the deepest process
        family: list[Any] = []
        for _ in range(600):  # at most 5 minutes on a busy machine
            family = me.children(recursive=True)
            if any("ipykernel" in " ".join(p.cmdline()) for p in family
                   if p.is_running()):
                break
            if build.poll() is not None:
                pytest.fail(f"the build ended before its kernel started: {build.returncode}")
            time.sleep(0.5)
        else:
            pytest.fail("the build's kernel did not start within 5 minutes")
        build.terminate()
        _, err = build.communicate(timeout=60)
    finally:
        if build.poll() is None:
            build.kill()
    assert build.returncode == 143, err
    assert "stopped" in err and "Traceback" not in err, err
    _gone, alive = psutil.wait_procs(family, timeout=30)
    left = [" ".join(p.cmdline())[:120] for p in alive if p.status() != psutil.STATUS_ZOMBIE]
    assert not left, left
    assert not out.exists()
