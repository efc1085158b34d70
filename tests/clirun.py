"""Run queenslab's command line in-process for the tests (the real group, every command)."""


def run_cli(capsys, monkeypatch, *args):
    """``main(args)`` with the captured output: ``(exit code, stdout, stderr)``.

    ``monkeypatch`` is accepted so that tests can patch the library before the call."""
    from queenslab.cli import main

    code = main([str(a) for a in args])
    out, err = capsys.readouterr()
    return code, out, err
