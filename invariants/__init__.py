"""The invariant catalog: every promise of the subgame and restart rules, written once.

Not written yet: the catalog arrives with the proofs. Until then, the structural checks of
concrete situations live in `model.wellformed` and `model.graph.tree_faults`.
"""
