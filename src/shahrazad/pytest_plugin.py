"""The pytest plugin for engine authors (entry point `pytest11`); filled in by issue 11."""
