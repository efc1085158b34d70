"""Command-line modules registered by :mod:`queenslab.cli`.

Each module defines ``register(cli, experiment)``, which adds its click commands to the
top-level group and its experiments to the ``experiment`` group.
"""
