"""The executable reference model of subgames (CR 728) and restarting the game (CR 726).

`objects` and `state` say what a situation is, in the rules' own words; `rulebook` holds
every clause as data in a small step language (`language`); `interpreter` executes those
steps on concrete situations and records a rule-cited trace; `scenario` reads and writes
situations with their events; `graph` draws the nesting of games and zones as a networkx
graph; `strategies` generates valid situations for property tests.
"""
