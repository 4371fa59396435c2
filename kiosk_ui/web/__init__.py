"""The web edge: the FastAPI app, its routes, schemas, pages and static files.

The only package that imports FastAPI; everything below it (``kiosk_ui.table``,
``kiosk_ui.store``) is plain Python a second front end could drive.
"""
