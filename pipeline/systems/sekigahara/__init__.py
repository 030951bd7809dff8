"""The Reluctant Samurai: Sekigahara 1600 (Junior General): data, legality, odds, engine, module."""
