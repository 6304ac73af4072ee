#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Installs the build into a temporary root (DESTDIR) and checks the layout a desktop expects, validates the
desktop entry, the AppStream metainfo and the MIME package, and, where dpkg-deb is present, builds the .deb with
CPack and checks its Depends and its files.

usage: check_install.py BUILD_DIR APP_ID CUPTI_BUILT(0|1) SANITIZED(0|1) GUI_BUILT(0|1)

Two packages: plumb (the CLI; its Depends name no GUI library) and, with the GUI, plumb-ui (the window, its
desktop integration, icons, guide and samples; it depends on plumb).

In a sanitized build (scripts/dev test) the binaries also need the ASan/UBSan runtimes, which a
package built from it would not depend on: those are left out of the Depends check.
"""
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

build, app_id, cupti = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
sanitized = len(sys.argv) > 4 and sys.argv[4] == "1"
gui = len(sys.argv) <= 5 or sys.argv[5] == "1"
# Packages that bring a GUI library: the plumb package must depend on none.
GUI_PACKAGES = re.compile(r"^(libqt6(gui|widgets|opengl|printsupport)|qt6-qpa-plugins|libqcustomplot|libx|libgl|libegl|libopengl)")
SANITIZER_RUNTIMES = re.compile(r"lib(asan|ubsan|lsan|tsan)\.so")
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)
        print("FAIL:", what)


def run(*cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


ICON_SIZES = (16, 24, 32, 48, 64, 128, 256, 512)
MIME_GLOBS = {"*.plumb", "*.pt.trace.json", "*.pt.trace.json.gz", "*.xplane.pb", "events.out.tfevents.*"}


def cli_files(prefix):
    files = [
        f"{prefix}/bin/plumb",
        f"{prefix}/share/doc/plumb/README.md",
        f"{prefix}/share/doc/plumb/docs/json.md",
        f"{prefix}/share/doc/plumb/copyright",
        f"{prefix}/lib/python3/dist-packages/plumb/__init__.py",  # the Python package, for the system Python
        f"{prefix}/lib/python3/dist-packages/plumb/hta/trace_analysis.py",
    ]
    if cupti:
        files.append(f"{prefix}/lib/libplumb_cupti.so")
    return files


def ui_files(prefix):
    if not gui:
        return []
    files = [
        f"{prefix}/bin/plumb-ui",
        f"{prefix}/share/applications/{app_id}.desktop",
        f"{prefix}/share/metainfo/{app_id}.metainfo.xml",
        f"{prefix}/share/mime/packages/{app_id}.xml",
        f"{prefix}/share/icons/hicolor/scalable/apps/{app_id}.svg",
        f"{prefix}/share/doc/plumb/guide/index.html",
        f"{prefix}/share/doc/plumb-ui/copyright",
        f"{prefix}/share/plumb/samples/sample_training_step.pt.trace.json.gz",
        f"{prefix}/share/plumb/samples/sample_sweep/version_0/metrics.csv",
        f"{prefix}/share/plumb/samples/sample_sweep/version_0/hparams.yaml",
    ]
    return files + [f"{prefix}/share/icons/hicolor/{n}x{n}/apps/{app_id}.png" for n in ICON_SIZES]


def expected_files(prefix):
    return cli_files(prefix) + ui_files(prefix)


def png_size(path):
    with open(path, "rb") as f:
        head = f.read(24)
    check(head[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is a PNG")
    return struct.unpack(">II", head[16:24])


def check_tree(root, prefix):
    for path in expected_files(prefix):
        check(os.path.isfile(root + path), f"installed {path}")
    check(os.access(root + prefix + "/bin/plumb", os.X_OK), "bin/plumb is executable")
    if gui:
        check(os.access(root + prefix + "/bin/plumb-ui", os.X_OK), "bin/plumb-ui is executable")
    for n in ICON_SIZES:
        path = f"{root}{prefix}/share/icons/hicolor/{n}x{n}/apps/{app_id}.png"
        if os.path.isfile(path):
            check(png_size(path) == (n, n), f"{n}x{n} icon is {n}x{n} pixels")
    # The SVG in resources/icons is what the icon generator draws the PNGs from.
    drawn = f"{build}/resources/icons/{app_id}.svg"
    svg = f"{root}{prefix}/share/icons/hicolor/scalable/apps/{app_id}.svg"
    if os.path.isfile(drawn) and os.path.isfile(svg):
        check(open(drawn, "rb").read() == open(svg, "rb").read(),
              f"resources/icons/{app_id}.svg is plumb_icongen's output (copy {drawn} there)")
    # The guide (rendered from docs/guide.md) with its images and the pages it links to installed beside it,
    # as its relative links expect.
    guide = f"{root}{prefix}/share/doc/plumb/guide/index.html"
    if os.path.isfile(guide):
        html = open(guide, encoding="utf-8").read()
        check("<title>Plumb User Guide</title>" in html, "the installed guide is docs/guide.md rendered")
        for src in re.findall(r'src="([^"]+)"', html):
            check(os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(guide), src))), f"guide image {src} installed")
        for href in re.findall(r'href="([^"#:]+)(?:#[^"]*)?"', html):
            check(os.path.isfile(os.path.normpath(os.path.join(os.path.dirname(guide), href))), f"guide link {href} installed")


def check_desktop(path):
    entry = {}
    for line in open(path, encoding="utf-8"):
        if "=" in line and not line.startswith("#"):
            k, v = line.rstrip("\n").split("=", 1)
            entry[k] = v
    check(entry.get("Icon") == app_id, "desktop Icon is the app id")
    check(entry.get("Exec", "").startswith("plumb-ui "), "desktop Exec runs plumb-ui")
    return [m for m in entry.get("MimeType", "").split(";") if m]


def check_mime(path, desktop_types):
    ns = {"m": "http://www.freedesktop.org/standards/shared-mime-info"}
    root = ET.parse(path).getroot()
    globs, types = set(), set()
    for t in root.findall("m:mime-type", ns):
        types.add(t.get("type"))
        globs |= {g.get("pattern") for g in t.findall("m:glob", ns)}
    check(MIME_GLOBS <= globs, f"MIME globs {sorted(MIME_GLOBS - globs)} declared")
    check(types <= set(desktop_types), "the desktop entry opens every MIME type the package declares")
    check("application/vnd.sqlite3" in desktop_types, "the desktop entry opens SQLite files (Nsight exports)")


def needed_libraries(binary):
    if shutil.which("readelf"):
        return re.findall(r"\(NEEDED\)\s+Shared library: \[([^\]]+)\]", run("readelf", "-d", binary).stdout)
    return re.findall(r"^\s*NEEDED\s+(\S+)", run("objdump", "-p", binary).stdout, re.M)


def package_of(soname):
    for line in run("ldconfig", "-p").stdout.splitlines():
        if line.strip().startswith(soname + " "):
            path = line.split("=>")[-1].strip()
            owner = run("dpkg", "-S", os.path.realpath(path))
            if owner.returncode != 0:
                owner = run("dpkg", "-S", path)
            if owner.returncode == 0:
                return owner.stdout.split(":")[0].strip()
    return None


def check_package(deb, name, binary, files):
    fields = {f: run("dpkg-deb", "-f", deb, f).stdout.strip() for f in ("Package", "Depends", "Section", "Maintainer", "Description")}
    check(fields["Package"] == name, f"Package: {name}")
    check(fields["Section"] == "devel", f"{name}: Section: devel")
    check("@" in fields["Maintainer"], f"{name}: a Maintainer with an address")
    check(len(fields["Description"].splitlines()) > 2, f"{name}: a long Description")
    depends = {d.split()[0] for d in fields["Depends"].split(", ")}
    for pkg in ("libqt6core6", "libsqlite3-0", "libprotobuf32", "zlib1g"):
        check(pkg in depends, f"{name}: Depends names {pkg}")
    if name == "plumb":
        gui_deps = sorted(d for d in depends if GUI_PACKAGES.match(d))
        check(not gui_deps, f"plumb's Depends name no GUI package ({gui_deps})")
    else:
        for pkg in ("plumb", "libqt6widgets6", "libqcustomplot2.1-qt6", "qt6-qpa-plugins"):
            check(pkg in depends, f"{name}: Depends names {pkg}")
    # Every library the binary needs comes from a package it depends on.
    if shutil.which("dpkg"):
        for soname in needed_libraries(binary):
            if sanitized and SANITIZER_RUNTIMES.match(soname):
                continue
            pkg = package_of(soname)
            check(pkg is None or pkg in depends, f"{name}: {soname} (from {pkg}) is in Depends: {fields['Depends']}")
    listing = run("dpkg-deb", "-c", deb).stdout
    for path in files:
        check(path in listing, f"the {name} .deb holds {path}")


def check_deb(root_bin):
    out_dir = tempfile.mkdtemp(prefix="plumb-deb-")
    try:
        r = run("cpack", "-G", "DEB", "-B", out_dir, cwd=build)
        check(r.returncode == 0, "cpack -G DEB succeeds: " + r.stdout[-2000:] + r.stderr[-2000:])
        debs = sorted(f for f in os.listdir(out_dir) if f.endswith(".deb"))
        names = ["plumb", "plumb-ui"] if gui else ["plumb"]
        check(len(debs) == len(names), f"{len(names)} .deb written ({debs})")
        for name in names:
            deb = [d for d in debs if re.fullmatch(re.escape(name) + r"_[0-9.]+_[a-z0-9]+\.deb", d)]
            check(len(deb) == 1, f"{name}_VERSION_ARCH.deb written ({debs})")
            if deb:
                check_package(os.path.join(out_dir, deb[0]), name, f"{root_bin}/{name}",
                              cli_files("./usr") if name == "plumb" else ui_files("./usr"))
    finally:
        shutil.rmtree(out_dir, ignore_errors=True)


root = tempfile.mkdtemp(prefix="plumb-install-")
try:
    prefix = "/usr"
    r = run("cmake", "--install", build, "--prefix", prefix, env=dict(os.environ, DESTDIR=root))
    check(r.returncode == 0, "cmake --install succeeds: " + r.stderr[-2000:])
    check_tree(root, prefix)
    share = root + prefix + "/share"
    desktop = f"{share}/applications/{app_id}.desktop"
    types = check_desktop(desktop) if os.path.isfile(desktop) else []
    if not gui:
        pass
    elif shutil.which("desktop-file-validate"):
        r = run("desktop-file-validate", desktop)
        check(r.returncode == 0 and not r.stdout.strip(), "desktop-file-validate: " + r.stdout + r.stderr)
    else:  # never skipped: the README's test command (scripts/dev test) installs it
        check(False, "desktop-file-validate is not installed (Debian package desktop-file-utils; scripts/dev installs it)")
    mime = f"{share}/mime/packages/{app_id}.xml"
    if os.path.isfile(mime):
        check_mime(mime, types)
    metainfo = f"{share}/metainfo/{app_id}.metainfo.xml"
    if gui and os.path.isfile(metainfo):
        check("<project_license>GPL-3.0-or-later</project_license>" in open(metainfo, encoding="utf-8").read(),
              "the metainfo names the project licence GPL-3.0-or-later")
    copyright_file = f"{share}/doc/plumb/copyright"
    if os.path.isfile(copyright_file):
        check("GPL-3.0-or-later" in open(copyright_file, encoding="utf-8").read(), "the copyright file names the licence")
    if not gui:
        pass
    elif shutil.which("appstreamcli"):
        r = run("appstreamcli", "validate", "--no-net", metainfo)
        check(r.returncode == 0, "appstreamcli validate --no-net: " + r.stdout + r.stderr)
    else:  # never skipped, likewise
        check(False, "appstreamcli is not installed (Debian package appstream; scripts/dev installs it)")
    if shutil.which("dpkg-deb") and shutil.which("cpack"):
        check_deb(root + prefix + "/bin")
    else:
        print("SKIP the .deb: dpkg-deb not installed")
finally:
    shutil.rmtree(root, ignore_errors=True)

print(f"{len(failures)} failure(s)" if failures else "package layout OK")
sys.exit(1 if failures else 0)
