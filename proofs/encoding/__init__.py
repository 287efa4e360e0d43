"""The rules as z3 transitions: symbolic situations (`symbolic`), one event's encoding
under way (`encoder`), the steps cut along the rules' seams (`events`, `actions`,
`game_steps`, `object_steps`) and the driver that runs them clause by clause (`encode`).

May import: `shahrazad.model`, `shahrazad.invariants`. Nothing here asks a solver.
"""
