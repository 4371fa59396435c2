"""The batteries labs run besides NIST's: dieharder, rngtest and ent, on the appliance's stream.

Each tool is Debian's own binary, run as a subprocess and fed through a pipe
(:mod:`.feed`), its output parsed into data (:mod:`.dieharder`, :mod:`.rngtest`,
:mod:`.ent`); :mod:`.battery` runs them for ``croupier certify run`` and ``croupier
certify external`` and adds the second-level uniformity of each test's p-values
across runs.
"""
