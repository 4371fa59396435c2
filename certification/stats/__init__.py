"""Statistical test batteries: NIST SP 800-22 Rev 1a and the FIPS 140-2 block tests.

``certification.stats.bitstream`` reads bit files the way the NIST tool does;
``certification.stats.sp800_22`` holds the fifteen tests, the battery and the final
analysis; ``certification.stats.fips140_2`` the rngtest-style block tests.
"""
