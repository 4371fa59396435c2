"""GLI-style collection: the raw data and the final outcomes a lab tests itself.

``croupier certify collect raw`` writes the entropy source's samples before
conditioning and the DRBG's output before any scaling into a range
(:mod:`.raw`); ``croupier certify collect outcomes`` writes shuffled shoes, dice,
wheel numbers and video poker deals drawn by the calls the table runtime makes
(:mod:`.draws`); ``croupier log outcomes`` writes the same files from a store's
signed log. Every directory gets ``collect.json`` naming each file with its
SHA-256 (:mod:`.files`), and ``croupier certify outcomes DIR`` runs the chi-square
tests at 99% on whatever a directory holds (:mod:`.tests`).
"""
