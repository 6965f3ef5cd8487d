"""``ksched diff``: what a profile (or manifest) change does to placements."""
