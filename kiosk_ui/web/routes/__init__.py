"""HTTP routes: player API, operator API, and the HTML pages."""
