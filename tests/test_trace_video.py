"""queenslab replay --mp4 and queenslab.trace.video: an H.264 video of a trace, read back by imageio."""

from __future__ import annotations

import json
import sys

import numpy as np
import pytest
from clirun import run_cli

from queenslab.errors import MissingDependency, QueensError
from queenslab.trace import record, write_trace
from queenslab.trace.animate import frames
from queenslab.trace.gif import frame_images
from queenslab.trace.video import video_size, write_trace_mp4

iio = pytest.importorskip("imageio.v2")


def _read(path):
    reader = iio.get_reader(path, format="FFMPEG")
    try:
        return [np.asarray(f, np.int16) for f in reader], reader.get_meta_data()
    finally:
        reader.close()


def test_the_video_has_a_frame_per_drawn_step_then_the_held_last_one(tmp_path):
    t = record(9, "selfcorrect", seed=2)
    path = tmp_path / "t.mp4"
    write_trace_mp4(t, path, every=3, fps=10, hold=0.5)
    decoded, meta = _read(path)
    drawn = frame_images(t, 3)
    assert len(drawn) == len(frames(t, 3)[0])
    assert len(decoded) == len(drawn) + 5 and meta["fps"] == 10
    width, height = drawn[0].size
    assert meta["size"] == video_size(width, height) and meta["size"][0] % 16 == 0
    # lossy, but each decoded frame is the drawn one: nearer to it than to another frame that differs
    first, last = (np.asarray(drawn[k], np.int16) for k in (0, -1))
    for got, own, other in ((decoded[0], first, last), (decoded[-1], last, first)):
        got = got[:height, :width]
        assert np.abs(got - own).mean() < np.abs(got - other).mean()


def test_replay_writes_the_video_and_reports_it(capsys, monkeypatch, tmp_path):
    trace_path = tmp_path / "t.jsonl"
    t = record(8, "minconflicts", seed=4)
    write_trace(t, trace_path)
    out_path = tmp_path / "t.mp4"
    code, out, _ = run_cli(capsys, monkeypatch, "replay", trace_path, "--mp4", out_path, "--fps", 4, "--json")
    data = json.loads(out)
    assert code == 0 and data["mp4"] == str(out_path) and data["fps"] == 4
    decoded, meta = _read(out_path)
    assert len(decoded) == len(frames(t)[0]) + 8 and meta["fps"] == 4  # 2 s of the last frame at 4 fps


def test_an_unwritable_path_is_an_error_and_leaves_nothing(capsys, monkeypatch, tmp_path):
    trace_path = tmp_path / "t.jsonl"
    write_trace(record(6, "backtrack"), trace_path)
    code, _, err = run_cli(capsys, monkeypatch, "replay", trace_path, "--mp4", tmp_path / "no" / "t.mp4")
    assert code == 2 and err.startswith("error: ") and not (tmp_path / "no").exists()
    protected = tmp_path / "protected.mp4"
    protected.write_bytes(b"old")
    protected.chmod(0o444)
    code, _, err = run_cli(capsys, monkeypatch, "replay", trace_path, "--mp4", protected)
    assert code == 2 and "read-only" in err and protected.read_bytes() == b"old"
    code, _, err = run_cli(capsys, monkeypatch, "replay", trace_path, "--fps", 3)
    assert code == 2 and "--fps" in err


def test_an_encoder_failing_part_way_leaves_no_file_and_the_old_one_as_it_was(tmp_path, monkeypatch):
    real = iio.get_writer

    class Failing:
        def __init__(self, *a, **k):
            self.writer = real(*a, **k)
            self.frames = 0

        def append_data(self, image):
            self.frames += 1
            if self.frames == 3:
                raise OSError(28, "No space left on device")
            self.writer.append_data(image)

        def close(self):
            self.writer.close()

    monkeypatch.setattr(iio, "get_writer", Failing)
    old = tmp_path / "t.mp4"
    old.write_bytes(b"old")
    with pytest.raises(QueensError, match="No space left"):
        write_trace_mp4(record(6, "backtrack"), old)
    assert old.read_bytes() == b"old" and [p.name for p in tmp_path.iterdir()] == ["t.mp4"]


def test_without_the_video_extra_the_error_names_it(capsys, monkeypatch, tmp_path):
    for name in ("imageio", "imageio.v2", "imageio_ffmpeg"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as if not installed
    with pytest.raises(MissingDependency, match=r'pip install "queenslab\[video\]"'):
        write_trace_mp4(record(6, "backtrack"), tmp_path / "t.mp4")
    trace_path = tmp_path / "t.jsonl"
    write_trace(record(6, "backtrack"), trace_path)
    code, _, err = run_cli(capsys, monkeypatch, "replay", trace_path, "--mp4", tmp_path / "t.mp4")
    assert code == 2 and "queenslab[video]" in err and not (tmp_path / "t.mp4").exists()
