"""Video poker rules: placeholder for the family template (vp-machine writes it, issue 16)."""
