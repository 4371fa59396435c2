"""certification: what a regulator's test lab runs to certify the appliance.

* ``certification.stats``: NIST SP 800-22 Rev 1a (the fifteen tests and the final
  analysis, reproducing sts-2.1.2) and the FIPS 140-2 block tests (rngtest's counts);
* ``certification.outcomes``: game-outcome tests on the appliance's own draws and the
  return-to-player check of every game;
* ``certification.report``: JSON, the NIST ``finalAnalysisReport.txt`` text, an HTML page;
* ``certification.run``: ``croupier certify run`` (capture, everything, resumable);
* ``certification.sp800_90b``: the SP 800-90B entropy assessment;
* ``certification.log``: the signed game log.

Errors derive from :class:`certification.errors.CertificationError` (tree there). This
module imports nothing, so ``croupier`` starts without NumPy.
"""
