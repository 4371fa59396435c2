"""The SP 800-22 result as JSON: one row per test variant, p-values per sequence.

Shape: ``{"sequences": N, "length": BITS, "tests": [{"name", "variant", "p_values",
"proportion", "uniformity_p", ...}]}``; a p-value of ``null`` means not applicable.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

from certification.stats.sp800_22.final_analysis import VariantSummary


def sp800_22_document(
    summaries: Sequence[VariantSummary],
    sequences: int,
    length: int,
    extra: Mapping[str, object] | None = None,
) -> dict[str, object]:
    doc: dict[str, object] = {
        "sequences": sequences,
        "length": length,
        "tests": [s.as_dict() for s in summaries],
    }
    if extra:
        doc.update(extra)
    return doc


def dumps(doc: Mapping[str, object]) -> str:
    return json.dumps(doc, indent=1, allow_nan=False)
