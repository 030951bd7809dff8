"""Commands & Colours: Samurai Battles with the Genpei War expansion (hex board).

- :mod:`.model` the data schema; :mod:`.load` reads ``source_data/genpei/``;
- :mod:`.verify` the legality rules of a scenario set-up;
- :mod:`.layout` the board's pixel geometry; :mod:`.art` what is drawn;
- :mod:`.module` the VASSAL module layout; :mod:`.build` the whole job.
"""
