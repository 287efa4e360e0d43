"""The executable reference model of subgames (CR 728) and restarting the game (CR 726).

`objects` and `state` say what a situation is, in the rules' own words; `rulebook` holds
every clause as data in a small step language (`language`); `interpreter` executes those
steps on concrete situations and records a rule-cited trace, through one module per
seam of the rules (`event_steps`, `game_steps`, `object_steps`, `actions`); `scenario`
reads and writes situations with their events; `graph` draws the nesting of games and
zones as a networkx graph; `strategies` generates valid situations for property tests.
Nothing here imports the invariants or the prover: the structure of a legal situation is
stated once, in the catalog (`shahrazad.invariants.structure`), and handed to the reader.
"""
