"""Screenshots of the built documentation site, taken in a real headless browser, and the
checks a person would make looking at them.

Usage: ``python docs/screenshots.py SITE_DIR --out DIR`` -- exits 0 when every check passes,
1 naming each failed check, 2 on bad usage or when no browser is found.
``python docs/screenshots.py --self-test`` runs only the check of the request catcher.

SITE_DIR is served over HTTP on 127.0.0.1 (a free port, :mod:`http.server` in a thread)
and Chromium (``chromium --headless=new``) screenshots three pages, in the light and the
dark colour scheme: the index page, the first page (in the navigation's order) showing a
board (``boards/*.svg``) and the first showing a plot (``figures/*.svg``). The index is
shot in a 1280 x 1600 window, as a reader first sees it. The board and plot pages are shot
in a window :data:`TALL` pixels high, so the whole page (or its first :data:`TALL` pixels)
is in the picture -- opening them at an ``#anchor`` instead leaves headless Chromium's
screenshot offset by part of the scroll -- and the picture is found there by its colours;
``board.png`` and ``plot.png`` are the 1280 x 1600 crops around it, ``*-page.png`` the
whole pages. Each screenshot must

* not be blank: enough distinct colours and enough spread of the pixel values;
* show its picture: the board's checkerboard colours (:data:`queenslab.viz.svg.LIGHT` and
  :data:`~queenslab.viz.svg.DARK`), or one of the plot's own colours, read from its SVG;
* have the theme's header bar across its top (a page whose stylesheets did not apply has not);
* come from a page whose DOM has the ``<img>`` of that picture and that requested nothing
  the site server could not serve;
* come from a page that loaded nothing from outside the site;
* for a plot in the dark scheme, be drawn for it: the plot's region is not a white box
  (the site shows the plot's dark variant there, ``#only-dark``).

The animation: the first page showing an animated SVG (a ``figures/*.svg`` with SMIL
``<animate>`` elements, the "Watching a search" page) is opened once and shot twice,
:data:`ANIMATION_GAP_S` seconds apart (``animation-1.png``, ``animation-2.png``). An
animation in an ``<img>`` runs on the wall clock, not on headless Chromium's virtual time,
so this one browser is driven over the DevTools protocol on a pipe
(``--remote-debugging-pipe``, :class:`DevTools`), with the same flags, proxy and catcher as
the others. The picture is found by its checkerboard's colours; at least
:data:`MIN_ANIMATION_PIXELS` pixels of its region must differ between the two shots -- the
queens moved -- and not one pixel outside it (the header, the text: what does not move), so
the difference is the animation, not noise.

How outside loads are caught: Chromium runs with ``--proxy-server`` pointing at a small
proxy in a thread (:class:`RequestCatcher`) that records every request it gets (the URL, or
``host:port`` of a ``CONNECT``) and answers 403, and with ``--proxy-bypass-list`` naming
the site's own ``127.0.0.1:PORT`` alone (``<-loopback>`` first removes Chromium's implicit
bypass of localhost), so every request that is not for the site -- another host, another
local port -- reaches the catcher and nothing else. ``--host-resolver-rules`` resolves no
name at all, so nothing can slip out directly either. Chromium's own background services
(component updates, account checks, network time, autofill) are switched off by flags, and
the two that no flag stops are sent to :data:`BROWSER_SINK`, a reserved ``.invalid`` host
whose requests are counted as the browser's, not the page's. Before the pages, a self-test
(:func:`self_test`) checks the catcher on two tiny pages: one that loads an image from
``https://example.com`` and a script from ``http://cdn.example.org`` must report both, one
that loads only local files must report nothing.
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import functools
import json
import os
import re
import select
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from PIL import Image, ImageChops, ImageStat

from queenslab.viz.svg import DARK, LIGHT

#: The window, in CSS pixels: the index's screenshot and the crops around a picture.
WINDOW = (1280, 1600)
#: The window's height for a page with a picture: the picture must be within it.
TALL = 16000
#: Milliseconds of virtual time the page gets to run its scripts before the screenshot.
VIRTUAL_TIME_MS = 5000
#: Seconds after the page's load event before the first screenshot of an animation, and
#: between its two screenshots (the watching page's frames last 0.15 s: several steps of
#: the search lie between them, and both come before its last frame, at about 8 s).
ANIMATION_SETTLE_S, ANIMATION_GAP_S = 0.5, 1.0
#: Pixels of an animated picture's region that must differ between its two screenshots.
MIN_ANIMATION_PIXELS = 200
#: How far an animated picture's region reaches beyond its checkerboard, as a share of the
#: checkerboard's size (its labels and the status line under it are part of the picture).
ANIMATION_MARGIN = 0.15
#: A plot in the dark scheme may have at most this share of near-white pixels in its region.
MAX_DARK_WHITE = 0.2
#: Seconds one browser run may take before it counts as hung.
RUN_TIMEOUT_S = 60
#: Where Chromium's own account and component-update requests are sent (RFC 6761 reserves
#: ``.invalid``); the catcher counts requests to this host as the browser's, not the page's.
BROWSER_SINK = "chromium-services.invalid"
#: A screenshot with fewer distinct colours, or a smaller standard deviation of its grey
#: values, is blank (a white page has 1 colour and 0; a page of text has thousands and > 20).
MIN_COLOURS, MIN_STDDEV = 64, 8.0
#: How far (per channel, 0-255) a pixel may be from a colour looked for and still count.
TOLERANCE = 6
#: Pixels of each checkerboard colour a board screenshot must hold, and of at least one of
#: its own colours a plot screenshot must hold.
MIN_BOARD_PIXELS, MIN_PLOT_PIXELS = 500, 40
#: Rows at the top of a page that the theme's header bar fills (Material's is 48 pixels).
HEADER_ROWS = 40
#: What each kind of picture looks like in an ``src``: a path ending in DIR/NAME.svg.
PICTURE = {
    kind: re.compile(rf"""\b(?:src|data)\s*=\s*["']([^"'#?]*?(?<![\w-]){folder}/[^"'#?]+\.svg)["']""")
    for kind, folder in (("board", "boards"), ("plot", "figures"))
}
#: A picture's ``src`` may end in a fragment (``#only-light``): Material shows such an image
#: in one colour scheme only.
FRAGMENT = r"""(?:#[\w-]*)?["']"""
PICTURE = {kind: re.compile(pattern.pattern.removesuffix(r"""["']""") + FRAGMENT) for kind, pattern in PICTURE.items()}
NAV_LINK = re.compile(r"""<a\b[^>]*\bhref\s*=\s*["']([^"'#?]+)["']""", re.IGNORECASE)
HEX_COLOUR = re.compile(r"#([0-9a-fA-F]{6})\b")


def chromium_flags(
    site_port: int, proxy_port: int, window: tuple[int, int] = WINDOW, virtual_time_ms: int | None = VIRTUAL_TIME_MS
) -> list[str]:
    """Chromium's switches for a quiet, offline-checked, headless run.

    Parameters
    ----------
    site_port : int
        The site server's port on 127.0.0.1: the one address reached without the proxy.
    proxy_port : int
        The request catcher's port on 127.0.0.1.
    window : tuple of int
        Width and height of the window in CSS pixels (and of the screenshot).
    virtual_time_ms : int or None
        Milliseconds of virtual time before the screenshot; None for a browser driven over
        the DevTools protocol, which runs on the wall clock.

    Returns
    -------
    list of str
        Everything but the profile, the screenshot's file and the URL.
    """
    sink = f"http://{BROWSER_SINK}/"
    budget = [] if virtual_time_ms is None else [f"--virtual-time-budget={virtual_time_ms}"]
    return [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--hide-scrollbars",
        f"--window-size={window[0]},{window[1]}",
        "--force-color-profile=srgb",
        *budget,
        # Every request but the site's goes to the catcher; no name is resolved.
        f"--proxy-server=http://127.0.0.1:{proxy_port}",
        f"--proxy-bypass-list=<-loopback>;127.0.0.1:{site_port}",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        # The browser's own traffic: off, or sent to the sink.
        "--no-first-run",
        "--no-default-browser-check",
        "--no-pings",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-extensions",
        "--disable-sync",
        "--disable-default-apps",
        "--disable-domain-reliability",
        "--disable-client-side-phishing-detection",
        "--disable-field-trial-config",
        "--disable-breakpad",
        "--metrics-recording-only",
        "--disable-features=NetworkTimeServiceQuerying,OptimizationHints,MediaRouter,Translate,AutofillServerCommunication",
        f"--gaia-url={sink}",
        f"--component-updater=url-source={sink}",
    ]


class _SiteHandler(SimpleHTTPRequestHandler):
    """Serves the site's files and records (path, status) of every request."""

    def log_request(self, code: int | str = "-", size: int | str = "-") -> None:
        self.server.log.append((self.path, int(code)))  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: object) -> None:
        pass


class _CatchingHandler(BaseHTTPRequestHandler):
    """Records what a proxy client asked for and refuses it (403), whatever the method."""

    def handle_one_request(self) -> None:
        self.raw_requestline = self.rfile.readline(65537)
        if not self.raw_requestline:
            self.close_connection = True
            return
        if not self.parse_request():
            return
        self.server.log.append(f"{self.command} {self.path}")  # type: ignore[attr-defined]
        with contextlib.suppress(ConnectionError):  # a browser closing may not wait for the answer
            self.send_error(403, "loads from outside the site are refused here")
        self.close_connection = True

    def log_message(self, format: str, *args: object) -> None:
        pass


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, handler) -> None:
        super().__init__(("127.0.0.1", 0), handler)
        self.log: list = []

    @property
    def port(self) -> int:
        return self.server_address[1]


@contextmanager
def _serving(server: _Server) -> Iterator[_Server]:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


class _Served:
    """A :class:`_Server` (``self._server``) served in a thread for the ``with`` block."""

    _server: _Server

    def __enter__(self):
        self._context = _serving(self._server)
        self._context.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self._context.__exit__(None, None, None)


class RequestCatcher(_Served):
    """A proxy that records each request it gets and answers 403, in a thread.

    Use as a context manager; :attr:`port` is its port on 127.0.0.1. :meth:`take` returns
    (and forgets) what was requested since the last call, split into the page's requests
    and the browser's own (those for :data:`BROWSER_SINK`).
    """

    def __init__(self) -> None:
        self._server = _Server(_CatchingHandler)
        self.port = self._server.port

    def take(self) -> tuple[list[str], list[str]]:
        """What was requested since the last call.

        Returns
        -------
        page : list of str
            ``"METHOD URL"`` or ``"CONNECT host:port"`` of each request not for the sink.
        browser : list of str
            The same for the requests Chromium sent to :data:`BROWSER_SINK`.
        """
        log, self._server.log = self._server.log, []  # a swap: a late append lands in the new list
        browser = [r for r in log if _request_host(r) == BROWSER_SINK]
        return [r for r in log if r not in browser], browser


def _request_host(request: str) -> str:
    target = request.split(" ", 1)[1]
    if "://" not in target:  # CONNECT host:port
        target = "//" + target
    return (urlsplit(target).hostname or "").lower()


class SiteServer(_Served):
    """The site's directory served on 127.0.0.1 in a thread; a context manager.

    Parameters
    ----------
    root : Path
        The directory to serve.
    """

    def __init__(self, root: Path) -> None:
        self._server = _Server(functools.partial(_SiteHandler, directory=str(root)))
        self.port = self._server.port
        self.base = f"http://127.0.0.1:{self.port}/"

    def take_failures(self) -> list[str]:
        """The requests since the last call that the site could not serve.

        Returns
        -------
        list of str
            ``"STATUS PATH"`` of each, except ``/favicon.ico``, which a browser asks for on
            its own when a page names no icon.
        """
        log, self._server.log = self._server.log, []  # a swap: a late append lands in the new list
        return [f"{code} {path}" for path, code in log if code >= 400 and path != "/favicon.ico"]


@dataclass
class Capture:
    """One page in the browser: its screenshot, its DOM and what it requested.

    Attributes
    ----------
    url : str
        The URL opened.
    png : Path
        The screenshot.
    dom : str
        The DOM after the page ran (``--dump-dom``).
    external : list of str
        The page's requests for anything outside the site (see :class:`RequestCatcher`).
    browser : list of str
        Chromium's own requests, sent to :data:`BROWSER_SINK` and not held against the page.
    failed : list of str
        Requests for the site that the site could not serve (``"404 /path"``).
    """

    url: str
    png: Path
    dom: str
    external: list[str] = field(default_factory=list)
    browser: list[str] = field(default_factory=list)
    failed: list[str] = field(default_factory=list)


def capture(
    chromium: str,
    url: str,
    png: Path,
    site: SiteServer,
    catcher: RequestCatcher,
    dark: bool = False,
    window: tuple[int, int] = WINDOW,
) -> Capture:
    """Open ``url`` in headless Chromium, screenshot it and dump its DOM.

    Parameters
    ----------
    chromium : str
        The browser's executable.
    url : str
        The page, on ``site``.
    png : Path
        Where the screenshot goes.
    site : SiteServer
        The server of the page (running).
    catcher : RequestCatcher
        The proxy every other request goes to (running).
    dark : bool
        Ask for the dark colour scheme (``prefers-color-scheme: dark``).
    window : tuple of int
        Width and height of the window (and of the screenshot).

    Returns
    -------
    Capture

    Raises
    ------
    RuntimeError
        When the browser fails, hangs or writes no screenshot.
    """
    site.take_failures()  # forget what came before this page
    catcher.take()
    png.parent.mkdir(parents=True, exist_ok=True)
    png.unlink(missing_ok=True)
    with tempfile.TemporaryDirectory(prefix="queenslab-chromium-") as profile:
        command = [chromium, *chromium_flags(site.port, catcher.port, window), f"--user-data-dir={profile}"]
        command += ["--force-dark-mode"] if dark else []
        command += [f"--screenshot={png}", "--dump-dom", url]
        try:
            run = subprocess.run(command, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)
        except subprocess.TimeoutExpired as exc:
            raise RuntimeError(f"{url}: chromium took more than {RUN_TIMEOUT_S} s") from exc
    if run.returncode != 0 or not png.is_file():
        tail = "\n".join(run.stderr.strip().splitlines()[-8:])
        raise RuntimeError(f"{url}: chromium exited with {run.returncode} and wrote no screenshot:\n{tail}")
    external, browser = catcher.take()
    return Capture(url, png, run.stdout, external, browser, site.take_failures())


@dataclass(frozen=True)
class Stats:
    """What a screenshot holds, in numbers.

    Attributes
    ----------
    size : tuple of int
        Width and height in pixels.
    colours : int
        Distinct RGB colours.
    stddev : float
        Standard deviation of the grey values (0-255).
    """

    size: tuple[int, int]
    colours: int
    stddev: float

    @property
    def blank(self) -> bool:
        """True when the picture is (nearly) one flat colour."""
        return self.colours < MIN_COLOURS or self.stddev < MIN_STDDEV


def image_stats(image: Image.Image) -> Stats:
    """Size, distinct colours and grey-value spread of a picture.

    >>> image_stats(Image.new("RGB", (40, 30), "white"))
    Stats(size=(40, 30), colours=1, stddev=0.0)
    """
    rgb = image.convert("RGB")
    colours = rgb.getcolors(maxcolors=rgb.width * rgb.height) or []
    return Stats(rgb.size, len(colours), round(ImageStat.Stat(rgb.convert("L")).stddev[0], 2))


def _rgb(hex_colour: str) -> tuple[int, int, int]:
    value = hex_colour.lstrip("#")
    return int(value[0:2], 16), int(value[2:4], 16), int(value[4:6], 16)


def colour_mask(image: Image.Image, colour: str, tolerance: int = TOLERANCE) -> Image.Image:
    """A mask (mode ``L``) of the pixels within ``tolerance`` of ``colour`` in every channel.

    >>> colour_mask(Image.new("RGB", (4, 5), "#f0d9b5"), "#f2d8b0").getbbox()
    (0, 0, 4, 5)
    >>> colour_mask(Image.new("RGB", (4, 5), "#b58863"), "#f0d9b5").getbbox() is None
    True
    """
    bands = [
        band.point(lambda v, c=c: 255 if abs(v - c) <= tolerance else 0)
        for band, c in zip(image.convert("RGB").split(), _rgb(colour))
    ]
    return ImageChops.darker(ImageChops.darker(bands[0], bands[1]), bands[2])


def colour_pixels(image: Image.Image, colour: str, tolerance: int = TOLERANCE) -> int:
    """How many pixels are within ``tolerance`` of ``colour`` in every channel.

    >>> colour_pixels(Image.new("RGB", (4, 5), "#f0d9b5"), "#f2d8b0")
    20
    """
    return colour_mask(image, colour, tolerance).histogram()[255]


def svg_colours(svg: str) -> list[str]:
    """The chromatic colours (``#rrggbb``, not greys) an SVG document names, in order.

    >>> svg_colours('<rect fill="#4C72B0"/><path style="stroke: #000000; fill: #c44e52"/>')
    ['#4c72b0', '#c44e52']
    """
    found: list[str] = []
    for value in HEX_COLOUR.findall(svg):
        colour = "#" + value.lower()
        channels = _rgb(colour)
        if max(channels) - min(channels) >= 48 and colour not in found:
            found.append(colour)
    return found


@dataclass(frozen=True)
class Page:
    """A page to look at.

    Attributes
    ----------
    kind : str
        ``"index"``, ``"board"`` or ``"plot"``.
    path : str
        The page's file, relative to the site (``"getting-started.html"``).
    picture : str or None
        The ``src`` of the first board or plot on the page, as written there.
    """

    kind: str
    path: str
    picture: str | None = None


def page_order(site: Path) -> list[str]:
    """The site's HTML pages, relative to it: the index's navigation order, then the rest.

    Parameters
    ----------
    site : Path
        The built site.

    Returns
    -------
    list of str
        POSIX paths; ``404.html`` is left out.
    """
    every = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    every = [p for p in every if p != "404.html"]
    order: list[str] = []
    index = site / "index.html"
    if index.is_file():
        for href in NAV_LINK.findall(index.read_text(encoding="utf-8", errors="replace")):
            if "://" in href or href.startswith("//"):
                continue
            path = urljoin("/", unquote(href)).lstrip("/")
            path = path + "index.html" if path.endswith("/") or not path else path
            if path in every and path not in order:
                order.append(path)
    return order + [p for p in every if p not in order]


def choose_pages(site: Path) -> list[Page]:
    """The index page and the first page showing each kind of picture.

    A page other than the index is preferred for a board and for a plot (the index is
    looked at anyway); the index counts when no other page has one.

    Parameters
    ----------
    site : Path
        The built site.

    Returns
    -------
    list of Page
        Index, board, plot.

    Raises
    ------
    ValueError
        When the site has no index page, or no page shows a board or a plot.
    """
    if not (site / "index.html").is_file():
        raise ValueError(f"{site}: no index.html")
    order = [p for p in page_order(site) if p != "index.html"] + ["index.html"]
    pages = [Page("index", "index.html")]
    for kind, pattern in PICTURE.items():
        for path in order:
            match = pattern.search((site / path).read_text(encoding="utf-8", errors="replace"))
            if match:
                pages.append(Page(kind, path, match.group(1)))
                break
        else:
            raise ValueError(f"{site}: no page shows a {kind} (no src matching {pattern.pattern})")
    return pages


def find_picture(
    image: Image.Image, colours: Sequence[str], min_pixels: int, every: bool
) -> tuple[tuple[int, int, int, int] | None, dict[str, int]]:
    """Where a picture drawn in ``colours`` is in a screenshot.

    Parameters
    ----------
    image : Image.Image
        The screenshot.
    colours : sequence of str
        ``#rrggbb`` colours of the picture.
    min_pixels : int
        Pixels a colour must cover to count as shown.
    every : bool
        Every colour must be shown (a board's two squares), not just one (a plot's lines).

    Returns
    -------
    box : tuple of int or None
        (left, top, right, bottom) around the pixels of the colours shown; None when too few
        colours are shown.
    counts : dict
        Pixels of each colour.
    """
    masks = {colour: colour_mask(image, colour) for colour in colours}
    counts = {colour: mask.histogram()[255] for colour, mask in masks.items()}
    shown = [colour for colour in colours if counts[colour] >= min_pixels]
    if not shown or (every and len(shown) < len(colours)):
        return None, counts
    union = functools.reduce(ImageChops.lighter, (masks[colour] for colour in shown))
    return union.getbbox(), counts


def crop_around(image: Image.Image, box: tuple[int, int, int, int], size: tuple[int, int] = WINDOW) -> Image.Image:
    """A ``size`` piece of ``image`` (full width at most) with ``box`` in its middle, or at
    its top when the box is taller.

    >>> crop_around(Image.new("RGB", (10, 100)), (0, 90, 10, 95), (10, 20)).size
    (10, 20)
    """
    width, height = min(size[0], image.width), min(size[1], image.height)
    top = (box[1] + box[3] - height) // 2 if box[3] - box[1] < height else box[1] - 20
    top = max(0, min(top, image.height - height))
    return image.crop((0, top, width, top + height))


def header_bar(image: Image.Image, rows: int = HEADER_ROWS) -> bool:
    """True when the top ``rows`` of a page are a bar of one colour, not the page's own.

    The site's theme draws a coloured header bar across the top; a page whose stylesheets
    did not apply starts with its plain background (and a few unstyled controls) instead.

    >>> page = Image.new("RGB", (100, 200), "white")
    >>> header_bar(page)
    False
    >>> page.paste((63, 81, 181), (0, 0, 100, 48))
    >>> header_bar(page)
    True
    """
    rgb = image.convert("RGB")
    top = rgb.crop((0, 0, rgb.width, min(rows, rgb.height)))
    count, colour = max(top.getcolors(maxcolors=top.width * top.height) or [(0, None)])
    commonest = max(rgb.getcolors(maxcolors=rgb.width * rgb.height) or [(0, None)])[1]
    return count >= 0.6 * top.width * top.height and colour != commonest


def check(page: Page, site: Path, shot: Capture, dark: bool = False) -> tuple[Image.Image, Stats, list[str]]:
    """What is wrong with one page's screenshot, DOM and requests.

    Parameters
    ----------
    page : Page
        The page and the picture it should show.
    site : Path
        The built site (the picture's file is read from it).
    shot : Capture
        What the browser made of the page.
    dark : bool
        The page was shot in the dark colour scheme: a plot must be drawn for it.

    Returns
    -------
    view : Image.Image
        The screenshot to look at: the whole one for a page without picture, else the
        :data:`WINDOW`-sized piece around the picture (or the top of the page, when the
        picture is not found).
    stats : Stats
        The view in numbers.
    problems : list of str
        One message per failed check; empty when the page looks right.
    """
    problems: list[str] = []
    with Image.open(shot.png) as opened:
        image = opened.convert("RGB")
    view = image
    if not header_bar(image):
        problems.append(
            f"no header bar across the top {HEADER_ROWS} pixels: the page looks unstyled (did its stylesheets apply?)"
        )
    if shot.external:
        problems.append("loaded from outside the site: " + ", ".join(shot.external))
    if shot.failed:
        problems.append("the site could not serve: " + ", ".join(shot.failed))
    if page.picture is not None:
        view = image.crop((0, 0, min(WINDOW[0], image.width), min(WINDOW[1], image.height)))
        file = site / urljoin("/" + page.path, page.picture).lstrip("/")
        if not file.is_file():
            problems.append(f"{page.picture}: no such file in the site ({file})")
        else:
            if not re.search(rf"src=\"{re.escape(page.picture)}{FRAGMENT}", shot.dom):
                problems.append(f'{page.picture}: no <img src="{page.picture}"> in the page\'s DOM after it ran')
            if page.kind == "board":
                colours, need, every = [LIGHT, DARK], MIN_BOARD_PIXELS, True
                what = f"the checkerboard's light and dark squares ({LIGHT}, {DARK})"
            else:
                colours, need, every = (
                    svg_colours(file.read_text(encoding="utf-8", errors="replace")),
                    MIN_PLOT_PIXELS,
                    False,
                )
                what = f"any of the plot's colours ({', '.join(colours)})"
            if colours:
                box, counts = find_picture(image, colours, need, every)
                if box is None:
                    shown = ", ".join(f"{c}: {n}" for c, n in counts.items())
                    problems.append(
                        f"{page.picture}: not rendered: {what} should cover at least {need} pixels each "
                        f"in the first {image.height} pixels of the page; pixels found: {shown}"
                    )
                else:
                    view = crop_around(image, box)
                    white = white_share(image.crop(box))
                    if dark and page.kind == "plot" and white > MAX_DARK_WHITE:
                        problems.append(
                            f"{page.picture}: {white:.0%} of the plot's region is white in the dark scheme "
                            f"(at most {MAX_DARK_WHITE:.0%}): the light picture is shown, not the dark one"
                        )
    stats = image_stats(view)
    if stats.blank:
        problems.append(
            f"the screenshot is blank: {stats.colours} colours (at least {MIN_COLOURS} expected), "
            f"grey-value spread {stats.stddev} (at least {MIN_STDDEV} expected)"
        )
    return view, stats, problems


def white_share(image: Image.Image) -> float:
    """The share of a picture's pixels that are white, or nearly (every channel >= 240).

    >>> white_share(Image.new("RGB", (4, 5), "#fafafa")), white_share(Image.new("RGB", (4, 5), "#1e2029"))
    (1.0, 0.0)
    """
    rgb = image.convert("RGB")
    bands = [band.point(lambda v: 255 if v >= 240 else 0) for band in rgb.split()]
    mask = ImageChops.darker(ImageChops.darker(bands[0], bands[1]), bands[2])
    return mask.histogram()[255] / (rgb.width * rgb.height)


def find_animated(site: Path) -> Page | None:
    """The first page (in the navigation's order) showing an animated SVG, or None.

    An animated SVG is a ``figures/*.svg`` of the site with SMIL ``<animate`` elements.

    Returns
    -------
    Page or None
        Of kind ``"animation"``, with the picture's ``src``.
    """
    for path in page_order(site):
        text = (site / path).read_text(encoding="utf-8", errors="replace")
        for match in PICTURE["plot"].finditer(text):
            file = site / urljoin("/" + path, match.group(1)).lstrip("/")
            if file.is_file() and "<animate" in file.read_text(encoding="utf-8", errors="replace"):
                return Page("animation", path, match.group(1))
    return None


@dataclass(frozen=True)
class FrameChange:
    """How two screenshots of a page with an animated picture differ.

    Attributes
    ----------
    region : tuple of int
        (left, top, right, bottom) of the picture's region.
    inside : int
        Pixels that differ inside the region.
    outside : int
        Pixels that differ elsewhere on the page.
    """

    region: tuple[int, int, int, int]
    inside: int
    outside: int


def grow(box: tuple[int, int, int, int], share: float, size: tuple[int, int]) -> tuple[int, int, int, int]:
    """``box`` grown by ``share`` of its width and height on every side, within ``size``.

    >>> grow((100, 100, 200, 300), 0.1, (1000, 1000))
    (90, 80, 210, 320)
    """
    dx, dy = round(share * (box[2] - box[0])), round(share * (box[3] - box[1]))
    return max(0, box[0] - dx), max(0, box[1] - dy), min(size[0], box[2] + dx), min(size[1], box[3] + dy)


def frame_change(first: Image.Image, second: Image.Image, region: tuple[int, int, int, int]) -> FrameChange:
    """Count the pixels that differ between two screenshots, inside ``region`` and outside.

    >>> a = Image.new("RGB", (50, 40), "white")
    >>> b = a.copy()
    >>> b.paste((0, 0, 0), (10, 10, 20, 15))
    >>> frame_change(a, b, (5, 5, 30, 30))
    FrameChange(region=(5, 5, 30, 30), inside=50, outside=0)
    """
    if first.size != second.size:
        raise ValueError(f"the two screenshots differ in size: {first.size} and {second.size}")
    diff = ImageChops.difference(first.convert("RGB"), second.convert("RGB")).convert("L")
    changed = diff.point(lambda v: 255 if v > 0 else 0)
    inside = changed.crop(region).histogram()[255]
    return FrameChange(region, inside, changed.histogram()[255] - inside)


def check_animation(first: Image.Image, second: Image.Image) -> tuple[FrameChange | None, list[str]]:
    """Check two screenshots of an animated board taken a moment apart.

    The board is found by its checkerboard's colours in the first; its region (grown by
    :data:`ANIMATION_MARGIN`) must have at least :data:`MIN_ANIMATION_PIXELS` changed
    pixels, and the rest of the page none.

    Returns
    -------
    change : FrameChange or None
        None when the board is not found.
    problems : list of str
        One message per failed check.
    """
    box, counts = find_picture(first, [LIGHT, DARK], MIN_BOARD_PIXELS, every=True)
    if box is None:
        shown = ", ".join(f"{c}: {n}" for c, n in counts.items())
        return None, [f"the animated board is not rendered: pixels of its squares found: {shown}"]
    change = frame_change(first, second, grow(box, ANIMATION_MARGIN, first.size))
    problems = []
    if change.inside < MIN_ANIMATION_PIXELS:
        problems.append(
            f"the animation does not move: {change.inside} pixels of its region {change.region} changed between "
            f"the two screenshots (at least {MIN_ANIMATION_PIXELS} expected)"
        )
    if change.outside:
        problems.append(
            f"{change.outside} pixels outside the animated picture changed between the two screenshots: "
            "the page itself is not steady, so the change in the picture proves nothing"
        )
    return change, problems


class DevTools:
    """Chromium driven over the DevTools protocol on a pipe (``--remote-debugging-pipe``).

    The browser reads commands from its file descriptor 3 and writes answers and events to
    4, each a JSON text ended by a NUL byte. Use as a context manager: the browser is closed
    (or killed) at the end.

    Parameters
    ----------
    chromium : str
        The browser's executable.
    flags : list of str
        Its switches (:func:`chromium_flags` without a virtual-time budget).
    """

    def __init__(self, chromium: str, flags: Sequence[str]) -> None:
        self._profile = tempfile.TemporaryDirectory(prefix="queenslab-chromium-")
        to_browser, self._to = os.pipe()
        self._from, from_browser = os.pipe()

        def on_fds_3_and_4() -> None:  # in the child, before exec
            os.dup2(to_browser, 3)
            os.dup2(from_browser, 4)

        self._process = subprocess.Popen(
            [chromium, *flags, "--remote-debugging-pipe", f"--user-data-dir={self._profile.name}", "about:blank"],
            preexec_fn=on_fds_3_and_4,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_browser)
        os.close(from_browser)
        self._buffer = b""
        self._id = 0
        self._events: list[dict] = []

    def __enter__(self) -> DevTools:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(Exception):
            self.send("Browser.close", timeout=10)
        try:
            self._process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self._process.kill()
            self._process.wait()
        os.close(self._to)
        os.close(self._from)
        self._profile.cleanup()

    def _message(self, timeout: float) -> dict:
        deadline = time.monotonic() + timeout
        while b"\0" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._from], [], [], left)[0]:
                raise RuntimeError(f"chromium did not answer over DevTools within {timeout} s")
            chunk = os.read(self._from, 1 << 20)
            if not chunk:
                raise RuntimeError("chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return json.loads(message)

    def send(self, method: str, session: str | None = None, timeout: float = RUN_TIMEOUT_S, **params: object) -> dict:
        """Run one DevTools command and return its result (events that come first are kept).

        Raises
        ------
        RuntimeError
            When the browser answers with an error, or not within ``timeout`` seconds.
        """
        self._id += 1
        command: dict[str, object] = {"id": self._id, "method": method, "params": params}
        if session is not None:
            command["sessionId"] = session
        os.write(self._to, json.dumps(command).encode() + b"\0")
        while True:
            message = self._message(timeout)
            if message.get("id") == self._id:
                if "error" in message:
                    raise RuntimeError(f"DevTools {method}: {message['error']}")
                return message.get("result", {})
            self._events.append(message)

    def wait_for(self, event: str, timeout: float = RUN_TIMEOUT_S) -> dict:
        """The first event named ``event`` (one that came already, or the next)."""
        deadline = time.monotonic() + timeout
        while True:
            for i, message in enumerate(self._events):
                if message.get("method") == event:
                    return self._events.pop(i)
            self._events.append(self._message(max(0.0, deadline - time.monotonic())))


def animation_frames(
    chromium: str,
    url: str,
    pngs: Sequence[Path],
    site: SiteServer,
    catcher: RequestCatcher,
    gap_s: float = ANIMATION_GAP_S,
    settle_s: float = ANIMATION_SETTLE_S,
) -> tuple[list[str], list[str]]:
    """Open ``url`` once and screenshot it into each of ``pngs``, ``gap_s`` seconds apart.

    The window is :data:`WINDOW`; the first screenshot is taken ``settle_s`` seconds after
    the page's load event.

    Returns
    -------
    external : list of str
        The page's requests for anything outside the site (see :class:`RequestCatcher`).
    failed : list of str
        Requests for the site that the site could not serve.
    """
    site.take_failures()
    catcher.take()
    flags = chromium_flags(site.port, catcher.port, WINDOW, virtual_time_ms=None)
    with DevTools(chromium, flags) as browser:
        target = browser.send("Target.createTarget", url="about:blank")["targetId"]
        session = browser.send("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        browser.send("Page.enable", session=session)
        browser.send(
            "Emulation.setDeviceMetricsOverride",
            session=session,
            width=WINDOW[0],
            height=WINDOW[1],
            deviceScaleFactor=1,
            mobile=False,
        )
        browser.send("Page.navigate", session=session, url=url)
        browser.wait_for("Page.loadEventFired")
        time.sleep(settle_s)
        for i, png in enumerate(pngs):
            if i:
                time.sleep(gap_s)
            png.parent.mkdir(parents=True, exist_ok=True)
            png.write_bytes(base64.b64decode(browser.send("Page.captureScreenshot", session=session)["data"]))
    return catcher.take()[0], site.take_failures()


def find_chromium(name: str | None = None) -> str | None:
    """The browser's executable: ``name`` if given, else ``chromium`` or a usual alias."""
    candidates = [name] if name else ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"]
    for candidate in candidates:
        found = shutil.which(candidate)
        if found:
            return found
    return None


#: The self-test's pages: (file, HTML, what the catcher must report).
SELF_TEST_PAGES = (
    (
        "external.html",
        '<!doctype html><html><body><h1>external</h1><img src="https://example.com/x.png">'
        '<script src="http://cdn.example.org/a.js"></script></body></html>',
        ("CONNECT example.com:443", "GET http://cdn.example.org/a.js"),
    ),
    (
        "local.html",
        '<!doctype html><html><head><link rel="icon" href="data:,"></head><body><h1>local</h1>'
        '<img src="pixel.svg"><script src="local.js"></script></body></html>',
        (),
    ),
)


def self_test(chromium: str, out: Path) -> list[str]:
    """Check that the request catcher reports outside loads, and only those.

    Two tiny pages are served from a temporary directory: one loads an image from
    ``https://example.com`` and a script from ``http://cdn.example.org``, and both must be
    reported; the other loads only files of its own site, and nothing may be reported.

    Parameters
    ----------
    chromium : str
        The browser's executable.
    out : Path
        A directory for the two screenshots.

    Returns
    -------
    list of str
        One message per failed check; empty when the catcher works.
    """
    problems = []
    with tempfile.TemporaryDirectory(prefix="queenslab-selftest-") as tmp:
        root = Path(tmp)
        (root / "pixel.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>')
        (root / "local.js").write_text("document.title = 'local';\n")
        for name, html, _ in SELF_TEST_PAGES:
            (root / name).write_text(html)
        with SiteServer(root) as site, RequestCatcher() as catcher:
            for name, _, expected in SELF_TEST_PAGES:
                shot = capture(chromium, site.base + name, out / f"self-test-{Path(name).stem}.png", site, catcher)
                missing = [r for r in expected if r not in shot.external]
                extra = [r for r in shot.external if r not in expected]
                if missing:
                    problems.append(f"self-test {name}: outside loads not caught: {', '.join(missing)}")
                if extra:
                    problems.append(
                        f"self-test {name}: requests reported that the page did not make: {', '.join(extra)}"
                    )
                if shot.failed:
                    problems.append(f"self-test {name}: the test site could not serve: {', '.join(shot.failed)}")
    return problems


def run(site_dir: Path, out: Path, chromium: str, dark: bool = True) -> int:
    """Self-test, then screenshot and check the pages; print one line per screenshot.

    Parameters
    ----------
    site_dir : Path
        The built site.
    out : Path
        Where the screenshots go (created).
    chromium : str
        The browser's executable.
    dark : bool
        Also screenshot each page in the dark colour scheme.

    Returns
    -------
    int
        0 when every check passed, 1 otherwise.
    """
    out.mkdir(parents=True, exist_ok=True)
    problems = self_test(chromium, out)
    if problems:
        print("\n".join(f"screenshots: {p}" for p in problems), file=sys.stderr)
        return 1
    print("screenshots: self-test passed: outside loads are caught, local ones are not")
    pages = choose_pages(site_dir)
    with SiteServer(site_dir) as site, RequestCatcher() as catcher:
        for page in pages:
            url = site.base + page.path
            for scheme in ("light", "dark") if dark else ("light",):
                name = page.kind + ("-dark" if scheme == "dark" else "")
                view_png = out / f"{name}.png"
                if page.picture is None:
                    shot = capture(chromium, url, view_png, site, catcher, dark=scheme == "dark")
                else:
                    png = out / f"{name}-page.png"
                    shot = capture(chromium, url, png, site, catcher, dark=scheme == "dark", window=(WINDOW[0], TALL))
                view, stats, found = check(page, site_dir, shot, dark=scheme == "dark")
                if view_png != shot.png:
                    view.save(view_png)
                print(
                    f"{page.kind:5} {scheme:5} {url}  {view_png}  {stats.size[0]}x{stats.size[1]}  "
                    f"colours={stats.colours} stddev={stats.stddev}  external requests: {', '.join(shot.external) or 'none'}"
                )
                problems += [f"{page.kind} ({scheme}, {url}): {p}" for p in found]
        problems += animation(site_dir, out, chromium, site, catcher)
    if problems:
        print("\n".join(f"screenshots: {p}" for p in problems), file=sys.stderr)
        return 1
    return 0


def animation(site_dir: Path, out: Path, chromium: str, site: SiteServer, catcher: RequestCatcher) -> list[str]:
    """Shoot the first page with an animated SVG twice, a moment apart, and compare.

    Returns
    -------
    list of str
        One message per failed check (no such page is one).
    """
    page = find_animated(site_dir)
    if page is None:
        return ["no page shows an animated SVG (a figures/*.svg with <animate> elements)"]
    url = site.base + page.path
    pngs = [out / "animation-1.png", out / "animation-2.png"]
    external, failed = animation_frames(chromium, url, pngs, site, catcher)
    problems = [f"loaded from outside the site: {', '.join(external)}"] if external else []
    problems += [f"the site could not serve: {', '.join(failed)}"] if failed else []
    frames = []
    for png in pngs:
        with Image.open(png) as opened:
            frames.append(opened.convert("RGB"))
    change, found = check_animation(*frames)
    if change is not None:
        print(
            f"animation {url}  {pngs[0]} {pngs[1]}  {ANIMATION_GAP_S} s apart: "
            f"{change.inside} pixels of {page.picture} changed, {change.outside} elsewhere"
        )
    return [f"animation ({url}): {p}" for p in problems + found]


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: see the module's docstring."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("site", nargs="?", type=Path, help="the built documentation site")
    parser.add_argument("--out", type=Path, help="directory for the screenshots")
    parser.add_argument("--chromium", help="the browser's executable (default: chromium on PATH)")
    parser.add_argument("--light-only", action="store_true", help="skip the dark colour scheme")
    parser.add_argument("--self-test", action="store_true", help="only check that outside loads are caught")
    args = parser.parse_args(argv)
    chromium = find_chromium(args.chromium)
    if chromium is None:
        print("screenshots: no chromium found (install Debian's chromium, or pass --chromium)", file=sys.stderr)
        return 2
    out = args.out or Path(tempfile.mkdtemp(prefix="queenslab-shots-"))
    try:
        if args.self_test:
            problems = self_test(chromium, out)
            print("\n".join(f"screenshots: {p}" for p in problems) or "screenshots: self-test passed")
            return 1 if problems else 0
        if args.site is None or args.out is None:
            parser.print_usage(sys.stderr)
            print("screenshots: SITE and --out are required (unless --self-test)", file=sys.stderr)
            return 2
        if not args.site.is_dir():
            print(f"screenshots: {args.site}: not a directory", file=sys.stderr)
            return 2
        return run(args.site, out, chromium, dark=not args.light_only)
    except (RuntimeError, ValueError) as exc:
        print(f"screenshots: {exc}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
