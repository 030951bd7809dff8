"""``python -m pipeline`` is the ``gunbai`` command."""

from pipeline.launch import main

main()
