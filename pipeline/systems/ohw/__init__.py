"""OHW Samurai 1550-1615 (One-Hour Wargames variant): data, legality, odds, engine, module."""
