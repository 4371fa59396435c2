"""Reports: JSON, the NIST ``finalAnalysisReport.txt`` layout, and one HTML page with plots."""
