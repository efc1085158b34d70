"""Check that a built documentation site loads nothing from outside itself.

Usage: ``python docs/check_offline.py SITE_DIR`` -- exits 0 when every page works offline,
1 listing each external reference (file, what, URL) otherwise, 2 on bad usage.

What counts as a load (a link a reader clicks, ``<a href>``, does not):

* HTML and SVG: ``src`` / ``srcset`` / ``data`` / ``poster`` of every element, ``href`` of
  ``<link>`` (except ``rel=canonical`` / ``alternate``, which name a page, not load it),
  ``<image>`` / ``<use>`` / ``<script>`` / ``<base>``, ``url(...)`` and ``@import`` in
  ``style`` attributes and ``<style>`` elements;
* CSS: ``url(...)`` and ``@import``;
* JavaScript: every string literal that is an ``http://``, ``https://`` or ``//host`` URL
  (block comments, where licences name their home pages, are skipped), except the few that
  Material's bundle loads only under a condition this site never meets -- and that
  condition is checked too (no Mermaid diagram on any page, no repository link).

External means a URL with a network scheme (``http:``, ``https:``, ``ftp:``, ``ws:``...) or
protocol-relative (``//host/...``). ``data:``, ``blob:``, ``#fragment``, ``mailto:`` and
relative paths are local. The search index (``search/search_index.js`` / ``.json``) is
page text, not code, and is not scanned.
"""

from __future__ import annotations

import re
import sys
from html.parser import HTMLParser
from pathlib import Path

EXTERNAL = re.compile(r"^\s*(?:(?:https?|ftps?|wss?):)?//", re.IGNORECASE)
CSS_URL = re.compile(r"""url\(\s*(['"]?)(.*?)\1\s*\)|@import\s+(['"])(.*?)\3""", re.IGNORECASE | re.DOTALL)
JS_COMMENT = re.compile(r"/\*.*?\*/", re.DOTALL)
JS_URL = re.compile(r"""["'`]((?:https?:)?//(?:[A-Za-z0-9][-A-Za-z0-9]*\.[-A-Za-z0-9.]+|\$\{)[^"'`\s]*)""")
DATA_FILES = {"search_index.js", "search_index.json"}

#: Material's bundle: URLs it requests only when a feature this site does not use is on.
#: Each entry: URL prefix -> (why it is never requested here, marker that would switch it on).
CONDITIONAL = {
    "https://unpkg.com/resize-observer-polyfill": ("a polyfill for browsers without ResizeObserver", None),
    "https://unpkg.com/mermaid@": ("Mermaid, loaded only for a page with a Mermaid diagram", 'class="mermaid"'),
    "https://api.github.com/": ("repository facts, fetched only with repo_url set", 'data-md-component="source"'),
    "https://${": ("GitLab repository facts, fetched only with repo_url set", 'data-md-component="source"'),
}
LOADING_ATTRS = {"src", "srcset", "data", "poster", "background", "lowsrc", "dynsrc"}
HREF_TAGS = {"link", "image", "use", "script", "base", "feimage"}
NOT_LOADED_RELS = {"canonical", "alternate"}


def external(url: str) -> bool:
    """True when ``url`` points outside the site (a network scheme or ``//host``)."""
    return bool(EXTERNAL.match(url))


def _srcset(value: str) -> list[str]:
    return [part.strip().split()[0] for part in value.split(",") if part.strip()]


def css_urls(text: str) -> list[str]:
    """The URLs of ``url(...)`` and ``@import`` in CSS text (data: URIs included)."""
    return [m.group(2) if m.group(2) is not None else m.group(4) for m in CSS_URL.finditer(text)]


class _Loads(HTMLParser):
    """Collects (what, URL) of everything an HTML or SVG document loads."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.loads: list[tuple[str, str]] = []
        self._in_style = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k.lower(): v or "" for k, v in attrs}
        for key, value in values.items():
            if key in LOADING_ATTRS:
                for url in _srcset(value) if key == "srcset" else [value]:
                    self.loads.append((f"<{tag} {key}>", url))
            elif key in ("href", "xlink:href") and tag in HREF_TAGS:
                rels = set(values.get("rel", "").lower().split())
                if not (tag == "link" and rels and rels <= NOT_LOADED_RELS):
                    self.loads.append((f"<{tag} {key}>", value))
            elif key == "style":
                self.loads.extend((f"<{tag} style> url()", url) for url in css_urls(value))
            elif key == "content" and values.get("http-equiv", "").lower() == "refresh":
                self.loads.append(("<meta refresh>", value.partition("=")[2]))
        if tag == "style":
            self._in_style = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "style":
            self._in_style = False

    def handle_data(self, data: str) -> None:
        if self._in_style:
            self.loads.extend(("<style> url()", url) for url in css_urls(data))


def html_loads(text: str) -> list[tuple[str, str]]:
    """(what, URL) of every resource an HTML or SVG text loads."""
    parser = _Loads()
    parser.feed(text)
    parser.close()
    return parser.loads


def check(site: Path) -> list[str]:
    """Every external reference of the built site at ``site``, as ``file: what URL`` lines."""
    problems: list[str] = []
    pages = sorted(site.rglob("*.html"))
    markup = "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in pages)
    for path in sorted(site.rglob("*")):
        if not path.is_file() or path.name in DATA_FILES:
            continue
        rel = path.relative_to(site)
        suffix = path.suffix.lower()
        if suffix not in (".html", ".htm", ".svg", ".css", ".js", ".mjs"):
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if suffix in (".html", ".htm", ".svg"):
            problems += [f"{rel}: {what} {url}" for what, url in html_loads(text) if external(url)]
        elif suffix == ".css":
            problems += [f"{rel}: url()/@import {url}" for url in css_urls(text) if external(url)]
        else:
            for url in sorted(set(JS_URL.findall(JS_COMMENT.sub("", text)))):
                prefix = next((p for p in CONDITIONAL if url.startswith(p)), None)
                if prefix is None:
                    problems.append(f"{rel}: script URL {url}")
                elif (marker := CONDITIONAL[prefix][1]) is not None and marker in markup:
                    why = CONDITIONAL[prefix][0]
                    problems.append(f"{rel}: script URL {url} ({why}; a page has {marker})")
    if not pages:
        problems.append(f"{site}: no HTML page: is this a built site?")
    return problems


def main(argv: list[str]) -> int:
    if len(argv) != 1 or not Path(argv[0]).is_dir():
        print(
            "usage: python docs/check_offline.py SITE_DIR (a built site: mkdocs build --site-dir SITE_DIR)",
            file=sys.stderr,
        )
        return 2
    site = Path(argv[0])
    problems = check(site)
    for line in problems:
        print(f"external: {line}")
    if problems:
        print(
            f"check_offline: {len(problems)} external reference(s) in {site}; the site must work offline",
            file=sys.stderr,
        )
        return 1
    n = sum(1 for _ in site.rglob("*.html"))
    print(f"check_offline: {n} pages, nothing loaded from outside {site}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
