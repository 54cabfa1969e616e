"""Card effects of Llamas Unleashed, in the order they build on each other:

- :mod:`.statics`: card designs by id and the continuous effects of the cards in a Field.
- :mod:`.zones`: seats in turn order and moving cards between zones.
- :mod:`.targets`: what an operation may target, feasibility, asking a player.
- :mod:`.planning`: links, whose targets are all chosen before they resolve.
- :mod:`.ops`: the interpreter, one function per operation of the effect vocabulary.
"""
