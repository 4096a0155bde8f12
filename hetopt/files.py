"""Output files written safely: never over an existing file unless asked, never through a link, atomically.

:func:`check_output` refuses, naming the option, a path that would be overwritten or followed
silently; :func:`write_atomic` writes to a temporary file in the target's directory and renames it
onto the target, so that no reader (and no crash) ever sees a half-written file.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from .errors import ArgumentError

__all__ = ["check_output", "output_dir", "write_atomic"]


def check_output(path: str | Path, *, option: str, force: bool = False, force_option: str = "--force",
                 inputs: Iterable[str | Path] = ()) -> Path:
    """``path`` as a file that may be written; ArgumentError naming ``option`` otherwise.

    Refused: an empty path, a symbolic link (its target is never written through; even with
    ``force``), a directory, a path in a directory that does not exist, one of ``inputs`` (or a
    hard link to it; even with ``force``), and an existing file unless ``force``.
    """
    text = os.fspath(path)
    if not text.strip():
        raise ArgumentError(f"{option} is empty; expected the path of the file to write")
    out = Path(text)
    if out.is_symlink():
        raise ArgumentError(f"{option} {out} is a symbolic link; hetopt never writes through one: name the file "
                            "itself, or remove the link")
    if not out.parent.is_dir():
        raise ArgumentError(f"{option} {out}: the directory {out.parent} does not exist")
    if out.is_dir():
        raise ArgumentError(f"{option} {out} is a directory; expected the path of a file")
    for src in inputs:
        if out.exists() and Path(src).exists() and os.path.samefile(out, src):
            raise ArgumentError(f"{option} {out} is the input {src} (or a link to it); choose another path")
    if out.exists() and not force:
        raise ArgumentError(f"{option} {out} exists; {force_option} replaces it")
    return out


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def write_atomic(out: Path, write: Callable[[str], object], *, force: bool = False, suffix: str | None = None,
                 option: str = "the output", force_option: str = "--force") -> None:
    """Call ``write(tmp)`` on a temporary file beside ``out``, then rename it onto ``out``.

    ``suffix`` ends the temporary file's name (default ``out``'s own; writers that infer a format
    from it see the right one).  Without ``force`` a file that appeared at ``out`` meanwhile is not
    replaced (ArgumentError naming ``option``); a link that appeared is replaced, never followed.
    The file gets the permissions of a new file (``0o666`` less the umask); an OSError becomes an
    ArgumentError naming ``option``.
    """
    try:
        fd, tmp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=out.suffix if suffix is None
                                   else suffix)
    except OSError as exc:
        raise ArgumentError(f"cannot write {option} {out}: {exc.strerror}") from None
    os.close(fd)
    try:
        os.chmod(tmp, 0o666 & ~_umask())
        write(tmp)
        if force:
            os.replace(tmp, out)
        else:
            _link_new(tmp, out, option, force_option)
    except OSError as exc:
        raise ArgumentError(f"cannot write {option} {out}: {exc.strerror}") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _link_new(tmp: str, out: Path, option: str, force_option: str) -> None:
    """``tmp`` renamed to ``out`` only if ``out`` does not exist (a hard link fails on an existing name)."""
    try:
        os.link(tmp, out)
    except FileExistsError:
        raise ArgumentError(f"{option} {out} exists; {force_option} replaces it") from None
    except OSError:  # a file system without hard links: the check of check_output stands
        if os.path.lexists(out):
            raise ArgumentError(f"{option} {out} exists; {force_option} replaces it") from None
        os.replace(tmp, out)


def output_dir(path: str | Path, *, option: str) -> Path:
    """The directory ``path``, made if missing; ArgumentError naming ``option`` when it cannot be made or written."""
    text = os.fspath(path)
    if not text.strip():
        raise ArgumentError(f"{option} is empty; expected the path of a directory")
    out = Path(text)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ArgumentError(f"{option} {out}: cannot make the directory ({exc.strerror or exc})") from None
    if not os.access(out, os.W_OK | os.X_OK):
        raise ArgumentError(f"{option} {out}: the directory is not writable")
    return out
