"""``python -m pipeline`` runs the ``gunbai`` command line."""

from pipeline.cli import main

main()
