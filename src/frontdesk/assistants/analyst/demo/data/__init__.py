"""The demo database's rows, generated deterministically from one seed.

`generate` runs the steps in dependency order (`generate.generate(seed)`); `common` holds the
shared state (`Demo`) and helpers, `names` the word lists; every other module is one step (or a
part of one) and says in its docstring what it adds.
"""
