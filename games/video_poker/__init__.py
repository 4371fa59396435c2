"""Video poker (issue 16): deal five, hold, draw; its exact best-hold mathematics."""
