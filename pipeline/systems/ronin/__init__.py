"""Ronin (Craig Woodfield, Osprey 2013): skirmish data, Buntai rosters checked against the
faction composition rules, exact combat odds, scenarios and the VASSAL module."""
