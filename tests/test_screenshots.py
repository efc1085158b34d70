"""The screenshot checker of the documentation site (``docs/screenshots.py``): its picture
checks on made-up images and sites, and -- in headless Chromium, skipped when no
``chromium`` is installed -- that it catches a page's loads from outside its site and only
those, and that it tells a blank page from a page with text.
"""

import doctest
import importlib.util
import os
import socket
import sys
from pathlib import Path

import pytest
from PIL import Image, ImageDraw

ROOT = Path(__file__).resolve().parents[1]


def _load():
    name = "queenslab_docs_screenshots"
    spec = importlib.util.spec_from_file_location(name, ROOT / "docs" / "screenshots.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up by name
    spec.loader.exec_module(module)
    return module


shots = _load()

CHROMIUM = shots.find_chromium()
needs_chromium = pytest.mark.skipif(
    CHROMIUM is None, reason="no chromium on PATH (Debian: apt-get install chromium); .ci/run installs it"
)


def _text_page(size=(400, 300), header=True):
    """A white page with lines of text, and a coloured header bar unless told otherwise."""
    image = Image.new("RGB", size, "white")
    draw = ImageDraw.Draw(image)
    if header:
        draw.rectangle((0, 0, size[0], 47), fill=(63, 81, 181))
    for y in range(60, size[1] - 20, 18):
        draw.text((10, y), "The first of the 92 solutions of eight queens 1 5 8 6 3 7 2 4", fill=(30, 30, 30))
    return image


def test_doctests():
    result = doctest.testmod(shots)
    assert result.attempted > 0 and result.failed == 0


def test_a_white_page_is_blank_and_a_page_of_text_is_not():
    assert shots.image_stats(Image.new("RGB", (1280, 1600), "white")).blank
    assert shots.image_stats(Image.new("RGB", (1280, 1600), (30, 33, 41))).blank  # dark background alone
    stats = shots.image_stats(_text_page((1280, 1600)))
    assert not stats.blank, stats


def test_a_picture_is_found_by_its_colours_and_cropped_around():
    page = Image.new("RGB", (1280, 6000), "white")
    draw = ImageDraw.Draw(page)
    for row in range(8):  # an 8 x 8 checkerboard of 40-pixel squares at y = 4000
        for col in range(8):
            colour = shots.LIGHT if (row + col) % 2 == 0 else shots.DARK
            draw.rectangle((400 + 40 * col, 4000 + 40 * row, 439 + 40 * col, 4039 + 40 * row), fill=colour)
    box, counts = shots.find_picture(page, [shots.LIGHT, shots.DARK], shots.MIN_BOARD_PIXELS, every=True)
    assert box == (400, 4000, 720, 4320)
    assert counts == {shots.LIGHT: 32 * 1600, shots.DARK: 32 * 1600}
    view = shots.crop_around(page, box)
    assert view.size == shots.WINDOW
    assert shots.colour_pixels(view, shots.LIGHT) == 32 * 1600
    # one colour of two is not a board; one of a plot's colours is enough
    assert shots.find_picture(page, [shots.LIGHT, "#1f77b4"], 500, every=True)[0] is None
    assert shots.find_picture(page, [shots.LIGHT, "#1f77b4"], 500, every=False)[0] is not None


def test_unstyled_page_has_no_header_bar():
    assert shots.header_bar(_text_page())
    assert not shots.header_bar(_text_page(header=False))


def _free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _site(tmp_path, pages):
    for name, html in pages.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(html)
    return tmp_path


def test_pages_are_chosen_in_the_navigation_order(tmp_path):
    nav = '<nav><a class="md-nav__link" href="zeta.html">Z</a><a class="md-nav__link" href="alpha.html">A</a></nav>'
    site = _site(
        tmp_path,
        {
            "index.html": nav + '<img src="boards/home.svg"><img src="figures/home.svg">',
            "alpha.html": '<h2 id="a">A</h2><img src="boards/a.svg">',
            "zeta.html": '<h2 id="z">Z</h2><p><img alt="plot" src="figures/z.svg" /></p><img src="boards/z.svg">',
            "404.html": '<img src="figures/404.svg">',
        },
    )
    assert shots.page_order(site) == ["zeta.html", "alpha.html", "index.html"]
    assert shots.choose_pages(site) == [
        shots.Page("index", "index.html"),
        shots.Page("board", "zeta.html", "boards/z.svg"),
        shots.Page("plot", "zeta.html", "figures/z.svg"),
    ]


def test_the_index_counts_when_no_other_page_has_a_picture(tmp_path):
    site = _site(tmp_path, {"index.html": '<img src="boards/a.svg"><img src="figures/b.svg">', "other.html": "text"})
    assert [p.path for p in shots.choose_pages(site)] == ["index.html"] * 3


def test_a_site_without_a_plot_is_refused(tmp_path):
    site = _site(tmp_path, {"index.html": '<img src="boards/a.svg">', "b.html": '<img src="boards/b.svg">'})
    with pytest.raises(ValueError, match="no page shows a plot"):
        shots.choose_pages(site)
    with pytest.raises(ValueError, match="no index.html"):
        shots.choose_pages(tmp_path / "b.html")


def test_check_names_every_problem(tmp_path):
    site = _site(tmp_path, {"index.html": "", "p.html": '<img src="figures/p.svg">'})
    (site / "figures").mkdir()
    (site / "figures" / "p.svg").write_text('<svg><path style="stroke: #4c72b0"/></svg>')
    png = tmp_path / "shot.png"
    Image.new("RGB", (1280, 1600), "white").save(png)
    shot = shots.Capture(
        "http://127.0.0.1:1/p.html", png, "<html></html>", ["CONNECT example.com:443"], [], ["404 /x.css"]
    )
    _, stats, problems = shots.check(shots.Page("plot", "p.html", "figures/p.svg"), site, shot)
    assert stats.blank
    text = "\n".join(problems)
    for expected in ("header bar", "outside the site: CONNECT example.com:443", "404 /x.css", "in the page's DOM"):
        assert expected in text
    assert "figures/p.svg: not rendered" in text and "#4c72b0" in text
    assert "blank" in text


def test_the_browser_sink_is_not_the_page(tmp_path):
    with shots.RequestCatcher() as catcher:
        catcher._server.log.extend(["CONNECT example.com:443", f"POST http://{shots.BROWSER_SINK}/ListAccounts"])
        assert catcher.take() == (["CONNECT example.com:443"], [f"POST http://{shots.BROWSER_SINK}/ListAccounts"])
        assert catcher.take() == ([], [])


@needs_chromium
def test_outside_loads_are_caught_and_local_ones_are_not(tmp_path):
    other = _free_port()  # another port of this machine is outside the site too
    site_dir = _site(
        tmp_path / "site",
        {
            "external.html": '<h1>x</h1><img src="https://example.com/x.png"><script src="http://cdn.example.org/a.js"></script>'
            f'<img src="http://127.0.0.1:{other}/other-port.png">',
            "local.html": '<link rel="icon" href="data:,"><h1>x</h1><img src="a.svg"><script src="a.js"></script>',
            "a.svg": '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>',
            "a.js": "document.title = 'a';",
        },
    )
    with shots.SiteServer(site_dir) as site, shots.RequestCatcher() as catcher:
        outside = shots.capture(CHROMIUM, site.base + "external.html", tmp_path / "e.png", site, catcher)
        local = shots.capture(CHROMIUM, site.base + "local.html", tmp_path / "l.png", site, catcher)
    assert sorted(outside.external) == [
        "CONNECT example.com:443",
        f"GET http://127.0.0.1:{other}/other-port.png",
        "GET http://cdn.example.org/a.js",
    ]
    assert local.external == [] and local.failed == []
    assert "<h1>x</h1>" in local.dom


@needs_chromium
def test_self_test_passes(tmp_path):
    assert shots.self_test(CHROMIUM, tmp_path) == []


@needs_chromium
def test_a_blank_page_is_told_from_a_page_with_text(tmp_path):
    site_dir = _site(
        tmp_path / "site",
        {
            "blank.html": "<html><body></body></html>",
            "text.html": "<html><body>"
            + "<p>The first of the 92 solutions of eight queens.</p>" * 40
            + "</body></html>",
        },
    )
    with shots.SiteServer(site_dir) as site, shots.RequestCatcher() as catcher:
        for name, blank in (("blank", True), ("text", False)):
            shot = shots.capture(CHROMIUM, f"{site.base}{name}.html", tmp_path / f"{name}.png", site, catcher)
            with Image.open(shot.png) as image:
                stats = shots.image_stats(image)
            assert stats.size == shots.WINDOW
            assert stats.blank == blank, (name, stats)


def _checkerboard(draw, left, top, square=30):
    for row in range(8):
        for col in range(8):
            colour = shots.LIGHT if (row + col) % 2 == 0 else shots.DARK
            x, y = left + square * col, top + square * row
            draw.rectangle((x, y, x + square - 1, y + square - 1), fill=colour)


def test_a_moving_picture_is_told_from_a_still_one_and_from_a_restless_page():
    first = _text_page((800, 900))
    _checkerboard(ImageDraw.Draw(first), 200, 300)
    moved = first.copy()
    ImageDraw.Draw(moved).ellipse((235, 335, 255, 355), fill=(17, 17, 17))  # a queen on a square
    change, problems = shots.check_animation(first, moved)
    assert problems == [] and change.inside > shots.MIN_ANIMATION_PIXELS and change.outside == 0
    assert change.region == shots.grow((200, 300, 440, 540), shots.ANIMATION_MARGIN, first.size)
    change, problems = shots.check_animation(first, first.copy())
    assert change.inside == 0 and "does not move" in problems[0]
    restless = moved.copy()
    ImageDraw.Draw(restless).rectangle((10, 10, 30, 20), fill=(200, 0, 0))  # in the header, far from the board
    change, problems = shots.check_animation(first, restless)
    assert change.outside == 21 * 11 and any("outside the animated picture" in p for p in problems)
    assert shots.check_animation(_text_page(), _text_page())[0] is None  # no board at all


def test_the_animated_page_is_found_by_its_svg(tmp_path):
    site = _site(
        tmp_path,
        {
            "index.html": '<nav><a class="md-nav__link" href="still.html">S</a><a class="md-nav__link" href="w.html">W</a></nav>',
            "still.html": '<img src="figures/plot.svg#only-light">',
            "w.html": '<img alt="a search" src="figures/watch.svg">',
            "figures/plot.svg": "<svg><path/></svg>",
            "figures/watch.svg": '<svg><rect><animate attributeName="x" values="1;2" dur="1s"/></rect></svg>',
        },
    )
    assert shots.find_animated(site) == shots.Page("animation", "w.html", "figures/watch.svg")
    (site / "figures" / "watch.svg").write_text("<svg/>")
    assert shots.find_animated(site) is None


#: A page with an animated board, SMIL as in queenslab.trace's SVGs: a queen hops along a
#: row every 0.2 s, forever; the text around it does not move.
ANIMATED_BOARD = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="240" viewBox="0 0 8 8">'
    '<defs><pattern id="ck" width="2" height="2" patternUnits="userSpaceOnUse"><rect width="2" height="2" fill="{light}"/>'
    '<rect x="1" width="1" height="1" fill="{dark}"/><rect y="1" width="1" height="1" fill="{dark}"/></pattern></defs>'
    '<rect width="8" height="8" fill="url(#ck)"/><circle cy="3.5" r="0.4" fill="#111111">'
    '<animate attributeName="cx" calcMode="discrete" values="0.5;1.5;2.5;3.5;4.5;5.5;6.5;7.5" dur="1.6s" '
    'repeatCount="indefinite"/></circle></svg>'
)


def _frames(site_dir, path, tmp_path, gap_s=shots.ANIMATION_GAP_S):
    pngs = [tmp_path / "frame-1.png", tmp_path / "frame-2.png"]
    with shots.SiteServer(site_dir) as site, shots.RequestCatcher() as catcher:
        external, failed = shots.animation_frames(CHROMIUM, site.base + path, pngs, site, catcher, gap_s=gap_s)
    assert external == [] and failed == []
    frames = []
    for png in pngs:
        with Image.open(png) as image:
            assert image.size == shots.WINDOW
            frames.append(image.convert("RGB"))
    return frames


@needs_chromium
def test_two_screenshots_of_an_animation_differ_in_it_and_nowhere_else(tmp_path):
    site_dir = _site(
        tmp_path / "site",
        {
            "watch.html": "<html><body><h1>Watching</h1>"
            + "<p>The queens move; this text does not.</p>" * 5
            + '<img src="figures/board.svg"><p>Below the board.</p></body></html>',
            "figures/board.svg": ANIMATED_BOARD.format(light=shots.LIGHT, dark=shots.DARK),
        },
    )
    # 0.3 s apart: the queen is on another square (a whole turn, 1.6 s, would bring it back)
    change, problems = shots.check_animation(*_frames(site_dir, "watch.html", tmp_path, gap_s=0.3))
    assert problems == [], problems
    assert change.inside >= shots.MIN_ANIMATION_PIXELS and change.outside == 0


@pytest.mark.skipif(not os.environ.get("QUEENSLAB_DOCS_SITE"), reason="QUEENSLAB_DOCS_SITE names no built site")
@needs_chromium
def test_the_watching_page_animates_in_the_browser(tmp_path):
    """On the built site: the animated search of the first page that has one moves between
    two screenshots a moment apart, and nothing else on the page does."""
    site_dir = Path(os.environ["QUEENSLAB_DOCS_SITE"])
    page = shots.find_animated(site_dir)
    assert page is not None and page.path == "watching.html"
    change, problems = shots.check_animation(*_frames(site_dir, page.path, tmp_path))
    assert problems == [], problems
    assert change.inside >= shots.MIN_ANIMATION_PIXELS and change.outside == 0


def test_a_white_plot_in_the_dark_scheme_is_reported(tmp_path):
    site = _site(tmp_path, {"index.html": "", "p.html": '<img src="figures/p.svg#only-light">'})
    (site / "figures").mkdir()
    (site / "figures" / "p.svg").write_text('<svg><path style="stroke: #4c72b0"/></svg>')
    page = Image.new("RGB", (1280, 1600), (30, 32, 41))
    draw = ImageDraw.Draw(page)
    draw.rectangle((0, 0, 1279, 47), fill=(63, 81, 181))
    draw.rectangle((300, 300, 900, 700), fill="white")  # the light picture, a white box
    draw.line((320, 650, 880, 320), fill="#4c72b0", width=3)
    png = tmp_path / "shot.png"
    page.save(png)
    shot = shots.Capture("http://127.0.0.1:1/p.html", png, '<img src="figures/p.svg#only-light">')
    target = shots.Page("plot", "p.html", "figures/p.svg")
    assert not any("white" in p for p in shots.check(target, site, shot)[2])
    assert any("white in the dark scheme" in p for p in shots.check(target, site, shot, dark=True)[2])


def test_command_line_usage_errors(tmp_path, capsys):
    if CHROMIUM is None:
        assert shots.main(["--chromium", "no-such-browser-here", str(tmp_path)]) == 2
        return
    assert shots.main([str(tmp_path)]) == 2  # no --out
    assert shots.main([str(tmp_path / "missing"), "--out", str(tmp_path / "o")]) == 2
    assert "not a directory" in capsys.readouterr().err
    assert shots.main(["--chromium", "no-such-browser-here", str(tmp_path), "--out", str(tmp_path)]) == 2
