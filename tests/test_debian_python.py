"""CI's tool that makes a venv of a Python pyenv lacks from Debian's packages
(tools/debian_python.py): reading the index, following the dependencies, checking what it
downloads, and refusing bad arguments. Nothing here reaches the network: CI's own use of
the tool (the suites under Python 3.14 and 3.15) is its end-to-end test.
"""

from __future__ import annotations

import hashlib
import http.client
import lzma
import shutil
from pathlib import Path

import pytest

from tests.helpers import load_script

ROOT = Path(__file__).resolve().parent.parent
tool = load_script(ROOT / "tools" / "debian_python.py", "debian_python")

INDEX = """\
Package: python3.99
Version: 3.99.1-1
Depends: libpython3.99-stdlib (= 3.99.1-1), python3.99-minimal, tzdata, media-types | mime-support
Filename: pool/main/p/python3.99/python3.99_3.99.1-1_amd64.deb
SHA256: 11

Package: python3.99-minimal
Version: 3.99.1-1
Pre-Depends: libc6 (>= 2.38)
Depends: libpython3.99-minimal (= 3.99.1-1), libexpat1 (>= 2.1~beta3), zlib1g:any (>= 1:1.2.0)
Filename: pool/main/p/python3.99/python3.99-minimal_3.99.1-1_amd64.deb
SHA256: 22

Package: libpython3.99-minimal
Depends: libc6 (>= 2.38)
Filename: pool/main/p/python3.99/libpython3.99-minimal_3.99.1-1_amd64.deb
SHA256: 33

Package: libpython3.99-stdlib
Depends: libffi8 | libffi-alt, libssl3t64, libpython3.99-minimal
Filename: pool/main/p/python3.99/libpython3.99-stdlib_3.99.1-1_amd64.deb
SHA256: 44

Package: libc6
Depends: libgcc-s1
Filename: pool/main/g/glibc/libc6_2.43-7_amd64.deb
SHA256: 55

Package: libgcc-s1
Depends: libc6 (>= 2.35), gcc-16-base (= 16.2.0-4)
Filename: pool/main/g/gcc-16/libgcc-s1_16.2.0-4_amd64.deb
SHA256: 66

Package: gcc-16-base
Description: GCC, the GNU Compiler Collection (base package)
 This package contains files common to all languages and libraries
 Package: not-a-package (a description's line, not a field)
Filename: pool/main/g/gcc-16/gcc-16-base_16.2.0-4_amd64.deb
SHA256: 77

Package: libssl3t64
Provides: libssl3 (= 3.6.5-1)
Filename: pool/main/o/openssl/libssl3t64_3.6.5-1_amd64.deb
SHA256: 88

Package: libffi8
Filename: pool/main/libf/libffi/libffi8_3.8.0-2_amd64.deb
SHA256: 99

Package: libexpat1
Filename: pool/main/e/expat/libexpat1_2.9.0-1_amd64.deb
SHA256: aa

Package: zlib1g
Filename: pool/main/z/zlib/zlib1g_1.3_amd64.deb
SHA256: bb
"""


def test_the_closure_follows_every_dependency_once_and_leaves_out_the_machines_own() -> None:
    packages = tool.parse_index(INDEX)
    found = [fields["Package"] for fields in tool.closure(packages, ["python3.99"])]
    # Pre-Depends too, a cycle (libc6 <-> libgcc-s1) once, the first of alternatives;
    # tzdata and media-types are the machine's.
    assert found == [
        "python3.99",
        "libpython3.99-stdlib",
        "python3.99-minimal",
        "libffi8",
        "libssl3t64",
        "libpython3.99-minimal",
        "libc6",
        "libexpat1",
        "zlib1g",
        "libgcc-s1",
        "gcc-16-base",
    ]


def test_a_name_another_package_provides_is_that_package() -> None:
    packages = tool.parse_index(INDEX)
    assert [f["Package"] for f in tool.closure(packages, ["libssl3"])] == ["libssl3t64"]


def test_a_dependency_the_index_lacks_is_named() -> None:
    packages = tool.parse_index(INDEX.replace("Package: libffi8\n", "Package: libffi9\n"))
    with pytest.raises(tool.NotAvailable, match="no package libffi8 or libffi-alt in the index"):
        tool.closure(packages, ["python3.99"])


def test_the_first_alternative_the_index_has_is_taken() -> None:
    packages = tool.parse_index(INDEX.replace("Package: libffi8\n", "Package: libffi-alt\n"))
    found = [fields["Package"] for fields in tool.closure(packages, ["libpython3.99-stdlib"])]
    assert found[:2] == ["libpython3.99-stdlib", "libffi-alt"]


def test_a_description_line_is_not_a_field() -> None:
    packages = tool.parse_index(INDEX)
    assert "not-a-package" not in packages
    assert packages["gcc-16-base"]["SHA256"] == "77"


def test_relations_name_their_packages_without_version_or_architecture() -> None:
    relations = tool._relations("zlib1g:any (>= 1:1.2.0), a | b:any, c(>=1) ,, libc6 (>= 2.38)")
    assert relations == [["zlib1g"], ["a", "b"], ["c"], ["libc6"]]


RELEASE = """\
Origin: Debian
Suite: unstable
MD5Sum:
 d70654e4ff73403c5076a564041f1484 10824484 main/binary-amd64/Packages.xz
SHA256:
 2847 10824484 main/binary-amd64/Packages.xz
 9f00 1234 main/binary-arm64/Packages.xz
Acquire-By-Hash: yes
"""


def test_the_release_gives_each_index_its_sha256() -> None:
    assert tool._signed_hashes(RELEASE) == {
        "main/binary-amd64/Packages.xz": "2847",
        "main/binary-arm64/Packages.xz": "9f00",
    }


def test_an_index_whose_sha256_is_not_the_signed_one_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    index = lzma.compress(INDEX.encode())
    digest = hashlib.sha256(index).hexdigest()
    monkeypatch.setattr(tool, "_download", lambda url: index)
    monkeypatch.setattr(tool, "_verified_release", lambda suite: RELEASE.replace("2847", digest))
    assert "python3.99" in tool._index("sid", "amd64")
    with pytest.raises(
        tool.NotAvailable, match=r"sid's main/binary-arm64/Packages\.xz: its SHA256"
    ):
        tool._index("sid", "arm64")  # another digest
    with pytest.raises(tool.NotAvailable, match=r"sid's main/binary-i386/Packages\.xz: its SHA256"):
        tool._index("sid", "i386")  # none signed


@pytest.mark.out_of_process  # runs gpgv
def test_a_release_without_a_good_signature_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    if shutil.which("gpgv") is None or not tool.KEYRING.is_file():
        pytest.skip("needs gpgv and Debian's archive keyring")
    monkeypatch.setattr(tool, "_download", lambda url: RELEASE.encode())
    with pytest.raises(tool.NotAvailable, match="sid's InRelease has no good signature by"):
        tool._verified_release("sid")


def test_a_download_whose_sha256_is_not_the_indexs_is_refused_and_not_unpacked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good, bad = b"a package", b"another"
    monkeypatch.setattr(tool, "_download", lambda url: bad if url.endswith("two.deb") else good)
    unpacked = []
    monkeypatch.setattr(tool.subprocess, "run", lambda command, check: unpacked.append(command[2]))
    packages = [
        {"Filename": "pool/one.deb", "SHA256": hashlib.sha256(good).hexdigest()},
        {"Filename": "pool/two.deb", "SHA256": hashlib.sha256(good).hexdigest()},
    ]
    with pytest.raises(tool.NotAvailable, match=r"pool/two\.deb: its SHA256 is not the index's"):
        tool.fetch(packages, tmp_path / "root")
    assert [Path(deb).name for deb in unpacked] == ["one.deb"]
    with pytest.raises(tool.NotAvailable, match="the index gives libx no Filename or SHA256"):
        tool.fetch([{"Package": "libx", "Filename": "pool/x.deb"}], tmp_path / "root")


@pytest.mark.parametrize("version", ["3", "3.14.1", "python3.14", "4.0x"])
def test_a_version_not_written_like_3_14_is_refused(
    version: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        tool.main([version, str(tmp_path / "new")])
    assert stopped.value.code == 2
    assert f"the version must be written like 3.14, not {version!r}" in capsys.readouterr().err


def test_an_existing_folder_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        tool.main(["3.14", str(tmp_path)])
    assert stopped.value.code == 2
    assert f"{tmp_path} exists: name a new folder" in capsys.readouterr().err


@pytest.mark.parametrize(
    "error",
    [
        tool.NotAvailable("Debian's sid and testing have no python3.99"),
        ConnectionRefusedError(111, "Connection refused"),
        http.client.IncompleteRead(b"part"),
        lzma.LZMAError("Input format not supported by decoder"),
        UnicodeDecodeError("utf-8", b"\xff", 0, 1, "invalid start byte"),
    ],
    ids=type,
)
def test_a_python_it_cannot_make_is_exit_status_1_with_the_reason(
    error: Exception,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def unavailable(version: str, dest: Path) -> Path:
        raise error

    monkeypatch.setattr(tool, "make_venv", unavailable)
    assert tool.main(["3.99", str(tmp_path / "new")]) == 1
    assert capsys.readouterr().err == f"debian_python: Python 3.99: {error}\n"


def test_the_venv_is_made_at_an_absolute_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # The loader's and libraries' paths patched into the interpreter must hold from any
    # folder, so a relative DEST is made absolute first.
    made = []

    def make_venv(version: str, dest: Path) -> Path:
        made.append(dest)
        return dest

    monkeypatch.setattr(tool, "make_venv", make_venv)
    monkeypatch.chdir(tmp_path)
    assert tool.main(["3.14", "relative"]) == 0
    assert made == [tmp_path.resolve() / "relative"]
    assert capsys.readouterr().out == f"{tmp_path.resolve() / 'relative'}\n"


def test_it_needs_dpkg_deb(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tool.shutil, "which", lambda name: None)
    with pytest.raises(tool.NotAvailable, match="needs Debian's dpkg-deb"):
        tool.make_venv("3.14", tmp_path / "new")
