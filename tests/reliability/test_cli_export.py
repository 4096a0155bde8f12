"""``hetopt export -o``: never over an existing file unless ``--force``, never through a link, atomically."""

from __future__ import annotations

import os

import pytest

from hetopt import cli
from hetopt.errors import ArgumentError
from hetopt.files import check_output, output_dir, write_atomic

SRC = "liu2024_table2"


def _refused(argv, capsys) -> str:
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err, err
    return err


def test_an_existing_file_is_refused_unless_force(tmp_path, capsys):
    out = tmp_path / "model.lp"
    out.write_text("unrelated\n")
    assert "--force" in _refused(["export", SRC, "-o", str(out)], capsys)
    assert out.read_text() == "unrelated\n"
    assert cli.main(["export", SRC, "-o", str(out), "--force"]) == 0
    assert out.read_text().startswith("\\*") and out.stat().st_size > 100
    assert [p.name for p in tmp_path.iterdir()] == ["model.lp"], "the temporary file is left behind"


def test_the_default_output_is_refused_when_it_exists(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{SRC}.lp").write_text("mine\n")
    assert "exists" in _refused(["export", SRC], capsys)
    assert (tmp_path / f"{SRC}.lp").read_text() == "mine\n"


@pytest.mark.parametrize("force", [False, True])
def test_a_symbolic_link_is_never_written_through(tmp_path, capsys, force):
    target = tmp_path / "precious.txt"
    target.write_text("keep me\n")
    link = tmp_path / "model.lp"
    link.symlink_to(target)
    dangling = tmp_path / "dangling.lp"
    dangling.symlink_to(tmp_path / "nowhere.lp")
    for out in (link, dangling):
        assert "symbolic link" in _refused(["export", SRC, "-o", str(out)] + ["--force"] * force, capsys)
    assert target.read_text() == "keep me\n" and not (tmp_path / "nowhere.lp").exists()


def test_a_directory_is_refused(tmp_path, capsys):
    assert "directory" in _refused(["export", SRC, "-o", str(tmp_path), "--force"], capsys)


def test_the_write_is_atomic(tmp_path):
    """A writer that fails half-way leaves the old file whole and no temporary file behind."""
    out = tmp_path / "model.lp"
    out.write_text("old\n")

    def half(tmp: str) -> None:
        with open(tmp, "w") as f:
            f.write("half")
        raise OSError(28, "No space left on device")

    with pytest.raises(ArgumentError, match="No space left"):
        write_atomic(out, half, force=True, option="-o")
    assert out.read_text() == "old\n" and os.listdir(tmp_path) == ["model.lp"]


def test_a_file_that_appears_meanwhile_is_not_replaced(tmp_path):
    out = check_output(tmp_path / "model.lp", option="-o")

    def racing(tmp: str) -> None:
        out.write_text("theirs\n")  # another process creates the file after the check
        with open(tmp, "w") as f:
            f.write("ours\n")

    with pytest.raises(ArgumentError, match="exists"):
        write_atomic(out, racing, option="-o")
    assert out.read_text() == "theirs\n" and os.listdir(tmp_path) == ["model.lp"]


def test_the_new_file_has_the_permissions_of_a_new_file(tmp_path):
    out = tmp_path / "a.txt"
    write_atomic(out, lambda tmp: open(tmp, "w").close(), option="-o")
    mask = os.umask(0o022)
    os.umask(mask)
    assert out.stat().st_mode & 0o777 == 0o666 & ~mask


def test_output_dir_refuses_what_it_cannot_make(tmp_path):
    with pytest.raises(ArgumentError, match="--out"):
        output_dir("/proc/x", option="--out")
    with pytest.raises(ArgumentError, match="--out is empty"):
        output_dir("", option="--out")
    f = tmp_path / "f"
    f.write_text("")
    with pytest.raises(ArgumentError, match="--out"):
        output_dir(f, option="--out")
    assert output_dir(tmp_path / "a" / "b", option="--out").is_dir()
