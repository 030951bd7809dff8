"""``python -m pipeline`` runs the ``gunbai`` command line."""

from pipeline.cli import app

app(prog_name="gunbai")
