"""Software verification: a signed manifest of the installed package's files.

A lab certifies one build. The appliance proves it runs that build by a manifest:
every file of the five installed packages with its SHA-256 (:mod:`.manifest`),
sealed with the appliance's Ed25519 key into the store (:mod:`.seal`). ``croupier
serve`` checks it before listening and refuses a mismatch (one line, exit 2);
``croupier verify-install`` and the operator console check it on demand; the
certification report prints the installed manifest's hash, so a report is tied to
the software that produced it.
"""

from certification.install.manifest import Manifest, build_manifest, package_roots
from certification.install.seal import InstallCheck, check_install, seal_install

__all__ = [
    "InstallCheck",
    "Manifest",
    "build_manifest",
    "check_install",
    "package_roots",
    "seal_install",
]
