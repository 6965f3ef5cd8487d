"""PodTopologySpread: spread pods evenly across topology domains (plugins/podtopologyspread)."""
